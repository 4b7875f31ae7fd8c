import { messages } from '@lp/contract/common/errors';
import { formatCount } from '@lp/domain/amounts';
import { Alert, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { tabQuery } from '../api/activations.ts';
import { EntitlementText, expirationText } from './entitlement-text.tsx';

/** What the FSA page's Order & Activate hands to /activations (router state): the new lines' ids. */
interface OrderedState {
  ordered: { customerNumber: string; entitlementIds: string[] };
}

const isOrdered = (state: unknown): state is OrderedState => {
  const ordered = (state as Partial<OrderedState> | null)?.ordered;
  return typeof ordered?.customerNumber === 'string' && Array.isArray(ordered.entitlementIds);
};

/**
 * After Order & Activate (spec 002 §4, decision 049): the order succeeded, and here are its new lines, read from
 * the account's available rows, until the user closes the message.
 */
export function OrderedEntitlements({ customerNumber }: { customerNumber: string }) {
  const location = useLocation();
  const navigate = useNavigate();
  const state: unknown = location.state;
  const ids =
    isOrdered(state) && state.ordered.customerNumber === customerNumber ? state.ordered.entitlementIds : [];
  const available = useQuery({ ...tabQuery(customerNumber, null), enabled: ids.length > 0 });
  if (ids.length === 0) return null;
  const rows = (available.data?.available ?? []).filter((r) => ids.includes(r.activationid));
  return (
    <Alert
      color="green"
      title={messages.fsaCreated}
      withCloseButton
      closeButtonLabel="Close"
      onClose={() => navigate(location.pathname + location.search, { replace: true, state: null })}
      data-testid="ordered-entitlements"
    >
      <Text size="sm">
        Select a server, or add one, to activate the new entitlements: they are in its Available Entitlements.
      </Text>
      {rows.length > 0 ? (
        <Table mt="xs" withTableBorder aria-label="New entitlements">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Entitlement</Table.Th>
              <Table.Th>Count</Table.Th>
              <Table.Th>Start Date</Table.Th>
              <Table.Th>Expiration Date</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.activationid}>
                <Table.Td>
                  <EntitlementText row={r} />
                </Table.Td>
                <Table.Td>{formatCount(r.ansyscount)}</Table.Td>
                <Table.Td>{r.startdate}</Table.Td>
                <Table.Td>{expirationText(r)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
    </Alert>
  );
}
