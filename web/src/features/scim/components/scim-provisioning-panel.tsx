import { issueScimTokenRequestSchema, type ScimTokenRow } from '@lp/contract/scim/schemas';
import { formatDateTime } from '@lp/domain/dates';
import {
  Alert,
  Badge,
  Button,
  CopyButton,
  Group,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useViewOnly } from '../../../app/use-view-only.ts';
import { showSuccess } from '../../../components/panels.tsx';
import { type SecretOnce, SecretOnceDialog } from '../../../components/secret-once-dialog.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { scimTokensQuery, useIssueScimToken, useRevokeScimToken } from '../api/scim-tokens.ts';

/** The longest name the server takes (the contract's field), so the input stops where the server would refuse. */
const nameMax = issueScimTokenRequestSchema.shape.name.maxLength ?? 100;

export const scimTexts = {
  title: 'SCIM provisioning',
  intro:
    'Your identity provider (Entra ID, Okta, Keycloak…) pushes people and groups here: it adds, updates, suspends and removes the people of your web directory and keeps its groups. Give it the SCIM base URL and a token issued below.',
  baseUrl: 'SCIM base URL',
  copyBaseUrl: 'Copy SCIM base URL',
  copiedBaseUrl: 'Copied SCIM base URL',
  tokens: 'SCIM tokens',
  empty: 'No SCIM token has been issued for this account.',
  newToken: 'New token',
  issueTitle: 'New SCIM token',
  name: 'Token name',
  nameHint: 'To tell tokens apart, e.g. the identity provider it is for.',
  issue: 'Issue token',
  issued: 'SCIM token issued.',
  secretTitle: 'Copy your new SCIM token',
  secretOnce:
    'Copy the token now and give it to your identity provider with the SCIM base URL. It will not be shown again.',
  revokeTitle: 'Revoke SCIM token',
  revokeQuestion:
    "Revoke this token? Your identity provider's next call with it is refused, and it cannot be used again.",
  revoke: 'Revoke',
  revoked: 'SCIM token revoked.',
  cancel: 'Cancel',
} as const;

const baseUrlOf = (customerNumber: string) => `${window.location.origin}/scim/v2/${customerNumber}`;

/** Issue a token: a required, trimmed name; the server's refusal is shown in the dialog. */
function IssueDialog({
  customerNumber,
  onIssued,
  onClose,
}: {
  customerNumber: string;
  onIssued: (shown: SecretOnce) => void;
  onClose: () => void;
}) {
  const issue = useIssueScimToken(customerNumber);
  const [name, setName] = useState('');
  const trimmed = name.trim();

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (trimmed === '' || issue.isPending) return;
    try {
      const token = await issue.mutateAsync({ name: trimmed });
      showSuccess(scimTexts.issued);
      onIssued({
        fields: [
          { label: scimTexts.name, value: token.name },
          { label: scimTexts.baseUrl, value: `${window.location.origin}${token.endpoint}` },
        ],
        secret: { label: 'Token', value: token.token },
      });
    } catch {
      // The mutation keeps the error; it is shown in the dialog below.
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={scimTexts.issueTitle}
      size={460}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label={scimTexts.name}
            description={scimTexts.nameHint}
            styles={{ description: { color: 'var(--mantine-color-gray-7)' } }}
            required
            maxLength={nameMax}
            data-autofocus
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          {issue.error ? (
            <Alert color="red" variant="light" role="alert">
              {errorText(issue.error)}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={issue.isPending}>
              {scimTexts.cancel}
            </Button>
            <Button type="submit" loading={issue.isPending} disabled={trimmed === ''}>
              {scimTexts.issue}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Revoke a token once confirmed; the server's refusal is shown in the dialog. */
function RevokeDialog({
  customerNumber,
  token,
  onClose,
}: {
  customerNumber: string;
  token: ScimTokenRow;
  onClose: () => void;
}) {
  const revoke = useRevokeScimToken(customerNumber);
  const confirm = async () => {
    try {
      await revoke.mutateAsync({ id: token.id });
      showSuccess(scimTexts.revoked);
      onClose();
    } catch {
      // Shown in the dialog below.
    }
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title={scimTexts.revokeTitle}
      size={460}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="sm">
        <Text size="sm">
          {scimTexts.revokeQuestion}
          <br />
          <strong>{token.name}</strong>
        </Text>
        {revoke.error ? (
          <Alert color="red" variant="light" role="alert">
            {errorText(revoke.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={revoke.isPending} data-autofocus>
            {scimTexts.cancel}
          </Button>
          <Button color="red" loading={revoke.isPending} onClick={confirm}>
            {scimTexts.revoke}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function TokensTable({
  tokens,
  onRevoke,
}: {
  tokens: ScimTokenRow[];
  /** None for a view-only user: no Revoke column */
  onRevoke?: (token: ScimTokenRow) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={680}>
      <Table striped aria-label={scimTexts.tokens}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th>Created by</Table.Th>
            <Table.Th>Last used</Table.Th>
            <Table.Th>State</Table.Th>
            {onRevoke ? (
              <Table.Th>
                <VisuallyHidden>Action</VisuallyHidden>
              </Table.Th>
            ) : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tokens.map((t) => (
            <Table.Tr key={t.id}>
              <Table.Td>{t.name}</Table.Td>
              <Table.Td>{formatDateTime(t.createdAt)}</Table.Td>
              <Table.Td>{t.createdBy}</Table.Td>
              <Table.Td>{t.lastUsedAt ? formatDateTime(t.lastUsedAt) : 'Not used yet'}</Table.Td>
              <Table.Td>
                {t.revokedAt ? (
                  <Badge color="red" variant="light" title={`Revoked ${formatDateTime(t.revokedAt)}`}>
                    Revoked
                  </Badge>
                ) : (
                  <Badge color="green" variant="light">
                    Active
                  </Badge>
                )}
              </Table.Td>
              {onRevoke ? (
                <Table.Td>
                  {t.revokedAt ? null : (
                    <Button
                      size="compact-sm"
                      color="red"
                      variant="light"
                      aria-label={`Revoke token ${t.name}`}
                      onClick={() => onRevoke(t)}
                    >
                      Revoke
                    </Button>
                  )}
                </Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * An account's SCIM endpoint and its tokens (issue 24 §3, docs/scim.md): the base URL to give the identity
 * provider, the tokens, and for those who may edit the account New token (the secret shown once) and Revoke. A
 * view-only user sees the list only; the server refuses their writes anyway.
 */
export function ScimProvisioningPanel({ customerNumber }: { customerNumber: string }) {
  const viewOnly = useViewOnly();
  const list = useQuery(scimTokensQuery(customerNumber));
  const [issuing, setIssuing] = useState(false);
  const [shown, setShown] = useState<SecretOnce | null>(null);
  const [revoking, setRevoking] = useState<ScimTokenRow | null>(null);
  const baseUrl = baseUrlOf(customerNumber);

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="scim-provisioning-heading">
      <Stack gap="sm">
        <Title order={2} size="h4" id="scim-provisioning-heading">
          {scimTexts.title}
        </Title>
        <Text size="sm">{scimTexts.intro}</Text>
        <Group align="flex-end" wrap="nowrap">
          <TextInput
            label={scimTexts.baseUrl}
            value={baseUrl}
            readOnly
            variant="filled"
            style={{ flex: 1 }}
            styles={{ input: { fontFamily: 'monospace' } }}
            onFocus={(e) => e.currentTarget.select()}
          />
          <CopyButton value={baseUrl}>
            {({ copied, copy }) => (
              <Button
                variant="default"
                onClick={copy}
                aria-label={copied ? scimTexts.copiedBaseUrl : scimTexts.copyBaseUrl}
              >
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
        </Group>
        {list.isPending ? (
          <Spinner text="Loading..." />
        ) : list.isError ? (
          <Alert color="red" variant="light" role="alert">
            {errorText(list.error)}
          </Alert>
        ) : list.data.length === 0 ? (
          <Text size="sm">{scimTexts.empty}</Text>
        ) : (
          <TokensTable tokens={list.data} onRevoke={viewOnly ? undefined : setRevoking} />
        )}
        {viewOnly ? null : (
          <Group>
            <Button onClick={() => setIssuing(true)}>{scimTexts.newToken}</Button>
          </Group>
        )}
      </Stack>
      {issuing ? (
        <IssueDialog
          customerNumber={customerNumber}
          onIssued={(secret) => {
            setIssuing(false);
            setShown(secret);
          }}
          onClose={() => setIssuing(false)}
        />
      ) : null}
      {revoking ? (
        <RevokeDialog customerNumber={customerNumber} token={revoking} onClose={() => setRevoking(null)} />
      ) : null}
      <SecretOnceDialog
        shown={shown}
        title={scimTexts.secretTitle}
        notice={scimTexts.secretOnce}
        onClose={() => setShown(null)}
      />
    </Paper>
  );
}
