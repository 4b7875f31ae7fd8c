import type { AuditRow } from '@lp/contract/audit/schemas';
import { Code, Drawer, Stack, Table, Text } from '@mantine/core';

const actorKinds: Record<AuditRow['actorKind'], string> = {
  user: 'User',
  'api-token': 'API token',
  'license-server': 'License server',
  automated: 'Automated',
};

/** A field's value as text: strings as they are, anything else as JSON; absent as a dash. */
function valueText(fields: Record<string, unknown> | null, key: string) {
  if (!fields || !(key in fields)) return '—';
  const value = fields[key];
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The changed fields of an entry side by side: one line per field, before and after. */
export function changedFieldRows(entry: Pick<AuditRow, 'before' | 'after'>) {
  const keys = [...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})])];
  return keys.map((key) => ({
    field: key,
    before: valueText(entry.before, key),
    after: valueText(entry.after, key),
  }));
}

interface Props {
  entry: AuditRow | null;
  onClose: () => void;
}

/** One audit entry: who did what to which object, from where, and the fields it changed. */
export function AuditEntryDrawer({ entry, onClose }: Props) {
  const facts: [string, string][] = entry
    ? [
        ['Time (UTC)', entry.time],
        ['Account', entry.account ?? 'No account'],
        ['Actor', `${entry.actor} (${actorKinds[entry.actorKind]})`],
        ['Action', entry.action],
        ['Object', `${entry.objectType} ${entry.objectId}`],
        ['Request id', entry.requestId ?? '—'],
        ['Client request id', entry.clientRequestId ?? '—'],
        ['Client address', entry.clientIp ?? '—'],
      ]
    : [];
  const changes = entry ? changedFieldRows(entry) : [];
  return (
    <Drawer
      opened={entry !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title="Audit entry"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {entry ? (
        <Stack gap="md">
          <Table aria-label="Entry" variant="vertical" withTableBorder>
            <Table.Tbody>
              {facts.map(([label, value]) => (
                <Table.Tr key={label}>
                  <Table.Th w={140}>{label}</Table.Th>
                  <Table.Td>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Text fw={600} component="h3" m={0} size="md">
            Changed fields
          </Text>
          {changes.length === 0 ? (
            <Text size="sm">No field values were recorded for this entry.</Text>
          ) : (
            <Table aria-label="Changed fields" withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Field</Table.Th>
                  <Table.Th>Before</Table.Th>
                  <Table.Th>After</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {changes.map((c) => (
                  <Table.Tr key={c.field}>
                    <Table.Td>{c.field}</Table.Td>
                    <Table.Td>
                      <Code block>{c.before}</Code>
                    </Table.Td>
                    <Table.Td>
                      <Code block>{c.after}</Code>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
      ) : null}
    </Drawer>
  );
}
