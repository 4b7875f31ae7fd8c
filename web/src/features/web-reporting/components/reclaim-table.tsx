import type { ReclaimSeat } from '@lp/contract/web-reporting/schemas';
import { Button, Table, Text } from '@mantine/core';

const day = (instant: string | null) => (instant ? instant.slice(0, 10) : 'never');

/**
 * Named seats nobody used in the window. A direct seat is reclaimed with one click (web-seats' unassignWebSeats);
 * a seat a group gives stays while the person is in the group, so it names the group instead. View-only users
 * (no `onUnassign`) see the list only.
 */
export function ReclaimTable({
  seats,
  onUnassign,
  busy,
  loading = false,
}: {
  seats: readonly ReclaimSeat[];
  /** The rows are the page before while the one asked for loads: shown dimmed, busy, and not to be acted on. */
  loading?: boolean;
  onUnassign?: (seat: ReclaimSeat) => void;
  /** The seat being unassigned ("partNumber/userId"). */
  busy?: string | null;
}) {
  return (
    <Table striped aria-label="Unused named seats" aria-busy={loading} style={{ opacity: loading ? 0.5 : 1 }}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Person</Table.Th>
          <Table.Th>E-mail</Table.Th>
          <Table.Th>Product</Table.Th>
          <Table.Th>Assigned</Table.Th>
          <Table.Th>Last session</Table.Th>
          <Table.Th>Seat</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {seats.map((seat) => (
          <Table.Tr key={`${seat.partNumber}/${seat.userId}`}>
            <Table.Td>{seat.name}</Table.Td>
            <Table.Td>{seat.email}</Table.Td>
            <Table.Td>{seat.productName}</Table.Td>
            <Table.Td>{day(seat.assignedAt)}</Table.Td>
            <Table.Td>{day(seat.lastSeen)}</Table.Td>
            <Table.Td>
              {seat.viaGroup ? (
                <Text size="sm">Through group {seat.viaGroup}</Text>
              ) : onUnassign ? (
                <Button
                  size="compact-xs"
                  variant="light"
                  color="red"
                  aria-label={`Unassign ${seat.email} from ${seat.productName}`}
                  loading={busy === `${seat.partNumber}/${seat.userId}`}
                  disabled={loading}
                  onClick={() => onUnassign(seat)}
                >
                  Unassign
                </Button>
              ) : (
                <Text size="sm">Direct</Text>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
