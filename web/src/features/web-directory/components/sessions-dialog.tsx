import type { WebUser } from '@lp/contract/web-directory/schemas';
import { formatDateTime } from '@lp/domain/dates';
import { Alert, Button, Modal, Table, Text, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { showError, showSuccess } from '../../../components/panels.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { openWebSessionsQuery, useReleaseWebSession } from '../../web-sessions/api/web-sessions.ts';

/** A person's open sessions; administrators release one (its seat is freed), view-only users only see them. */
export function SessionsDialog({
  customerNumber,
  user,
  canRelease,
  onClose,
}: {
  customerNumber: string;
  user: WebUser;
  canRelease: boolean;
  onClose: () => void;
}) {
  const sessions = useQuery(openWebSessionsQuery(customerNumber, user.id));
  const release = useReleaseWebSession(customerNumber);
  const releaseClicked = async (leaseId: string) => {
    try {
      await release.mutateAsync(leaseId);
      showSuccess('Session released.');
    } catch (e) {
      showError(errorText(e));
    }
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title={`Open sessions of ${user.email}`}
      size="xl"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {sessions.isPending ? (
        <Spinner text="Loading..." />
      ) : sessions.isError ? (
        <Alert color="red" variant="light" role="alert">
          {errorText(sessions.error)}
        </Alert>
      ) : sessions.data.length === 0 ? (
        <Text size="sm">No open sessions.</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped aria-label={`Open sessions of ${user.email}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Part number</Table.Th>
                <Table.Th>Seat</Table.Th>
                <Table.Th>Client</Table.Th>
                <Table.Th>Started</Table.Th>
                <Table.Th>Last heartbeat</Table.Th>
                {canRelease ? (
                  <Table.Th>
                    <VisuallyHidden>Action</VisuallyHidden>
                  </Table.Th>
                ) : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sessions.data.map((s) => (
                <Table.Tr key={s.leaseId}>
                  <Table.Td>{s.partNumber}</Table.Td>
                  <Table.Td>
                    {s.seat === 'named' ? 'Named' : s.group ? `Shared (${s.group.name})` : 'Shared'}
                  </Table.Td>
                  <Table.Td>{s.client}</Table.Td>
                  <Table.Td>{formatDateTime(s.startedAt)}</Table.Td>
                  <Table.Td>{s.lastHeartbeatAt ? formatDateTime(s.lastHeartbeatAt) : ''}</Table.Td>
                  {canRelease ? (
                    <Table.Td>
                      <Button
                        size="compact-sm"
                        color="red"
                        variant="light"
                        disabled={release.isPending}
                        aria-label={`Release session of ${s.partNumber} started ${formatDateTime(s.startedAt)}`}
                        onClick={() => void releaseClicked(s.leaseId)}
                      >
                        Release
                      </Button>
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Modal>
  );
}
