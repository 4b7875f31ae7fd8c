import type { AccountRow } from '@lp/contract/accounts/schemas';
import { Autocomplete } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { getAccounts } from '../../accounts/api/accounts.ts';

/** Spec 002 §7: the account search of the activations screen is debounced 400 ms and asks for 100. */
const SEARCH_DEBOUNCE_MS = 400;
const SEARCH_LIMIT = 100;

const label = (a: AccountRow) => `${a.AccountID} (${a.AccountName})`;

/**
 * 'Associated Accounts' (spec 002 §2): adds another account of the user as a tab, to share the host with it.
 * Shown by the page only when the user has more than one account.
 */
export function AssociatedAccounts(props: {
  exclude: readonly string[];
  disabled?: boolean;
  onPick: (account: AccountRow) => void;
}) {
  const [text, setText] = useState('');
  const [term] = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const search = useQuery({
    queryKey: ['activations', 'associated-accounts', term],
    enabled: term.length > 0,
    queryFn: () =>
      getAccounts({
        limit: SEARCH_LIMIT,
        filter: {
          condition: 'ANY',
          criteria: [
            { name: 'AccountName', method: 'CONTAINS', value: term, casefold: true },
            { name: 'AccountID', method: 'CONTAINS', value: term, casefold: true },
          ],
        },
      }),
  });
  const rows = (search.data ?? []).filter((a) => !props.exclude.includes(a.AccountID));
  return (
    <Autocomplete
      label="Associated Accounts"
      placeholder="Search for Account ID or Name"
      value={text}
      onChange={setText}
      disabled={props.disabled}
      data={rows.map(label)}
      // The server already filtered; Mantine's own filter would hide matches by name.
      filter={({ options }) => options}
      onOptionSubmit={(value) => {
        const picked = rows.find((a) => label(a) === value);
        setText('');
        if (picked) props.onPick(picked);
      }}
      w={320}
    />
  );
}
