import type { AccountInfo, AccountRow } from '@lp/contract/accounts/schemas';
import { signedInHintCookie } from '@lp/contract/auth/schemas';
import type { CurrentUser } from '@lp/contract/user/schemas';
import { accountInfo } from '@lp/domain/account-info-fixture';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClientProvider } from '@tanstack/react-query';
import { configure, getConfig, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, beforeAll, vi } from 'vitest';
import { routes } from '../src/app/router.tsx';
import { clearPanels, hideSpinner } from '../src/components/panels.tsx';
import { type AppConfig, ConfigContext } from '../src/lib/app-context.tsx';
import { createQueryClient } from '../src/lib/query-client.ts';
import { testConfig } from './account-page.tsx';
import { trackQueryClient } from './query-clients.ts';
import { serveApi, withFields } from './render.tsx';

/** An account the stubbed server lists, with the info it answers for it. */
export interface PortalAccount extends AccountRow {
  info: AccountInfo;
}

export const portalAccount = (AccountID: string, AccountName: string, info: Partial<AccountInfo> = {}) => ({
  AccountID,
  AccountName,
  info: accountInfo(info),
});

/** The answers of the shell's own calls (user, flags, build, alerts, account list and infos, notices). */
export function shellAnswers(user: CurrentUser, accounts: PortalAccount[]): Record<string, unknown> {
  return {
    'GET /api/getUserDetails': user,
    'GET /api/featureflag/features': { features: [], enabled: [], overridable: false },
    'GET /api/getBuildInfo': withFields('Licensing Portal 1.0.0 (test)', { err: null }),
    'GET /api/notifications': [],
    'POST /api/getaccounts/count': accounts.length,
    'POST /api/getaccounts': withFields(
      accounts.map(({ AccountID, AccountName }) => ({ AccountID, AccountName })),
      { token: null },
    ),
    'POST /api/notices': {
      notices: [],
      choices: { expiryDays: [], usagePercents: [], runOut: false },
      disabledTypes: [],
      canChangeTypes: false,
    },
    ...Object.fromEntries(
      accounts.map((a) => [
        `GET /api/getaccountinfo/${a.AccountID}`,
        { customerNumber: a.AccountID, customerName: a.AccountName, info: a.info },
      ]),
    ),
  };
}

/** Ends the session hint an earlier render of the same test set (web/test/setup.ts empties the jar between tests). */
function forgetSession() {
  // biome-ignore lint/suspicious/noDocumentCookie: jsdom's cookie jar, as the server's hint cookie would be set
  document.cookie = `${signedInHintCookie}=; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}

/**
 * The whole portal as the browser opens it at `path`: the app's route table (shell, guards, notice and error pages,
 * the lazily loaded pages), its query client and `config`, for a signed-in `user` (the server's hint cookie is set)
 * who may see `accounts`. The API is stubbed (serveApi) with the shell's answers plus `answers`. Local storage is
 * kept unless `fresh`, so a second render after `unmount()` is a reload (the saved selection is restored). Returns
 * the render, `location()` (the router's path and query; account pages write the account into the browser's
 * address, `window.location`, in place), the router and the calls made.
 */
export function renderPortal(
  path: string,
  {
    user,
    accounts = [],
    answers = {},
    config = testConfig,
    fresh = true,
    signedIn = true,
    wrapFetch,
  }: {
    user: CurrentUser;
    accounts?: PortalAccount[];
    answers?: Record<string, unknown>;
    config?: AppConfig;
    fresh?: boolean;
    /** False: no session hint, as for a visitor who is not signed in. */
    signedIn?: boolean;
    /** Wraps the stubbed API before the app starts (to watch when calls start and end). */
    wrapFetch?: (served: typeof fetch) => typeof fetch;
  },
) {
  if (signedIn)
    // biome-ignore lint/suspicious/noDocumentCookie: jsdom's cookie jar, as the server's hint cookie would be set
    document.cookie = `${signedInHintCookie}=1`;
  else forgetSession();
  if (fresh) localStorage.clear();
  // The browser's address is where the app was opened (the guards and the selection read it at start).
  window.history.replaceState(null, '', path);
  clearPanels();
  hideSpinner();
  const calls = serveApi({ ...shellAnswers(user, accounts), ...answers });
  if (wrapFetch) vi.stubGlobal('fetch', wrapFetch(globalThis.fetch));
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <MantineProvider>
      <QueryClientProvider client={trackQueryClient(createQueryClient())}>
        <ModalsProvider modalProps={{ closeButtonProps: { 'aria-label': 'Close' } }}>
          <ConfigContext.Provider value={config}>
            <RouterProvider router={router} />
          </ConfigContext.Provider>
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  const location = () => `${router.state.location.pathname}${router.state.location.search}`;
  return { ...view, router, location, calls };
}

/** The top bar's account box. */
export const accountBox = () => screen.getByRole('textbox', { name: 'Account' }) as HTMLInputElement;

/**
 * Picks an account in the top bar as a user does: replaces the box's text with `text`, waits out the search's debounce
 * and clicks the option named `option` (Mantine keeps the list undisplayed in jsdom: `hidden`).
 */
export async function pickAccount(text: string, option: RegExp) {
  const box = accountBox();
  await userEvent.click(box);
  // The box may still have the focus from the last pick, with its text unselected: typing replaces it.
  await userEvent.clear(box);
  await userEvent.paste(text);
  await userEvent.click(await screen.findByRole('option', { name: option, hidden: true }));
}

/**
 * For a describe block whose tests open the whole app: its first screens are lazily loaded chunks, which on a loaded
 * 2-core machine can take longer than a findBy… waits by default (web/test/setup.ts). Restored after the block.
 */
export function useWholeAppTimeouts() {
  let before = 0;
  beforeAll(() => {
    before = getConfig().asyncUtilTimeout;
    configure({ asyncUtilTimeout: Math.max(before, 30_000) });
  });
  afterAll(() => configure({ asyncUtilTimeout: before }));
}
