import type { AccountInfo, AccountRow } from '@lp/contract/accounts/schemas';
import { messages } from '@lp/contract/common/errors';
import { isExportBlocked } from '@lp/domain/policy';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { confirmLeave } from '../components/leave-guard.tsx';
import { countAccounts, getAccountInfo, getAccounts } from '../features/accounts/api/accounts.ts';
import { ApiError } from '../lib/api-client.ts';
import { clearSavedCustomer, readSavedCustomer, writeSavedCustomer } from '../lib/local-store.ts';

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
  /** False when the user chose to stay with unsaved edits (the switch did not happen). */
  selectCustomer: (row: AccountRow) => Promise<boolean>;
  /** Reloads the account list and clears the selection (spec 000 §4.2); false when the user chose to stay. */
  refreshAccounts: () => Promise<boolean>;
  /**
   * Reads the selected account's info again after a change that moves its flags (an FSA order gives an account
   * its first leases, which opens /activations); the selection and its version stay.
   */
  reloadInfo: () => Promise<void>;
  /**
   * Selects the account a link names (the `account` parameter of a URL the user went to, e.g. with Back); an account
   * the user may not read leads to /nopermissions, which says nothing about it.
   */
  followLink: (customerNumber: string) => Promise<void>;
  /** The location and selection the URL's account was last matched with (see useAccountInUrl). */
  linkSync: React.RefObject<{ key: string; version: number }>;
}

/**
 * The selected account is part of every account page's URL (issue 21): a copied link opens the same account and
 * page for a colleague who may see it.
 */
export const ACCOUNT_PARAM = 'account';
export const accountInUrl = (search: string) => new URLSearchParams(search).get(ACCOUNT_PARAM);

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
  /** Opened by typing the URL (or a bookmark), not sent by the app. */
  openedByUrl?: boolean;
}
export const noticeState = (version: number, customerNumber?: string): NoticeState => ({
  noticeVersion: version,
  customerNumber,
});

/** 'superseded': a newer choice (the user's, or a refresh) was made while this one loaded; it is dropped. */
type ChooseOutcome = 'set' | 'blocked' | 'failed' | 'superseded';

const isExportDenial = (e: unknown) => e instanceof ApiError && e.err === messages.exportDenied;

/** Customer selection rules of spec 000 §4.2. */
export function CustomerProvider({ children }: { children: React.ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [customer, setCustomer] = useState<SelectedCustomer | null>(null);
  const customerRef = useRef(customer);
  customerRef.current = customer;
  const [ready, setReady] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const started = useRef(false);
  const versionRef = useRef(0);
  // The latest choice wins: an older one (the automatic selection at start, an earlier pick) whose account
  // info arrives later must not replace it.
  const latestChoice = useRef(0);

  const setSelected = useCallback((next: SelectedCustomer) => {
    setCustomer(next);
    versionRef.current += 1;
    setVersion(versionRef.current);
    writeSavedCustomer(next.customerNumber);
  }, []);

  /**
   * Choosing loads the info first; an export-blocked account is never set. A user's choice leads to /noaccess;
   * the automatic selection at start only records the notice, so that a page which needs no account (the
   * alerts) stays open and account pages go there through RequireCustomer.
   */
  const choose = useCallback(
    async (row: AccountRow, restoring: boolean, automatic = false): Promise<ChooseOutcome> => {
      latestChoice.current += 1;
      const ticket = latestChoice.current;
      const blocked = (): ChooseOutcome => {
        if (!automatic) navigate('/noaccess', { state: noticeState(versionRef.current) });
        return 'blocked';
      };
      try {
        const found = await getAccountInfo(row.AccountID);
        if (ticket !== latestChoice.current) return 'superseded';
        if (isExportBlocked(found.info.exportControlStatus)) return blocked();
        setSelected({
          customerNumber: found.customerNumber,
          customerName: found.customerName,
          info: found.info,
        });
        return 'set';
      } catch (e) {
        if (ticket !== latestChoice.current) return 'superseded';
        if (e instanceof ApiError && e.status === 401) return 'failed';
        if (isExportDenial(e)) return blocked();
        console.warn('Could not load the account info', e);
        // A saved choice the user can no longer reach is dropped rather than kept without info.
        if (restoring) return 'failed';
        setSelected({ customerNumber: row.AccountID, customerName: row.AccountName, info: null });
        return 'set';
      }
    },
    [navigate, setSelected],
  );

  // A switch resets account pages: unsaved edits are asked about first, as when leaving the page.
  const selectCustomer = useCallback(
    async (row: AccountRow) => {
      if (!(await confirmLeave())) return false;
      await choose(row, false);
      return true;
    },
    [choose],
  );

  const refreshAccounts = useCallback(async () => {
    if (!(await confirmLeave())) return false;
    latestChoice.current += 1;
    clearSavedCustomer();
    setCustomer(null);
    setNotice(null);
    versionRef.current += 1;
    setVersion(versionRef.current);
    void queryClient.invalidateQueries({ queryKey: ['account-search'] });
    return true;
  }, [queryClient]);

  const followLink = useCallback(
    async (customerNumber: string) => {
      const outcome = await choose({ AccountID: customerNumber, AccountName: '' }, true);
      if (outcome === 'failed')
        navigate('/nopermissions', {
          replace: true,
          state: noticeState(versionRef.current, customerRef.current?.customerNumber),
        });
    },
    [choose, navigate],
  );
  const linkSync = useRef({ key: '', version: -1 });

  const reloadInfo = useCallback(async () => {
    const current = customerRef.current;
    if (!current) return;
    const ticket = latestChoice.current;
    const found = await getAccountInfo(current.customerNumber);
    if (ticket !== latestChoice.current) return;
    setCustomer((c) => (c?.customerNumber === found.customerNumber ? { ...c, info: found.info } : c));
  }, []);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    (async () => {
      try {
        const total = await countAccounts();
        if (total === 0) {
          clearSavedCustomer();
          // Account pages go to the notice through RequireCustomer; the alerts need no account (issue 8 §3).
          setNotice('/nocustomer');
          return;
        }
        // A link's account comes first; one the user may not read is refused like any page they may not see,
        // and no other account is put in its place under that link.
        const linked = accountInUrl(window.location.search);
        if (linked) {
          const outcome = await choose({ AccountID: linked, AccountName: '' }, true, true);
          // Account pages go to the notice through RequireCustomer, as for the automatic selection.
          if (outcome === 'blocked') setNotice('/noaccess');
          if (outcome === 'failed') setNotice('/nopermissions');
          return;
        }
        const saved = readSavedCustomer();
        const restored = saved ? await choose({ AccountID: saved, AccountName: '' }, true, true) : 'failed';
        if (restored === 'blocked') setNotice('/noaccess');
        if (restored !== 'failed') return;
        const before = latestChoice.current;
        clearSavedCustomer();
        const [first] = await getAccounts({ limit: 1 });
        // The user may have picked an account meanwhile: theirs stands.
        if (!first || latestChoice.current !== before) return;
        if ((await choose(first, false, true)) === 'blocked') setNotice('/noaccess');
      } catch (e) {
        console.warn('Could not load the account list', e);
      } finally {
        setReady(true);
      }
    })();
  }, [choose]);

  const value = useMemo(
    () => ({
      customer,
      ready,
      version,
      notice,
      selectCustomer,
      refreshAccounts,
      reloadInfo,
      followLink,
      linkSync,
    }),
    [customer, ready, version, notice, selectCustomer, refreshAccounts, reloadInfo, followLink],
  );
  return <CustomerContext.Provider value={value}>{children}</CustomerContext.Provider>;
}

/**
 * Spec 000 §6: a page open to some customer types only. Returns the selected customer while `allowed` accepts its
 * info (null when the info call did not succeed); a selected customer it refuses goes to /notypecustomer and the
 * hook returns null, as it does while no customer is selected.
 */
export function useCustomerOfType(allowed: (info: AccountInfo | null) => boolean): SelectedCustomer | null {
  const { customer, version } = useCustomer();
  const navigate = useNavigate();
  const typeAllowed = !!customer && allowed(customer.info);
  useEffect(() => {
    if (customer && !typeAllowed)
      navigate('/notypecustomer', { replace: true, state: noticeState(version, customer.customerNumber) });
  }, [customer, typeAllowed, navigate, version]);
  return typeAllowed ? customer : null;
}

/**
 * A read the server refused sends the user to the notice the other account pages give (spec 000 §2.6, §8):
 * /noaccess for an export-denied account, /nopermissions for any other 403. Other failures stay on the page.
 */
export function useRefusalRedirect(error: unknown, customerNumber: string) {
  const navigate = useNavigate();
  const { version } = useCustomer();
  const refused = error instanceof ApiError && error.status === 403 ? error : null;
  useEffect(() => {
    if (!refused) return;
    const to = refused.err === messages.exportDenied ? '/noaccess' : '/nopermissions';
    navigate(to, { replace: true, state: noticeState(version, customerNumber) });
  }, [refused, navigate, version, customerNumber]);
}
