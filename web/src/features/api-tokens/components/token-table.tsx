import type { ApiTokenRow } from '@lp/contract/api-tokens/schemas';
import { formatDateTime } from '@lp/domain/dates';
import { Badge, Button, Table, Text, VisuallyHidden } from '@mantine/core';

const stateColours = { active: 'green', expired: 'gray', revoked: 'red' } as const;
const stateLabels = { active: 'Active', expired: 'Expired', revoked: 'Revoked' } as const;

const when = (iso: string | null, none: string) => (iso ? formatDateTime(iso) : none);

/** Tokens as rows: name (and owner for an account's list), dates, last use, state and Revoke. */
export function TokenTable<T extends ApiTokenRow>({
  tokens,
  labelledBy,
  owner,
  busy,
  onRevoke,
}: {
  tokens: T[];
  labelledBy: string;
  owner?: (token: T) => string;
  busy: boolean;
  onRevoke: (token: T) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped aria-labelledby={labelledBy}>
        <Table.Thead>
          <Table.Tr>
            {owner ? <Table.Th>Owner</Table.Th> : null}
            <Table.Th>Name</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th>Expires</Table.Th>
            <Table.Th>Last used</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>
              <VisuallyHidden>Action</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tokens.map((t) => (
            <Table.Tr key={t.id}>
              {owner ? <Table.Td>{owner(t)}</Table.Td> : null}
              <Table.Td>{t.name || <Text c="dimmed">(no name)</Text>}</Table.Td>
              <Table.Td>{formatDateTime(t.createdAt)}</Table.Td>
              <Table.Td>{when(t.expiresAt, 'Never')}</Table.Td>
              <Table.Td>{when(t.lastUsedAt, 'Not used yet')}</Table.Td>
              <Table.Td>
                <Badge color={stateColours[t.state]} variant="light">
                  {stateLabels[t.state]}
                </Badge>
              </Table.Td>
              <Table.Td>
                {t.state === 'active' ? (
                  <Button
                    size="compact-sm"
                    color="red"
                    variant="light"
                    disabled={busy}
                    aria-label={`Revoke token ${t.name || t.id}${owner ? ` of ${owner(t)}` : ''}`}
                    onClick={() => onRevoke(t)}
                  >
                    Revoke
                  </Button>
                ) : null}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
