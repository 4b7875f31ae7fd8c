import type { AccountInfo, AccountRow } from '@lp/contract/accounts/schemas';
import { messages } from '@lp/contract/common/errors';
import { isExportBlocked } from '@lp/domain/policy';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-client.ts';
import { clearSavedCustomer, readSavedCustomer, writeSavedCustomer } from '../../../lib/local-store.ts';
import { countAccounts, getAccountInfo, getAccounts } from '../api/accounts.ts';

/** The customer chosen in the top bar; info is null when the info call did not succeed (spec 000 §4.2). */
export interface SelectedCustomer {
  customerNumber: string;
  customerName: string;
  info: AccountInfo | null;
}

interface CustomerState {
  customer: SelectedCustomer | null;
  /** False until the first automatic selection has run. */
  ready: boolean;
  /** The notice the automatic selection ended on (/nocustomer, /noaccess), where account pages send the user. */
  notice: string | null;
  /** Bumped whenever a customer is set, so notice pages can tell a new choice from the old one. */
  version: number;
  selectCustomer: (row: AccountRow) => Promise<void>;
  /** Reloads the account list and clears the selection (spec 000 §4.2). */
  refreshAccounts: () => void;
}

const CustomerContext = createContext<CustomerState | null>(null);

export function useCustomer(): CustomerState {
  const state = useContext(CustomerContext);
  if (!state) throw new Error('useCustomer outside CustomerProvider');
  return state;
}

/**
 * Notice pages remember the selection they were opened for in the history state: the page remounts
 * when the customer changes (the outlet is keyed by customer), so a ref would forget it.
 */
export interface NoticeState {
  noticeVersion?: number;
  customerNumber?: string;
}
export const noticeState = (version: number, customerNumber?: string): NoticeState => ({
  noticeVersion: version,
  customerNumber,
});

type ChooseOutcome = 'set' | 'blocked' | 'failed';

const isExportDenial = (e: unknown) => e instanceof ApiError && e.err === messages.exportDenied;

/** Customer selection rules of spec 000 §4.2. */
export function CustomerProvider({ children }: { children: React.ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [customer, setCustomer] = useState<SelectedCustomer | null>(null);
  const [ready, setReady] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const started = useRef(false);
  const versionRef = useRef(0);

  const setSelected = useCallback((next: SelectedCustomer) => {
    setCustomer(next);
    versionRef.current += 1;
    setVersion(versionRef.current);
    writeSavedCustomer(next.customerNumber);
  }, []);

  /** Choosing loads the info first; an export-blocked account is never set and leads to /noaccess. */
  const choose = useCallback(
    async (row: AccountRow, restoring: boolean): Promise<ChooseOutcome> => {
      try {
        const found = await getAccountInfo(row.AccountID);
        if (isExportBlocked(found.info.exportControlStatus)) {
          navigate('/noaccess', { state: noticeState(versionRef.current) });
          return 'blocked';
        }
        setSelected({
          customerNumber: found.customerNumber,
          customerName: found.customerName,
          info: found.info,
        });
        return 'set';
      } catch (e) {
        if (e instanceof ApiError && e.status === 401) return 'failed';
        if (isExportDenial(e)) {
          navigate('/noaccess', { state: noticeState(versionRef.current) });
          return 'blocked';
        }
        console.warn('Could not load the account info', e);
        // A saved choice the user can no longer reach is dropped rather than kept without info.
        if (restoring) return 'failed';
        setSelected({ customerNumber: row.AccountID, customerName: row.AccountName, info: null });
        return 'set';
      }
    },
    [navigate, setSelected],
  );

  const selectCustomer = useCallback(async (row: AccountRow) => void (await choose(row, false)), [choose]);

  const refreshAccounts = useCallback(() => {
    clearSavedCustomer();
    setCustomer(null);
    setNotice(null);
    versionRef.current += 1;
    setVersion(versionRef.current);
    void queryClient.invalidateQueries({ queryKey: ['account-search'] });
  }, [queryClient]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    (async () => {
      try {
        const total = await countAccounts();
        if (total === 0) {
          clearSavedCustomer();
          setNotice('/nocustomer');
          navigate('/nocustomer');
          return;
        }
        const saved = readSavedCustomer();
        const restored = saved ? await choose({ AccountID: saved, AccountName: '' }, true) : 'failed';
        if (restored === 'blocked') setNotice('/noaccess');
        if (restored !== 'failed') return;
        clearSavedCustomer();
        const [first] = await getAccounts({ limit: 1 });
        if (first && (await choose(first, false)) === 'blocked') setNotice('/noaccess');
      } catch (e) {
        console.warn('Could not load the account list', e);
      } finally {
        setReady(true);
      }
    })();
  }, [choose, navigate]);

  const value = useMemo(
    () => ({ customer, ready, version, notice, selectCustomer, refreshAccounts }),
    [customer, ready, version, notice, selectCustomer, refreshAccounts],
  );
  return <CustomerContext.Provider value={value}>{children}</CustomerContext.Provider>;
}
