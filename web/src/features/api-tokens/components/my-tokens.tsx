import type { ApiTokenRow } from '@lp/contract/api-tokens/schemas';
import { formatDateTime } from '@lp/domain/dates';
import { Button, Group, NumberInput, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { confirmDialog } from '../../../components/confirm-dialog.tsx';
import { ListSection } from '../../../components/list-section.tsx';
import { showError, showSuccess } from '../../../components/panels.tsx';
import { type SecretOnce, SecretOnceDialog } from '../../../components/secret-once-dialog.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { myTokensQuery, useCreateToken, useRevokeToken } from '../api/api-tokens.ts';
import { apiTokenTexts as texts } from '../texts.ts';
import { TokenTable } from './token-table.tsx';

export const revokeQuestion = (detail: string) => (
  <>
    {texts.confirmRevoke}
    <br />
    <strong>{detail}</strong>
  </>
);

function CreateTokenForm({
  defaultDays,
  maxDays,
  onCreated,
}: {
  defaultDays: number;
  maxDays: number;
  onCreated: (shown: SecretOnce) => void;
}) {
  const create = useCreateToken();
  const [name, setName] = useState('');
  const [days, setDays] = useState<number | string>(defaultDays);
  const nameError = name.trim() === '' ? null : name.trim().length > 100 ? 'At most 100 characters.' : null;
  const daysValid = typeof days === 'number' && Number.isInteger(days) && days >= 1 && days <= maxDays;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!name.trim() || nameError || !daysValid) return;
    try {
      const token = await create.mutateAsync({ name: name.trim(), expiresInDays: days as number });
      setName('');
      setDays(defaultDays);
      showSuccess(texts.created);
      onCreated({
        fields: [
          { label: texts.name, value: token.name },
          { label: 'Expires', value: token.expiresAt ? formatDateTime(token.expiresAt) : 'Never' },
        ],
        secret: { label: 'Token', value: token.token },
      });
    } catch (e) {
      showError(errorText(e));
    }
  };

  return (
    <form onSubmit={submit} aria-label="Create an API token">
      <Group align="flex-start">
        <TextInput
          label={texts.name}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={nameError}
          maxLength={100}
          w={280}
        />
        <NumberInput
          label={texts.expires}
          value={days}
          onChange={setDays}
          min={1}
          max={maxDays}
          allowDecimal={false}
          clampBehavior="strict"
          aria-description={`From 1 to ${maxDays} days`}
          w={180}
        />
        <Button
          type="submit"
          mt={25}
          loading={create.isPending}
          disabled={!name.trim() || !!nameError || !daysValid}
        >
          {texts.create}
        </Button>
      </Group>
    </form>
  );
}

/** The signed-in user's own tokens: create (shown once), see last use, revoke. */
export function MyTokens() {
  const list = useQuery(myTokensQuery());
  const revoke = useRevokeToken();
  const [shown, setShown] = useState<SecretOnce | null>(null);

  const revokeClicked = async (token: ApiTokenRow) => {
    if (revoke.isPending || !(await confirmDialog(revokeQuestion(token.name || token.id)))) return;
    try {
      await revoke.mutateAsync({ id: token.id });
      showSuccess(texts.revoked);
    } catch (e) {
      showError(errorText(e));
    }
  };

  return (
    <>
      <ListSection id="my-tokens-heading" title={texts.mineTitle} intro={texts.mineIntro} query={list}>
        {(data) => (
          <>
            <CreateTokenForm defaultDays={data.defaultDays} maxDays={data.maxDays} onCreated={setShown} />
            {data.tokens.length === 0 ? (
              <Text size="sm" c="dimmed">
                {texts.mineEmpty}
              </Text>
            ) : (
              <TokenTable
                tokens={data.tokens}
                labelledBy="my-tokens-heading"
                busy={revoke.isPending}
                onRevoke={revokeClicked}
              />
            )}
          </>
        )}
      </ListSection>
      <SecretOnceDialog
        shown={shown}
        title={texts.newTitle}
        notice={texts.newOnce}
        onClose={() => setShown(null)}
      />
    </>
  );
}
