import type { Alert } from '@lp/contract/alerts/schemas';
import { messages } from '@lp/contract/common/errors';
import { canManageAlerts, formatAlertDate, isResolved, joinWithAnd } from '@lp/domain/alerts';
import { Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { usePanels } from '../../../components/panels.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { readCurrentUser } from '../../../lib/local-store.ts';
import { allAlertsQuery, createAlert, editAlert, resolveAlert, useAlertMutation } from '../api/alerts.ts';
import { CategoryBadge } from '../components/alert-facts.tsx';
import { AlertForm, emptyForm, formFromAlert, inputFromForm } from '../components/alert-form.tsx';

function NoPermission() {
  return (
    <Stack data-testid="alerts-page">
      <Title order={1} size="h2">
        Manage service alerts
      </Title>
      <Text>{messages.noPermissionPage}</Text>
    </Stack>
  );
}

function AdminBody() {
  const panels = usePanels();
  const list = useQuery(allAlertsQuery());
  const [editing, setEditing] = useState<Alert | null>(null);
  const [formKey, setFormKey] = useState(0);
  const fail = (e: unknown) => panels.showError(e instanceof Error ? e.message : String(e));
  const create = useAlertMutation(createAlert);
  const edit = useAlertMutation(({ id, input }: { id: number; input: Parameters<typeof editAlert>[1] }) =>
    editAlert(id, input),
  );
  const resolve = useAlertMutation(resolveAlert);

  if (list.error instanceof ApiError && list.error.status === 403) return <NoPermission />;
  const now = new Date();
  return (
    <Stack data-testid="alerts-page">
      <Title order={1} size="h2">
        Manage service alerts
      </Title>
      <Card withBorder padding="md" component="section" aria-label={editing ? 'Edit alert' : 'New alert'}>
        <Title order={2} size="h4" mb="sm">
          {editing ? `Edit alert ${editing.id}` : 'New alert'}
        </Title>
        <AlertForm
          key={editing ? `edit-${editing.id}` : `new-${formKey}`}
          initial={editing ? formFromAlert(editing) : emptyForm}
          submitLabel={editing ? 'Save' : 'Create'}
          busy={create.isPending || edit.isPending}
          onCancel={editing ? () => setEditing(null) : undefined}
          onSubmit={(values) => {
            const input = inputFromForm(values);
            if (editing) {
              edit.mutate(
                { id: editing.id, input },
                {
                  onSuccess: () => {
                    panels.showSuccess('Alert saved.');
                    setEditing(null);
                  },
                  onError: fail,
                },
              );
            } else {
              create.mutate(input, {
                onSuccess: () => {
                  panels.showSuccess('Alert created.');
                  setFormKey((k) => k + 1);
                },
                onError: fail,
              });
            }
          }}
        />
      </Card>
      {list.isPending ? <Spinner text="Loading..." /> : null}
      {list.error && !(list.error instanceof ApiError && list.error.status === 403) ? (
        <Text c="red.9">{list.error.message}</Text>
      ) : null}
      {list.data ? (
        <Table striped withTableBorder aria-label="All alerts">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Category</Table.Th>
              <Table.Th>Affected Service</Table.Th>
              <Table.Th>Description</Table.Th>
              <Table.Th>Start</Table.Th>
              <Table.Th>Expected end</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.map((a) => (
              <Table.Tr key={a.id} data-alert-id={a.id}>
                <Table.Td>
                  <CategoryBadge category={a.category} />
                </Table.Td>
                <Table.Td>{joinWithAnd(a.service)}</Table.Td>
                <Table.Td>{a.description}</Table.Td>
                <Table.Td>{formatAlertDate(a.date)}</Table.Td>
                <Table.Td>{a.expires ? formatAlertDate(a.expires) : '-'}</Table.Td>
                <Table.Td>
                  {isResolved(a, now) ? 'Resolved' : a.status === 'RESOLVED' ? 'Resolving' : 'Active'}
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button size="xs" variant="default" onClick={() => setEditing(a)}>
                      Edit
                    </Button>
                    <Button
                      size="xs"
                      color="red"
                      disabled={a.status === 'RESOLVED'}
                      loading={resolve.isPending && resolve.variables === a.id}
                      onClick={() =>
                        resolve.mutate(a.id, {
                          onSuccess: () => panels.showSuccess('Alert resolved.'),
                          onError: fail,
                        })
                      }
                    >
                      Resolve
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
    </Stack>
  );
}

/** /notifications-admin: vendor busops/support/admin create, edit and resolve alerts; the server checks too. */
export default function AlertsAdminPage() {
  const user = readCurrentUser();
  if (!user || !canManageAlerts(user.roles)) return <NoPermission />;
  return <AdminBody />;
}

export const Component = AlertsAdminPage;
