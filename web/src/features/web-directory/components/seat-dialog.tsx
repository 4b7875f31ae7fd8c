import type { WebUser } from '@lp/contract/web-directory/schemas';
import { Button, Group, Modal, Select, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { confirmDialog } from '../../../components/confirm-dialog.tsx';
import { useAssignSeats, useUnassignSeats, webPoolsQuery } from '../../web-seats/api/web-seats.ts';
import { previewQuestion, previewThenSave } from '../preview-flow.ts';
import { directSeats } from '../user-text.ts';

/**
 * Assign a named seat to a person, or take a direct one: the pool is chosen here, then the server's preview is
 * confirmed (spec 000's Confirm with the server's words) before the change is made.
 */
export function SeatDialog({
  customerNumber,
  user,
  mode,
  onClose,
}: {
  customerNumber: string;
  user: WebUser;
  mode: 'assign' | 'unassign';
  onClose: () => void;
}) {
  const pools = useQuery(webPoolsQuery(customerNumber));
  const assign = useAssignSeats(customerNumber);
  const unassign = useUnassignSeats(customerNumber);
  const [partNumber, setPartNumber] = useState<string | null>(null);
  const held = new Set(user.seats.map((s) => s.partNumber));
  const direct = new Set(directSeats(user));
  const options = (pools.data ?? [])
    .filter((p) => p.kind === 'named')
    .filter((p) => (mode === 'assign' ? !direct.has(p.partNumber) : direct.has(p.partNumber)))
    .map((p) => ({
      value: p.partNumber,
      label: `${p.productName} (${p.partNumber})${mode === 'assign' && held.has(p.partNumber) ? ', held through a group' : ''}`,
    }));
  const title = mode === 'assign' ? `Assign a seat to ${user.email}` : `Unassign a seat of ${user.email}`;

  const go = async () => {
    if (!partNumber) return;
    const mutation = mode === 'assign' ? assign : unassign;
    const done = await previewThenSave(
      (preview) => mutation.mutateAsync({ partNumber, userIds: [user.id], preview }),
      (text) => confirmDialog(previewQuestion(text)),
    );
    if (done) onClose();
  };

  return (
    <Modal opened onClose={onClose} title={title} size={500} closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack gap="sm">
        <Select
          label="Named pool"
          placeholder={pools.isPending ? 'Loading...' : 'Choose a pool'}
          data={options}
          value={partNumber}
          onChange={setPartNumber}
          nothingFoundMessage="No pool"
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            onClick={() => void go()}
            disabled={!partNumber}
            loading={assign.isPending || unassign.isPending}
          >
            {mode === 'assign' ? 'Assign' : 'Unassign'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
