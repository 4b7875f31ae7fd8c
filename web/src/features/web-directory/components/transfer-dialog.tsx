import type { WebUser } from '@lp/contract/web-directory/schemas';
import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { confirmDialog } from '../../../components/confirm-dialog.tsx';
import { useTransferSeat, webPoolsQuery } from '../../web-seats/api/web-seats.ts';
import { previewQuestion, previewThenSave } from '../preview-flow.ts';
import { directSeats } from '../user-text.ts';

/**
 * Transfer a person's direct named seat to someone else (decision 071: counted against the pool's rolling 30-day
 * allowance, shown here as the server words it); the server's preview is confirmed before the change is made.
 */
export function TransferDialog({
  customerNumber,
  user,
  users,
  onClose,
}: {
  customerNumber: string;
  user: WebUser;
  /** The directory: the people the seat may go to. */
  users: WebUser[];
  onClose: () => void;
}) {
  const pools = useQuery(webPoolsQuery(customerNumber));
  const transfer = useTransferSeat(customerNumber);
  const held = directSeats(user);
  const [partNumber, setPartNumber] = useState<string | null>(held.length === 1 ? (held[0] ?? null) : null);
  const [toUserId, setToUserId] = useState<string | null>(null);
  const pool = pools.data?.find((p) => p.partNumber === partNumber);
  const poolOptions = held.map((part) => {
    const found = pools.data?.find((p) => p.partNumber === part);
    return { value: part, label: found ? `${found.productName} (${part})` : part };
  });
  const people = users
    .filter((u) => u.id !== user.id && (u.state === 'invited' || u.state === 'active'))
    .filter((u) => !partNumber || !directSeats(u).includes(partNumber))
    .map((u) => ({ value: u.id, label: u.name ? `${u.name} <${u.email}>` : u.email }));

  const go = async () => {
    if (!partNumber || !toUserId) return;
    const done = await previewThenSave(
      (preview) => transfer.mutateAsync({ partNumber, fromUserId: user.id, toUserId, preview }),
      (text) => confirmDialog(previewQuestion(text)),
    );
    if (done) onClose();
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={`Transfer a seat of ${user.email}`}
      size={500}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="sm">
        <Select
          label="Named pool"
          data={poolOptions}
          value={partNumber}
          onChange={(value) => {
            setPartNumber(value);
            setToUserId(null);
          }}
          data-autofocus
        />
        {pool ? <Text size="sm">{pool.transfers.text}</Text> : null}
        <Select
          label="To"
          placeholder="Choose a person"
          data={people}
          value={toUserId}
          onChange={setToUserId}
          searchable
          nothingFoundMessage="Nobody found"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void go()} disabled={!partNumber || !toUserId} loading={transfer.isPending}>
            Transfer
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
