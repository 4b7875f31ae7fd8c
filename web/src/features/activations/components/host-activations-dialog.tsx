import type { ActivationRow } from '@lp/contract/activations/schemas';
import { messages } from '@lp/contract/common/errors';
import type { LicenseServer } from '@lp/contract/license-servers/schemas';
import { formatCount } from '@lp/domain/amounts';
import { Alert, Button, Group, Loader, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { RemainingDaysBar } from '../../../components/remaining-days-bar.tsx';
import { useHostEntitlements } from '../api/history.ts';
import { EntitlementText, expirationText } from './entitlement-text.tsx';

/** Spec 002 §3: a perpetual shows its maintenance end instead of an end date. */

function Rows({ rows, label }: { rows: ActivationRow[]; label: string }) {
  return (
    <Table striped withTableBorder aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>#</Table.Th>
          <Table.Th>Entitlement</Table.Th>
          <Table.Th>Activated</Table.Th>
          <Table.Th>Start Date</Table.Th>
          <Table.Th>Expiration Date</Table.Th>
          <Table.Th w={180}>Remaining Days</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row, index) => (
          <Table.Tr key={row.activationid}>
            <Table.Td>{index + 1}</Table.Td>
            <Table.Td>
              <EntitlementText row={row} />
            </Table.Td>
            <Table.Td>{formatCount(row.ansysactivated)}</Table.Td>
            <Table.Td>{row.startdate}</Table.Td>
            <Table.Td>{expirationText(row)}</Table.Td>
            <Table.Td>
              <RemainingDaysBar value={row} name={row.activationid} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * View host activations (spec 002 §2): 1200 px, 'The following products are activated on Host ID: {id}', the
 * products on the host with index, Entitlement, Activated, Start Date, Expiration Date and the remaining-days bar,
 * and one Ok button. On a shared host, one table per account the user may see, and how many other accounts share
 * it unseen (decision 049).
 */
export function HostActivationsDialog({
  customerNumber,
  host,
  onClose,
}: {
  customerNumber: string;
  host: LicenseServer | null;
  onClose: () => void;
}) {
  const query = useHostEntitlements(customerNumber, host);
  return (
    <Modal
      opened={host !== null}
      onClose={onClose}
      size={1200}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
      title={host ? `The following products are activated on Host ID: ${host.serverId}` : ''}
    >
      <Stack>
        {query.isPending ? (
          <Group gap="xs" role="status">
            <Loader size="sm" />
            <Text size="sm">Loading...</Text>
          </Group>
        ) : query.isError ? (
          <Alert color="red" role="alert">
            {messages.unableFetchServerEntitlements(host?.serverId ?? '')}
          </Alert>
        ) : (
          <>
            {query.data.accounts.map(({ account, rows }) => {
              const shared = query.data.accounts.length > 1;
              const name = `${account.AccountID}${account.AccountName ? ` (${account.AccountName})` : ''}`;
              return (
                <Stack key={account.AccountID} gap={4}>
                  {shared ? (
                    <Title order={3} size="h5">
                      {name}
                    </Title>
                  ) : null}
                  {rows.length === 0 ? (
                    <Text>No products are activated on this host for this account.</Text>
                  ) : (
                    <Rows
                      rows={rows}
                      label={shared ? `Activated products of ${account.AccountID}` : 'Activated products'}
                    />
                  )}
                </Stack>
              );
            })}
            {query.data.hidden > 0 ? (
              <Text size="sm" data-testid="hidden-accounts">
                {query.data.hidden} other account(s) you cannot see also use this host; their products are not
                listed.
              </Text>
            ) : null}
          </>
        )}
        <Group justify="flex-end">
          <Button onClick={onClose}>Ok</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
