import type { WebPool } from '@lp/contract/web-seats/schemas';
import { Alert, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useCustomer, useRefusalRedirect } from '../../../app/customer-context.tsx';
import { useViewOnly } from '../../../app/use-view-only.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { webPoolsQuery } from '../api/web-seats.ts';
import { PolicyDialog } from '../components/policy-dialog.tsx';
import { PoolsTable } from '../components/pools-table.tsx';

export const webEntitlementsTexts = {
  loading: 'Getting web seat pools...',
  empty: 'This account has no Named User or Shared Web entitlements in their term.',
} as const;

function Pools({ customerNumber }: { customerNumber: string }) {
  const pools = useQuery(webPoolsQuery(customerNumber));
  useRefusalRedirect(pools.error, customerNumber);
  // View-only users see the pools and change nothing; the server refuses their saves too.
  const viewOnly = useViewOnly();
  const [editing, setEditing] = useState<WebPool | null>(null);

  if (pools.isPending) return <Spinner text={webEntitlementsTexts.loading} />;
  if (pools.isError) return <Alert color="red">{errorText(pools.error)}</Alert>;
  if (pools.data.length === 0)
    return (
      <Alert color="blue" variant="light">
        {webEntitlementsTexts.empty}
      </Alert>
    );
  return (
    <>
      <PoolsTable
        customerNumber={customerNumber}
        pools={pools.data}
        onEditPolicy={viewOnly ? undefined : setEditing}
      />
      {editing ? (
        <PolicyDialog
          key={editing.partNumber}
          customerNumber={customerNumber}
          pool={editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </>
  );
}

/**
 * /web-assignments and /web-assignments/entitlements (decision 071 "Pages"): the account's web seat pools, their
 * seats and lease policy. Routed inside RequireCustomer (an export-blocked account is never selected: /noaccess).
 */
export default function WebEntitlementsPage() {
  const { customer } = useCustomer();
  if (!customer) return null;
  return (
    <Stack data-testid="web-entitlements-page" gap="sm">
      <Text size="sm">
        Seats of the products sold as Named User or Shared Web licenses, and how their sessions are leased.
      </Text>
      <Pools key={customer.customerNumber} customerNumber={customer.customerNumber} />
    </Stack>
  );
}
