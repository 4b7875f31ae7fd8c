import type { IssuedCredential, ServerCredential } from '@lp/contract/cls/schemas';
import { formatDateTime } from '@lp/domain/dates';
import { mayManageServerCredentials } from '@lp/domain/policy';
import { Badge, Button, Group, Table, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useViewOnly } from '../../../app/use-view-only.ts';
import { confirmDialog } from '../../../components/confirm-dialog.tsx';
import { ListSection } from '../../../components/list-section.tsx';
import { showError, showSuccess } from '../../../components/panels.tsx';
import { SecretOnceDialog } from '../../../components/secret-once-dialog.tsx';
import { showViewOnlyNotice } from '../../../components/view-only-dialog.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useCurrentUser } from '../../../lib/app-context.tsx';
import {
  serverCredentialsQuery,
  useIssueCredential,
  useRevokeCredential,
} from '../api/server-credentials.ts';

export const serverCredentialTexts = {
  title: 'License server credentials',
  intro:
    'The elastic license server signs in to the portal with a credential: it reads its PIN, allowed usernames and IP rules and reports usage with it.',
  empty: 'No credentials have been issued for this account.',
  confirmIssue: 'Are you sure you want to issue a new credential for this Elastic License Server?',
  confirmRevoke:
    'Are you sure you want to revoke this credential? The license server using it can no longer connect.',
  tokenTitle: 'New license server credential',
  tokenOnce: 'Copy the token now and configure it on the license server. It will not be shown again.',
  issued: 'Credential issued.',
  revoked: 'Credential revoked.',
} as const;

const question = (text: string, detail: string) => (
  <>
    {text}
    <br />
    <strong>{detail}</strong>
  </>
);

function CredentialRow({
  credential,
  busy,
  onRevoke,
}: {
  credential: ServerCredential;
  busy: boolean;
  onRevoke: (c: ServerCredential) => void;
}) {
  const created = formatDateTime(credential.createdAt);
  return (
    <Table.Tr>
      <Table.Td>{credential.clsId}</Table.Td>
      <Table.Td>{created}</Table.Td>
      <Table.Td>{credential.createdBy}</Table.Td>
      <Table.Td>
        {credential.revokedAt ? (
          formatDateTime(credential.revokedAt)
        ) : (
          <Badge color="green" variant="light">
            Active
          </Badge>
        )}
      </Table.Td>
      <Table.Td>
        {credential.revokedAt ? null : (
          <Button
            size="compact-sm"
            color="red"
            variant="light"
            disabled={busy}
            aria-label={`Revoke credential issued ${created}`}
            onClick={() => onRevoke(credential)}
          >
            Revoke
          </Button>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

function ServerCredentialsSection({
  customerNumber,
  elasticServerId,
}: {
  customerNumber: string;
  elasticServerId: string;
}) {
  const list = useQuery(serverCredentialsQuery(customerNumber));
  const issue = useIssueCredential(customerNumber);
  const revoke = useRevokeCredential(customerNumber);
  const [issued, setIssued] = useState<IssuedCredential | null>(null);
  const busy = issue.isPending || revoke.isPending;
  // Issue and revoke are account writes: view-only staff get the notice instead of the confirmation.
  const viewOnly = useViewOnly();

  const issueClicked = async () => {
    if (viewOnly) return showViewOnlyNotice(customerNumber);
    if (busy || !(await confirmDialog(question(serverCredentialTexts.confirmIssue, elasticServerId)))) return;
    try {
      setIssued(await issue.mutateAsync(elasticServerId));
      showSuccess(serverCredentialTexts.issued);
    } catch (e) {
      showError(errorText(e));
    }
  };

  const revokeClicked = async (credential: ServerCredential) => {
    if (viewOnly) return showViewOnlyNotice(customerNumber);
    const detail = `${credential.clsId}, issued ${formatDateTime(credential.createdAt)}`;
    if (busy || !(await confirmDialog(question(serverCredentialTexts.confirmRevoke, detail)))) return;
    try {
      await revoke.mutateAsync(credential.id);
      showSuccess(serverCredentialTexts.revoked);
    } catch (e) {
      showError(errorText(e));
    }
  };

  return (
    <>
      <ListSection
        id="server-credentials-heading"
        title={serverCredentialTexts.title}
        intro={serverCredentialTexts.intro}
        query={list}
        empty={{ when: (credentials) => credentials.length === 0, text: serverCredentialTexts.empty }}
        actions={
          <Group>
            <Button onClick={issueClicked} loading={issue.isPending} disabled={revoke.isPending}>
              Issue credential
            </Button>
          </Group>
        }
      >
        {(credentials) => (
          <Table.ScrollContainer minWidth={640}>
            <Table striped aria-labelledby="server-credentials-heading">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Server ID</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <Table.Th>Created by</Table.Th>
                  <Table.Th>Revoked</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Action</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {credentials.map((c) => (
                  <CredentialRow key={c.id} credential={c} busy={busy} onRevoke={revokeClicked} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </ListSection>
      <SecretOnceDialog
        shown={
          issued && {
            fields: [{ label: 'Server ID', value: issued.clsId }],
            secret: { label: 'Token', value: issued.token },
          }
        }
        title={serverCredentialTexts.tokenTitle}
        notice={serverCredentialTexts.tokenOnce}
        onClose={() => setIssued(null)}
      />
    </>
  );
}

/**
 * Vendor staff (busops, support) issue and revoke the credentials the account's elastic license server
 * uses for the license-server API (docs/decisions/014-license-server-api.md); where view-only (decision 022) they get the notice. Nobody else sees it.
 */
export function ServerCredentials(props: { customerNumber: string; elasticServerId: string }) {
  const { roles } = useCurrentUser();
  return mayManageServerCredentials(roles) ? <ServerCredentialsSection {...props} /> : null;
}
