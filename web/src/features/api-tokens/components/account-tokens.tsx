import type { AccountApiTokenRow } from '@lp/contract/api-tokens/schemas';
import { useQuery } from '@tanstack/react-query';
import { confirmDialog } from '../../../components/confirm-dialog.tsx';
import { ListSection } from '../../../components/list-section.tsx';
import { showError, showSuccess } from '../../../components/panels.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { accountTokensQuery, useRevokeToken } from '../api/api-tokens.ts';
import { apiTokenTexts as texts } from '../texts.ts';
import { revokeQuestion } from './my-tokens.tsx';
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
    <ListSection
      id="account-tokens-heading"
      title={texts.accountTitle(customerName)}
      intro={texts.accountIntro}
      query={list}
      empty={{ when: (tokens) => tokens.length === 0, text: texts.accountEmpty }}
    >
      {(tokens) => (
        <TokenTable
          tokens={tokens}
          labelledBy="account-tokens-heading"
          owner={ownerOf}
          busy={revoke.isPending}
          onRevoke={revokeClicked}
        />
      )}
    </ListSection>
  );
}
