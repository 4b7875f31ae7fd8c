import { Button, Group, Modal, Table } from '@mantine/core';
import type { OrderView } from '../order-lines.ts';

/** 'order' = Order, 'activate' = Order & Activate (spec 002 §4: OrderAndActivate). */
export type OrderChoice = 'order' | 'activate';

/**
 * The FSA order confirmation dialog (spec 002 §2): Entitlement (the contract), Product, Count, Start Date,
 * Expiration Date, Cost, Currency; Cancel, Order and 'Order & Activate', the last only when not every line is a
 * manual entry and the user has the FSA activation permission.
 */
export function OrderConfirmDialog({
  opened,
  title,
  contractId,
  view,
  canActivate,
  onClose,
  onChoose,
}: {
  opened: boolean;
  title: string;
  contractId: string;
  view: OrderView;
  canActivate: boolean;
  onClose: () => void;
  onChoose: (choice: OrderChoice) => void;
}) {
  const allManual = view.lines.every((l) => l.line.manualEntry);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size={900}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Table.ScrollContainer minWidth={700}>
        <Table aria-label="Lines to order">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Entitlement</Table.Th>
              <Table.Th>Product</Table.Th>
              <Table.Th>Count</Table.Th>
              <Table.Th>Start Date</Table.Th>
              <Table.Th>Expiration Date</Table.Th>
              <Table.Th>Cost</Table.Th>
              <Table.Th>Currency</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {view.lines.map(({ line, endDate, cost }) => (
              <Table.Tr key={line.rowId}>
                <Table.Td>{contractId}</Table.Td>
                <Table.Td>{line.product}</Table.Td>
                <Table.Td>{line.count.trim() === '' ? '1' : line.count}</Table.Td>
                <Table.Td>{line.startDate}</Table.Td>
                <Table.Td>{endDate}</Table.Td>
                <Table.Td ta="right">{cost}</Table.Td>
                <Table.Td>{line.currency}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={() => onChoose('order')}>Order</Button>
        {canActivate && !allManual ? (
          <Button onClick={() => onChoose('activate')}>Order &amp; Activate</Button>
        ) : null}
      </Group>
    </Modal>
  );
}
