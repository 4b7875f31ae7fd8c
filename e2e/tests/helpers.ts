import AxeBuilder from '@axe-core/playwright';
import { type BrowserContext, type Locator, type Page, type Route, request } from '@playwright/test';
import { expect } from './fixtures.ts';

export const DEMO_PASSWORD = process.env.DEMO_PASSWORD ?? 'demo-password';

/**
 * Signs in through the built-in IdP's login page, starting from a guarded page: the way a user does. Only the
 * tests of sign-in itself use it; every other test signs in with `signIn`.
 */
export async function signInThroughForm(page: Page, email: string, startAt = '/elastic') {
  await page.goto(startAt);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(accountBox(page)).toBeVisible();
}

/**
 * The top bar's account box. By its exact name: /activations has a second box with the same placeholder
 * (Associated Accounts), so the placeholder alone may match two elements.
 */
export const accountBox = (page: Page) => page.getByRole('textbox', { name: 'Account', exact: true });

type Cookie = Awaited<ReturnType<BrowserContext['cookies']>>[number];

/** Session cookies by server and user: a worker signs each user in once (issue 23 §5). */
const sessions = new Map<string, Promise<Cookie[]>>();

/**
 * The same sign-in over plain HTTP (the IdP's redirects and its form, no page rendered); answers the portal's
 * cookies (session and its signed-in hint), not the IdP's own, so a later sign-in form still asks.
 */
async function signInOverHttp(origin: string, email: string): Promise<Cookie[]> {
  const http = await request.newContext({ baseURL: origin });
  try {
    const login = await http.get('/api/auth/login?returnTo=%2Felastic');
    const html = await login.text();
    const action = /<form[^>]*\saction="([^"]+)"/.exec(html)?.[1];
    if (!login.ok() || !action) throw new Error(`No sign-in form at ${login.url()}:\n${html.slice(0, 500)}`);
    const done = await http.post(new URL(action.replace(/&amp;/g, '&'), login.url()).href, {
      form: { email, password: DEMO_PASSWORD },
    });
    const { cookies } = await http.storageState();
    const portal = cookies.filter((c) => c.name.startsWith('lp_'));
    if (!done.ok() || !portal.some((c) => c.name === 'lp_session'))
      throw new Error(`Sign-in of ${email} failed (${done.status()} at ${done.url()})`);
    return portal;
  } finally {
    await http.dispose();
  }
}

/**
 * Signs `page`'s context in as `email` with a session made over HTTP (once per worker and user), then opens
 * `startAt` (or the path it answers once signed in): a page load instead of the IdP's two. The sign-in pages have
 * their own tests (shell.spec.ts).
 */
export async function signIn(
  page: Page,
  email: string,
  startAt: string | ((origin: string) => Promise<string>) = '/elastic',
) {
  // The context's own server (the worker's, or a proxy in front of it): its base URL, resolved.
  const origin = new URL((await page.request.get('/healthz')).url()).origin;
  const key = `${origin} ${email}`;
  const searchBox = accountBox(page);
  const open = async (last: boolean) => {
    if (!sessions.has(key)) {
      const made = signInOverHttp(origin, email);
      // A failed sign-in is not kept: the next test tries again.
      made.catch(() => sessions.delete(key));
      sessions.set(key, made);
    }
    await page.context().addCookies(await (sessions.get(key) as Promise<Cookie[]>));
    let target: string;
    try {
      target = typeof startAt === 'string' ? startAt : await startAt(origin);
    } catch (e) {
      if (last) throw e;
      return false;
    }
    await page.goto(target);
    // The IdP's form by its password field: an account page may have its own "Email…" labels (the Emails
    // region), the portal has no password field.
    await expect(searchBox.or(page.getByLabel('Password', { exact: true }))).toBeVisible();
    return searchBox.isVisible();
  };
  if (await open(false)) return;
  // The session was made on an earlier server at the same address (a restarted one): sign in anew.
  sessions.delete(key);
  await open(true);
  await expect(searchBox).toBeVisible();
}

/** Customer numbers by server, user and exact account name, looked up once per worker. */
const accountNumbers = new Map<string, Promise<string>>();

/** The customer number of the account named exactly `name`, as the signed-in user of `page` sees it. */
function accountNumber(page: Page, origin: string, email: string, name: string): Promise<string> {
  const key = `${origin} ${email} ${name}`;
  if (!accountNumbers.has(key)) {
    const found = (async () => {
      const res = await page.request.post(`${origin}/api/getaccounts`, {
        headers: { 'x-lp-csrf': '1' },
        data: {
          limit: 10,
          filter: { criteria: [{ name: 'AccountName', method: 'EQUALS', value: name }] },
        },
      });
      const rows = ((await res.json()) as { data?: { AccountID: string; AccountName: string }[] }).data;
      const id = rows?.find((r) => r.AccountName === name)?.AccountID;
      if (!id) throw new Error(`${email} sees no account named ${name} at ${origin} (${res.status()})`);
      return id;
    })();
    // A failed lookup (a stale session) is not kept.
    found.catch(() => accountNumbers.delete(key));
    accountNumbers.set(key, found);
  }
  return accountNumbers.get(key) as Promise<string>;
}

/**
 * Signs in and opens `path` on the account named exactly `account` through the link a colleague would share
 * (`?account=`, issue 21): one page load instead of the first account's page, a search and a pick. The account
 * box and its search have their own tests (shell.spec.ts); tests of other screens start here.
 */
export async function openAccountPage(page: Page, email: string, account: string, path: string) {
  let customerNumber = '';
  await signIn(page, email, async (origin) => {
    customerNumber = await accountNumber(page, origin, email, account);
    const url = new URL(path, origin);
    url.searchParams.set('account', customerNumber);
    return url.pathname + url.search;
  });
  await expect(accountBox(page)).toHaveValue(`${customerNumber} (${account})`);
}

/** Types into the top-bar box and waits for the (debounced, 1 s) option list. */
export async function searchAccount(page: Page, text: string) {
  const box = accountBox(page);
  await box.click();
  await box.fill(text);
}

export async function pickAccount(page: Page, text: string, optionName: RegExp) {
  await searchAccount(page, text);
  const option = page.getByRole('option', { name: optionName });
  await expect(option).toBeVisible();
  await option.click();
}

export async function openUserMenu(page: Page) {
  await page.getByRole('button', { name: /User menu for/ }).click();
}

/**
 * Axe over the whole page (shell included): no serious or critical violations. `scope` narrows it to one
 * element where the page itself cannot be analysed as a whole (e.g. content inside a script-less frame).
 * Label in name (WCAG 2.5.3) is an experimental axe rule, off by default: it is switched on (issue 21).
 * One sweep per page and dialog, in the test that reaches it first; another state of the same screen (a view-only
 * variant, a message, a refusal) is not swept again: a sweep costs seconds (issue 23 §5, decision 066).
 * axe.run in the page itself (legacy mode, same-origin frames included; the app has no cross-origin frame) with
 * only the violations' details: the default runs each frame partially and finishes in a new blank page, which cost
 * 4-8 s of a 5-10 s sweep (decision 066, addendum of 2026-11-27 15:20).
 */
export async function expectNoSeriousViolations(page: Page, scope?: string) {
  const builder = new AxeBuilder({ page }).setLegacyMode(true).options({
    resultTypes: ['violations'],
    rules: { 'label-content-name-mismatch': { enabled: true } },
  });
  if (scope) builder.include(scope);
  const results = await builder.analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  // The element's opening markup makes a finding recognisable where its target is a generated id.
  const where = (n: (typeof serious)[number]['nodes'][number]) =>
    `${n.target.join(' ')} ${n.html.slice(0, 160)}`;
  expect(serious.map((v) => `${v.id}: ${v.nodes.map(where).join(', ')}`)).toEqual([]);
}

/**
 * Loads that failed while the page was watched: answers with an error status, and the "Failed to load resource"
 * lines Chrome logs (the fixtures tolerate those, but a load nobody caused must not fail: issue 21).
 */
export function watchFailedLoads(page: Page): string[] {
  const failed: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && m.text().startsWith('Failed to load resource'))
      failed.push(`${m.text()} (${m.location().url})`);
  });
  return failed;
}

/** Sets the one condition of a grid column's text filter (spec 000 §2.7) from its header button. */
export async function filterColumn(
  grid: Locator,
  colId: string,
  option: 'Contains' | 'Equals',
  text: string,
) {
  const page = grid.page();
  await grid.locator(`.ag-header-cell[col-id="${colId}"] .ag-header-cell-filter-button`).click();
  const popup = page.locator('.ag-filter');
  await expect(popup).toBeVisible();
  if (option === 'Equals') {
    await popup.locator('.ag-picker-field').first().click();
    await page.getByRole('option', { name: 'Equals' }).click();
  }
  await popup.locator('input[type="text"]').first().fill(text);
  await page.keyboard.press('Escape');
}

/** Makes the server refuse the calls to `url` with this status and text, as its one error handler answers. */
export async function refuseCalls(page: Page, url: string, status: number, err: string, code?: string) {
  await page.route(url, (route) =>
    route.fulfill({
      status,
      contentType: 'application/json',
      body: JSON.stringify({ status: 'FAILURE', err, code }),
    }),
  );
}

/** One table's saved view as GET /api/featureflag/pref answers it (spec 000 §4.4); fields as the app sends them. */
export interface SavedView {
  customerNumber: string;
  tableName: string;
  filterModel?: Record<string, Record<string, unknown>> | null;
  sortModel?: { colId: string; sort: string }[] | null;
  columnOrder?: unknown[] | null;
  [field: string]: unknown;
}

/** A view without filter, sort or column changes: the table's default (or no saved view at all). */
export const isDefaultView = (view: SavedView | undefined) =>
  !view ||
  (Object.keys(view.filterModel ?? {}).length === 0 && !view.sortModel?.length && !view.columnOrder?.length);

/**
 * Waits until the server holds the view that `saved` accepts for this customer's table. Views are saved
 * debounced (500 ms) after the last change, so a reload must wait for the server rather than for a fixed time.
 */
export async function expectSavedView(
  page: Page,
  customerNumber: string,
  tableName: string,
  saved: (view: SavedView | undefined) => boolean,
) {
  let last: SavedView | undefined;
  try {
    await expect
      .poll(
        async () => {
          const answer = await page.request.get('/api/featureflag/pref');
          const { data } = (await answer.json()) as { data: SavedView[] };
          last = data.find((v) => v.customerNumber === customerNumber && v.tableName === tableName);
          return saved(last);
        },
        { timeout: 30_000 },
      )
      .toBe(true);
  } catch (e) {
    // Say what the server holds instead, so a failure explains itself.
    throw new Error(`The saved view of ${tableName} is ${JSON.stringify(last)}\n${(e as Error).message}`);
  }
}

/**
 * Holds the calls to `url` until the returned release() is called, so a test can see the waiting state (a
 * spinner) for as long as it needs; `answer` replaces the server's answer when given.
 */
export async function holdCalls(page: Page, url: string, answer?: (route: Route) => Promise<void>) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await released;
    await (answer ? answer(route) : route.continue());
  });
  return release;
}

/** The texts of one column's cells in display order (the grid's current page), read in one pass. */
export const columnTexts = (grid: Locator, colId: string) =>
  grid.locator('.ag-row[row-index]').evaluateAll((rows, col) => {
    const byIndex = new Map<number, string>();
    for (const r of rows) {
      const cell = r.querySelector(`[col-id="${col}"]`);
      byIndex.set(Number(r.getAttribute('row-index')), cell?.textContent ?? '');
    }
    return [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, text]) => text);
  }, colId);
