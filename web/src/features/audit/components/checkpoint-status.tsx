import { Alert, Badge, Group, List, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type AuditScope, checkpointStatusQuery } from '../api/audit.ts';

/**
 * One line above the grid (decision 044): when the log was last anchored in a signed checkpoint, and whether the
 * chains still matched the checkpoint before it. Informational: the checkpoint files are the evidence.
 */
export function CheckpointStatus({ scope }: { scope: AuditScope }) {
  const { data, error } = useQuery(checkpointStatusQuery(scope));
  if (error) return <Alert color="red">{error.message}</Alert>;
  if (!data) return null;
  const checked =
    data.ok === null ? null : (
      <>
        <Badge color={data.ok ? 'green' : 'red'} variant="light">
          {data.ok ? 'Verification passed' : 'Verification failed'}
        </Badge>
        <Text size="sm">checked {data.checkedAt} UTC</Text>
      </>
    );
  return (
    <Group gap="md" aria-label="Audit checkpoints" role="status">
      <Text size="sm">
        {data.lastCheckpoint ? `Last checkpoint: ${data.lastCheckpoint} UTC` : 'No checkpoint yet'}
      </Text>
      {checked}
      {data.ok === false && data.problems.length > 0 ? (
        <List size="sm" aria-label="Verification problems">
          {data.problems.map((p) => (
            <List.Item key={`${p.chain}:${p.seq}:${p.reason}`}>
              {p.chain === null ? p.reason : `Chain ${p.chain}, entry ${p.seq}: ${p.reason}`}
            </List.Item>
          ))}
        </List>
      ) : null}
    </Group>
  );
}
