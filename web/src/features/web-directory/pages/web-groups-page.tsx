import type { WebGroup } from '@lp/contract/web-directory/schemas';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useCustomer, useRefusalRedirect } from '../../../app/customer-context.tsx';
import { useViewOnly } from '../../../app/use-view-only.ts';
import { confirmDialog } from '../../../components/confirm-dialog.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { webPoolsQuery } from '../../web-seats/api/web-seats.ts';
import { useDeleteGroup, webGroupsQuery, webUsersQuery } from '../api/web-directory.ts';
import {
  GroupNameDialog,
  GroupPoolsDialog,
  MembersDialog,
  SharedTermsDialog,
} from '../components/group-dialogs.tsx';
import { type GroupActions, GroupsTable } from '../components/groups-table.tsx';
import { previewQuestion, previewThenSave } from '../preview-flow.ts';

export const webGroupsTexts = {
  loading: 'Getting web groups...',
  empty: 'This account has no groups in its web directory yet.',
} as const;

type Dialog = { kind: 'create' } | { kind: 'rename' | 'members' | 'pools' | 'terms'; group: WebGroup };

function Groups({ customerNumber }: { customerNumber: string }) {
  const groups = useQuery(webGroupsQuery(customerNumber));
  useRefusalRedirect(groups.error, customerNumber);
  // View-only users see the groups and change nothing; the server refuses their writes too.
  const viewOnly = useViewOnly();
  // The editors' choices: the directory's people and the account's pools (read once a writer opens the page).
  const users = useQuery({ ...webUsersQuery(customerNumber), enabled: !viewOnly });
  const pools = useQuery({ ...webPoolsQuery(customerNumber), enabled: !viewOnly });
  const remove = useDeleteGroup(customerNumber);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const hasNamed = !!pools.data?.some((p) => p.kind === 'named');
  const hasShared = !!pools.data?.some((p) => p.kind === 'shared');

  const writes = useMemo<GroupActions | undefined>(
    () =>
      viewOnly
        ? undefined
        : {
            rename: (group) => setDialog({ kind: 'rename', group }),
            members: (group) => setDialog({ kind: 'members', group }),
            namedPools: hasNamed ? (group) => setDialog({ kind: 'pools', group }) : undefined,
            sharedTerms: hasShared ? (group) => setDialog({ kind: 'terms', group }) : undefined,
            delete: (group) =>
              void previewThenSave(
                (preview) => remove.mutateAsync({ groupId: group.id, preview }),
                (text) => confirmDialog(previewQuestion(text)),
              ),
          },
    [viewOnly, hasNamed, hasShared, remove.mutateAsync],
  );

  if (groups.isPending) return <Spinner text={webGroupsTexts.loading} />;
  if (groups.isError) return <Alert color="red">{errorText(groups.error)}</Alert>;
  const close = () => setDialog(null);
  return (
    <>
      <GroupsTable
        customerNumber={customerNumber}
        groups={groups.data}
        writes={writes}
        toolbar={
          viewOnly ? null : (
            <Button size="xs" onClick={() => setDialog({ kind: 'create' })}>
              Create group
            </Button>
          )
        }
        notice={
          groups.data.length === 0 ? (
            <Alert color="blue" variant="light">
              {webGroupsTexts.empty}
            </Alert>
          ) : null
        }
      />
      {dialog?.kind === 'create' ? <GroupNameDialog customerNumber={customerNumber} onClose={close} /> : null}
      {dialog?.kind === 'rename' ? (
        <GroupNameDialog customerNumber={customerNumber} group={dialog.group} onClose={close} />
      ) : null}
      {dialog?.kind === 'members' ? (
        <MembersDialog
          customerNumber={customerNumber}
          group={dialog.group}
          users={users.data ?? []}
          onClose={close}
        />
      ) : null}
      {dialog?.kind === 'pools' ? (
        <GroupPoolsDialog
          customerNumber={customerNumber}
          group={dialog.group}
          pools={pools.data ?? []}
          onClose={close}
        />
      ) : null}
      {dialog?.kind === 'terms' ? (
        <SharedTermsDialog
          customerNumber={customerNumber}
          group={dialog.group}
          pools={pools.data ?? []}
          onClose={close}
        />
      ) : null}
    </>
  );
}

/**
 * /web-assignments/groups (decision 071 "Pages"): the directory's groups with members, the named pools given to
 * them and their terms on shared pools; create, rename, members, pools, terms and delete for those who may change
 * the account; groups from the identity provider (SCIM) keep their name and members.
 */
export default function WebGroupsPage() {
  const { customer } = useCustomer();
  if (!customer) return null;
  return (
    <Stack data-testid="web-groups-page" gap="sm">
      <Text size="sm">Groups give their members named seats and shared seats on the terms set here.</Text>
      <Groups key={customer.customerNumber} customerNumber={customer.customerNumber} />
    </Stack>
  );
}
