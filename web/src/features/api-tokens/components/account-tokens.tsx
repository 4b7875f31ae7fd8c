import type { AccountApiTokenRow } from '@lp/contract/api-tokens/schemas';
import { Alert, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { confirmDialog } from '../../../components/confirm-dialog.tsx';
import { showError, showSuccess } from '../../../components/panels.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { accountTokensQuery, useRevokeToken } from '../api/api-tokens.ts';
import { apiTokenTexts as texts } from '../texts.ts';
import { errorText, revokeQuestion } from './my-tokens.tsx';
import { TokenTable } from './token-table.tsx';

const ownerOf = (t: AccountApiTokenRow) => (t.ownerName ? `${t.ownerName} (${t.ownerEmail})` : t.ownerEmail);

/** The tokens of an account's contacts, for its administrators and vendor staff (the server decides too). */
export function AccountTokens({
  customerNumber,
  customerName,
}: {
  customerNumber: string;
  customerName: string;
}) {
  const list = useQuery(accountTokensQuery(customerNumber));
  const revoke = useRevokeToken();

  const revokeClicked = async (token: AccountApiTokenRow) => {
    const detail = `${token.name || token.id}, ${ownerOf(token)}`;
    if (revoke.isPending || !(await confirmDialog(revokeQuestion(detail)))) return;
    try {
      await revoke.mutateAsync({ id: token.id, customerNumber });
      showSuccess(texts.revoked);
    } catch (e) {
      showError(errorText(e));
    }
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="account-tokens-heading">
      <Stack gap="sm">
        <Title order={2} size="h4" id="account-tokens-heading">
          {texts.accountTitle(customerName)}
        </Title>
        <Text size="sm">{texts.accountIntro}</Text>
        {list.isPending ? (
          <Spinner text="Loading..." />
        ) : list.error ? (
          <Alert color="red" variant="light" role="alert">
            {errorText(list.error)}
          </Alert>
        ) : list.data.length === 0 ? (
          <Text size="sm" c="dimmed">
            {texts.accountEmpty}
          </Text>
        ) : (
          <TokenTable
            tokens={list.data}
            labelledBy="account-tokens-heading"
            owner={ownerOf}
            busy={revoke.isPending}
            onRevoke={revokeClicked}
          />
        )}
      </Stack>
    </Paper>
  );
}
