import type { WebUser } from '@lp/contract/web-directory/schemas';
import { removalText } from '@lp/domain/web-directory';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useCustomer, useRefusalRedirect } from '../../../app/customer-context.tsx';
import { useViewOnly } from '../../../app/use-view-only.ts';
import { confirmDialog } from '../../../components/confirm-dialog.tsx';
import { showError, showSuccess } from '../../../components/panels.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useRemoveUsers, useUpdateUser, webUsersQuery } from '../api/web-directory.ts';
import { ImportDialog, InviteDialog } from '../components/invite-dialogs.tsx';
import { SeatDialog } from '../components/seat-dialog.tsx';
import { SessionsDialog } from '../components/sessions-dialog.tsx';
import { TransferDialog } from '../components/transfer-dialog.tsx';
import { type UserActions, UsersTable } from '../components/users-table.tsx';
import { previewQuestion, previewThenSave } from '../preview-flow.ts';

export const webUsersTexts = {
  loading: 'Getting web users...',
  empty: 'Nobody is in the web directory of this account yet.',
} as const;

type Dialog =
  | { kind: 'invite' }
  | { kind: 'import' }
  | { kind: 'sessions'; user: WebUser }
  | { kind: 'seat'; user: WebUser; mode: 'assign' | 'unassign' }
  | { kind: 'transfer'; user: WebUser };

function Users({ customerNumber }: { customerNumber: string }) {
  const users = useQuery(webUsersQuery(customerNumber));
  useRefusalRedirect(users.error, customerNumber);
  // View-only users see the directory and change nothing; the server refuses their writes too.
  const viewOnly = useViewOnly();
  const update = useUpdateUser(customerNumber);
  const remove = useRemoveUsers(customerNumber);
  const [dialog, setDialog] = useState<Dialog | null>(null);

  const actions = useMemo<UserActions>(() => {
    const setState = async (user: WebUser, state: 'active' | 'suspended', question: string) => {
      if (!(await confirmDialog(question))) return;
      try {
        await update.mutateAsync({ userId: user.id, state });
        showSuccess(state === 'suspended' ? `${user.email} suspended.` : `${user.email} reactivated.`);
      } catch (e) {
        showError(errorText(e));
      }
    };
    return {
      sessions: (user) => setDialog({ kind: 'sessions', user }),
      writes: viewOnly
        ? undefined
        : {
            assign: (user) => setDialog({ kind: 'seat', user, mode: 'assign' }),
            unassign: (user) => setDialog({ kind: 'seat', user, mode: 'unassign' }),
            transfer: (user) => setDialog({ kind: 'transfer', user }),
            // Suspending ends the person's sessions and frees their named seats (the server's rule and words).
            suspend: (user) =>
              void setState(
                user,
                'suspended',
                previewQuestion(
                  removalText('suspends', {
                    users: 1,
                    seats: user.seats.length,
                    sessions: user.openSessions,
                  }),
                ),
              ),
            reactivate: (user) => void setState(user, 'active', `Reactivate ${user.email}?`),
            remove: (user) =>
              void previewThenSave(
                (preview) => remove.mutateAsync({ userIds: [user.id], preview }),
                (text) => confirmDialog(previewQuestion(text)),
              ),
          },
    };
  }, [viewOnly, update.mutateAsync, remove.mutateAsync]);

  if (users.isPending) return <Spinner text={webUsersTexts.loading} />;
  if (users.isError) return <Alert color="red">{errorText(users.error)}</Alert>;
  const close = () => setDialog(null);
  return (
    <>
      <UsersTable
        customerNumber={customerNumber}
        users={users.data}
        actions={actions}
        toolbar={
          viewOnly ? null : (
            <>
              <Button size="xs" onClick={() => setDialog({ kind: 'invite' })}>
                Invite users
              </Button>
              <Button size="xs" variant="default" onClick={() => setDialog({ kind: 'import' })}>
                Import CSV
              </Button>
            </>
          )
        }
        notice={
          users.data.length === 0 ? (
            <Alert color="blue" variant="light">
              {webUsersTexts.empty}
            </Alert>
          ) : null
        }
      />
      {dialog?.kind === 'invite' ? <InviteDialog customerNumber={customerNumber} onClose={close} /> : null}
      {dialog?.kind === 'import' ? <ImportDialog customerNumber={customerNumber} onClose={close} /> : null}
      {dialog?.kind === 'sessions' ? (
        <SessionsDialog
          customerNumber={customerNumber}
          user={dialog.user}
          canRelease={!viewOnly}
          onClose={close}
        />
      ) : null}
      {dialog?.kind === 'seat' ? (
        <SeatDialog customerNumber={customerNumber} user={dialog.user} mode={dialog.mode} onClose={close} />
      ) : null}
      {dialog?.kind === 'transfer' ? (
        <TransferDialog
          customerNumber={customerNumber}
          user={dialog.user}
          users={users.data}
          onClose={close}
        />
      ) : null}
    </>
  );
}

/**
 * /web-assignments/users (decision 071 "Pages"): the account's web directory: people with their source, state,
 * groups, seats, last seen and open sessions; invite, CSV import, seats (assign, unassign, transfer), suspend, remove and session release for
 * those who may change the account.
 */
export default function WebUsersPage() {
  const { customer } = useCustomer();
  if (!customer) return null;
  return (
    <Stack data-testid="web-users-page" gap="sm">
      <Text size="sm">The people of this account who may use its web seats.</Text>
      <Users key={customer.customerNumber} customerNumber={customer.customerNumber} />
    </Stack>
  );
}
