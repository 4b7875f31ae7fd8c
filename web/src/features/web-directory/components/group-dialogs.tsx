import type { WebGroup, WebUser } from '@lp/contract/web-directory/schemas';
import type { WebPoolUse } from '@lp/contract/web-seats/schemas';
import {
  Alert,
  Button,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  Select,
  Stack,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { showSuccess } from '../../../components/panels.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useSaveGroupTerms, useSetGroupPools } from '../../web-seats/api/web-seats.ts';
import { useCreateGroup, useRenameGroup, useSetGroupMembers } from '../api/web-directory.ts';
import { PreviewDialog } from './preview-dialog.tsx';

/** Create a group, or rename one; the server's refusal (a taken name) is shown in the dialog. */
export function GroupNameDialog({
  customerNumber,
  group,
  onClose,
}: {
  customerNumber: string;
  /** The group renamed; none: a new group. */
  group?: WebGroup;
  onClose: () => void;
}) {
  const create = useCreateGroup(customerNumber);
  const rename = useRenameGroup(customerNumber);
  const [name, setName] = useState(group?.name ?? '');
  const mutation = group ? rename : create;
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    try {
      const saved = group
        ? await rename.mutateAsync({ groupId: group.id, name })
        : await create.mutateAsync({ name });
      showSuccess(group ? `Group renamed to ${saved.name}.` : `Group ${saved.name} created.`);
      onClose();
    } catch {
      // The mutation keeps the error; it is shown in the dialog below.
    }
  };
  const title = group ? `Rename ${group.name}` : 'Create group';
  return (
    <Modal opened onClose={onClose} title={title} size={460} closeButtonProps={{ 'aria-label': 'Close' }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Group name"
            required
            maxLength={200}
            data-autofocus
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          {mutation.error ? (
            <Alert color="red" variant="light" role="alert">
              {errorText(mutation.error)}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={mutation.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={mutation.isPending} disabled={name.trim() === ''}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The group's whole list of members, previewed (seats its pools give or free) before it is saved. */
export function MembersDialog({
  customerNumber,
  group,
  users,
  onClose,
}: {
  customerNumber: string;
  group: WebGroup;
  users: WebUser[];
  onClose: () => void;
}) {
  const setMembers = useSetGroupMembers(customerNumber);
  const [memberIds, setMemberIds] = useState<string[]>(group.memberIds);
  const data = users
    .filter((u) => u.state !== 'removed' || memberIds.includes(u.id))
    .map((u) => ({ value: u.id, label: u.name ? `${u.name} <${u.email}>` : u.email }));
  return (
    <PreviewDialog
      title={`Members of ${group.name}`}
      inputKey={[...memberIds].sort().join(',')}
      ready
      run={(preview) => setMembers.mutateAsync({ groupId: group.id, userIds: memberIds, preview })}
      onClose={onClose}
    >
      <MultiSelect
        label="Members"
        data={data}
        value={memberIds}
        onChange={setMemberIds}
        searchable
        clearable
        nothingFoundMessage="Nobody found"
        data-autofocus
      />
    </PreviewDialog>
  );
}

/** The named pools given to every member of the group, previewed before they are saved. */
export function GroupPoolsDialog({
  customerNumber,
  group,
  pools,
  onClose,
}: {
  customerNumber: string;
  group: WebGroup;
  pools: WebPoolUse[];
  onClose: () => void;
}) {
  const setPools = useSetGroupPools(customerNumber);
  const [partNumbers, setPartNumbers] = useState<string[]>(group.namedPools);
  const data = pools
    .filter((p) => p.kind === 'named')
    .map((p) => ({ value: p.partNumber, label: `${p.productName} (${p.partNumber})` }));
  return (
    <PreviewDialog
      title={`Named pools of ${group.name}`}
      inputKey={[...partNumbers].sort().join(',')}
      ready
      run={(preview) => setPools.mutateAsync({ groupId: group.id, partNumbers, preview })}
      onClose={onClose}
    >
      <MultiSelect
        label="Named pools"
        description="Every member holds a seat of each."
        styles={{ description: { color: 'var(--mantine-color-gray-7)' } }}
        data={data}
        value={partNumbers}
        onChange={setPartNumbers}
        clearable
        nothingFoundMessage="No named pool"
        data-autofocus
      />
    </PreviewDialog>
  );
}

/**
 * The group's terms on one shared pool: seats kept free for its members and the most they may hold (empty: no
 * cap). The pool's other groups keep their terms; the server judges the numbers and previews the change.
 */
export function SharedTermsDialog({
  customerNumber,
  group,
  pools,
  onClose,
}: {
  customerNumber: string;
  group: WebGroup;
  pools: WebPoolUse[];
  onClose: () => void;
}) {
  const saveTerms = useSaveGroupTerms(customerNumber);
  const shared = pools.filter((p) => p.kind === 'shared');
  const [partNumber, setPartNumber] = useState<string | null>(shared[0]?.partNumber ?? null);
  const pool = shared.find((p) => p.partNumber === partNumber);
  const current = group.sharedTerms.find((t) => t.partNumber === partNumber);
  const [numbers, setNumbers] = useState<{ guaranteed: number | string; cap: number | string }>({
    guaranteed: current?.guaranteed ?? 0,
    cap: current?.cap ?? '',
  });
  const choose = (value: string | null) => {
    const terms = group.sharedTerms.find((t) => t.partNumber === value);
    setPartNumber(value);
    setNumbers({ guaranteed: terms?.guaranteed ?? 0, cap: terms?.cap ?? '' });
  };
  const guaranteed = typeof numbers.guaranteed === 'number' ? numbers.guaranteed : null;
  const cap = typeof numbers.cap === 'number' ? numbers.cap : null;
  const terms = pool
    ? [
        ...pool.groupTerms
          .filter((t) => t.groupId !== group.id)
          .map(({ groupId, guaranteed: g, cap: c }) => ({ groupId, guaranteed: g, cap: c })),
        { groupId: group.id, guaranteed: guaranteed ?? 0, cap },
      ]
    : [];
  return (
    <PreviewDialog
      title={`Shared terms of ${group.name}`}
      inputKey={JSON.stringify([partNumber, numbers])}
      ready={!!pool && guaranteed !== null}
      run={(preview) => saveTerms.mutateAsync({ partNumber: partNumber ?? '', terms, preview })}
      onClose={onClose}
    >
      <Select
        label="Shared pool"
        data={shared.map((p) => ({ value: p.partNumber, label: `${p.productName} (${p.partNumber})` }))}
        value={partNumber}
        onChange={choose}
        allowDeselect={false}
        nothingFoundMessage="No shared pool"
      />
      <NumberInput
        label="Guaranteed seats"
        description={pool ? `Kept free for the members; the pool has ${pool.seats} seats.` : undefined}
        styles={{ description: { color: 'var(--mantine-color-gray-7)' } }}
        min={0}
        allowDecimal={false}
        allowNegative={false}
        clampBehavior="none"
        value={numbers.guaranteed}
        onChange={(guaranteedSeats) => setNumbers((n) => ({ ...n, guaranteed: guaranteedSeats }))}
      />
      <NumberInput
        label="Cap"
        description="The most seats the members may hold at once; empty for no cap."
        styles={{ description: { color: 'var(--mantine-color-gray-7)' } }}
        min={0}
        allowDecimal={false}
        allowNegative={false}
        clampBehavior="none"
        value={numbers.cap}
        onChange={(capSeats) => setNumbers((n) => ({ ...n, cap: capSeats }))}
      />
    </PreviewDialog>
  );
}
