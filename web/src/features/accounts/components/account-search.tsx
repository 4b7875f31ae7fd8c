import type { AccountRow } from '@lp/contract/accounts/schemas';
import { customerDisplay } from '@lp/domain/customer-text';
import { ActionIcon, Combobox, Group, Loader, TextInput, Tooltip, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useCustomer } from '../../../app/customer-context.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useConfig } from '../../../lib/app-context.tsx';
import {
  ACCOUNT_SEARCH_DEBOUNCE_MS,
  ACCOUNT_SEARCH_LIMIT,
  accountCountMessage,
  accountOptionText,
  accountSearchPlan,
} from '../account-search-rules.ts';
import { countAccounts, getAccounts } from '../api/accounts.ts';

type SearchResult = { rows: AccountRow[]; message: string | null };

/** Count first, then fetch at most 100 rows only when the count is neither zero nor too many. */
async function searchAccounts(text: string, max: number): Promise<SearchResult> {
  const plan = accountSearchPlan(text);
  if (plan.kind === 'none') return { rows: [], message: null };
  if (plan.kind === 'invalid') return { rows: [], message: plan.message };
  try {
    const count = await countAccounts(plan.filter);
    const message = accountCountMessage(count, max);
    if (message) return { rows: [], message };
    return { rows: await getAccounts({ filter: plan.filter, limit: ACCOUNT_SEARCH_LIMIT }), message: null };
  } catch (e) {
    // The server answers the same spec messages (invalid filter, none, too many) as FAILURE.
    if (e instanceof ApiError && e.status < 500 && e.status !== 401) return { rows: [], message: e.err };
    throw e;
  }
}

/** The top-bar account search box (spec 000 §2.2, §5). */
export function AccountSearch() {
  const { customer, selectCustomer, refreshAccounts } = useCustomer();
  const { accountListMax } = useConfig();
  const shown = customer ? customerDisplay(customer) : '';
  const [text, setText] = useState(shown);
  const [typed, setTyped] = useState(false);
  const [debounced] = useDebouncedValue(text, ACCOUNT_SEARCH_DEBOUNCE_MS);
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });

  // The box shows the selected customer whenever it changes (auto-selection, another tab of the app).
  // Text the user is typing is kept: an automatic selection finishing meanwhile must not overwrite it.
  // When it lands while the box has the focus, the new text is selected, as focusing selects it: the next
  // keystroke replaces it instead of landing after it ('1000123 (Acme Aerospace Inc.)Aerospace').
  const typedRef = useRef(false);
  typedRef.current = typed;
  const textRef = useRef(text);
  textRef.current = text;
  const inputRef = useRef<HTMLInputElement>(null);
  const reselect = useRef(false);
  useEffect(() => {
    if (typedRef.current || textRef.current === shown) return;
    reselect.current = document.activeElement === inputRef.current;
    setText(shown);
  }, [shown]);
  // After every render, as the new text is in the box by then (a flag check, nothing more when not set).
  useLayoutEffect(() => {
    if (!reselect.current) return;
    reselect.current = false;
    if (document.activeElement === inputRef.current) inputRef.current?.select();
  });

  const active = typed && debounced.trim() !== '' && debounced === text && debounced !== shown;
  const search = useQuery({
    queryKey: ['account-search', debounced],
    queryFn: () => searchAccounts(debounced, accountListMax),
    enabled: active,
    staleTime: 30_000,
  });
  const loading = active && search.isFetching;
  const rows = active ? (search.data?.rows ?? []) : [];
  const message = active
    ? (search.data?.message ?? (search.error ? (search.error as Error).message : null))
    : null;

  useEffect(() => {
    if (active && (loading || rows.length > 0)) combobox.openDropdown();
  }, [active, loading, rows.length, combobox]);

  const choose = async (value: string) => {
    const row = rows.find((r) => accountOptionText(r) === value);
    combobox.closeDropdown();
    if (!row) return;
    setText(value);
    setTyped(false);
    // Staying with unsaved edits keeps the current customer, so the box shows it again.
    if (!(await selectCustomer(row))) setText(shown);
  };

  return (
    <Group gap={4} wrap="nowrap">
      <Combobox store={combobox} onOptionSubmit={(v) => void choose(v)} withinPortal={false}>
        <Combobox.Target>
          <TextInput
            w={{ base: 220, sm: 360 }}
            ref={inputRef}
            aria-label="Account"
            placeholder="Search for Account ID or Name"
            value={text}
            error={message}
            rightSection={loading ? <Loader size={16} aria-label="Loading..." /> : null}
            onChange={(e) => {
              setText(e.currentTarget.value);
              setTyped(true);
              combobox.updateSelectedOptionIndex();
            }}
            onFocus={(e) => e.currentTarget.select()}
            onClick={() => rows.length > 0 && combobox.openDropdown()}
            onBlur={() => combobox.closeDropdown()}
            styles={{ error: { position: 'absolute', background: 'var(--mantine-color-body)', padding: 2 } }}
          />
        </Combobox.Target>
        <Combobox.Dropdown hidden={!loading && rows.length === 0}>
          <Combobox.Options mah={320} style={{ overflowY: 'auto' }}>
            {loading ? (
              <Combobox.Empty>Loading...</Combobox.Empty>
            ) : (
              rows.map((row) => (
                <Combobox.Option value={accountOptionText(row)} key={row.AccountID}>
                  {accountOptionText(row)}
                </Combobox.Option>
              ))
            )}
          </Combobox.Options>
        </Combobox.Dropdown>
      </Combobox>
      <Tooltip label="Refresh account list">
        <ActionIcon
          variant="subtle"
          aria-label="Refresh account list"
          onClick={async () => {
            setText('');
            setTyped(false);
            if (!(await refreshAccounts())) setText(shown);
          }}
        >
          <svg
            aria-hidden="true"
            width="18"
            height="18"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <path d="M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7" />
          </svg>
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
