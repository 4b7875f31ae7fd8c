import fs from 'node:fs';
import os from 'node:os';
import type { Locator, Page } from '@playwright/test';
import Papa from 'papaparse';
import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations, filterColumn, holdCalls, refuseCalls, signIn } from './helpers.ts';

/*
 * Manage Activations at /activations-history (spec 002 §2, §4 "Host lifecycle", "Activation history grouping",
 * §7, §8; decision 033), on the real server and its demo world: Acme Aerospace Inc. (1000123, administered by
 * admin@acme.example, only viewed by engineer@acme.example) has active hosts (licsrv01, a triad shared with Acme
 * Automotive, cfd-lic02, lab-dongle, hpc-lic02) and inactive ones (old-licsrv, hpc-lic01 rehosted to hpc-lic02).
 * Every expectation is computed from the API's own answers with the spec's rules written out here.
 */

const ACME = '1000123';
const csrf = { 'x-lp-csrf': '1' };
const NO_PERMISSION = 'You do not have enough permissions for such operation.';
const CSV_HEADER = 'Hostname (hostid),Time,Modified by,Action,Product,Entitlement,Count,Start Date,End Date';

interface Host {
  name: string;
  serverName: string;
  state: 'Active' | 'Inactive' | 'Unknown';
  serverId: string;
  serverIdType: string;
  displayName: string;
  shared: boolean;
}
interface HistoryRow {
  groupId: number;
  time: string;
  modifiedBy: string;
  action: string;
  activationId: string;
  product: string;
  count: number;
  startDate: string;
  endDate: string | null;
  versionDate: string | null;
}
interface ActivationRow {
  activationid: string;
  ansysproduct: string;
  ansysactivated: number;
  maintenanceExpired: boolean;
}

async function post<T>(page: Page, path: string, data: object): Promise<T> {
  const res = await page.request.post(path, { data, headers: csrf });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return (await res.json()).data as T;
}

const hostsOf = (page: Page) => post<Host[]>(page, '/api/fulfillments/servers', { customerNumber: ACME });
const hostIds = (hosts: Host[]) => hosts.map((h) => ({ hostId: h.serverId, hostIdType: h.serverIdType }));
const historyOf = async (page: Page, host: Host) =>
  (
    await post<{ rows: HistoryRow[] }[]>(page, '/api/fulfillments/history', {
      customerNumber: ACME,
      hostIds: hostIds([host]),
    })
  )[0].rows;
const entitlementsOf = (page: Page, host: Host) =>
  post<ActivationRow[]>(page, '/api/fulfillments/entitlements', {
    customerNumber: ACME,
    serverId: host.serverId,
    serverIdType: host.serverIdType,
  });

/** Spec 002 §4: by name, then id, then type; Active under Active Servers, the rest under Inactive (decision 033). */
const byName = (a: Host, b: Host) =>
  a.name.localeCompare(b.name) ||
  a.serverId.localeCompare(b.serverId) ||
  a.serverIdType.localeCompare(b.serverIdType);
const activeHosts = (hosts: Host[]) => hosts.filter((h) => h.state === 'Active').sort(byName);
const inactiveHosts = (hosts: Host[]) => hosts.filter((h) => h.state !== 'Active').sort(byName);

/** Spec 002 §2: yyyy-MM-dd H:mm (from the UTC 'YYYY-MM-DD HH:mm:ss'). */
const shownTime = (time: string) =>
  `${time.slice(0, 10)} ${Number(time.slice(11, 13))}:${time.slice(14, 16)}`;
const modifiedBy = (r: HistoryRow) => r.modifiedBy || 'Automated Action';

const section = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });
const grid = (page: Page, title: string) => page.getByRole('region', { name: `${title} table`, exact: true });
const hostNames = (scope: Locator) => scope.getByTestId('host-name');

/** The history rows the grid shows, in display order: [action, count] per row. */
const shownRows = (scope: Locator) =>
  scope.locator('.ag-row[row-index]').evaluateAll((rows) =>
    rows
      .map((r) => ({
        index: Number(r.getAttribute('row-index')),
        action: r.querySelector('[col-id="action"]')?.textContent ?? '',
        count: r.querySelector('[col-id="count"]')?.textContent ?? '',
        time: r.querySelector('[col-id="time"]')?.textContent ?? '',
        modifiedBy: r.querySelector('[col-id="modifiedBy"]')?.textContent ?? '',
      }))
      .filter((r) => r.action !== '')
      .sort((a, b) => a.index - b.index),
  );

/** The rows in display order: a host's display name, or a history row's count indented under it. */
const shownTree = (scope: Locator) =>
  scope.locator('.ag-row[row-index]').evaluateAll((rows) =>
    rows
      .map((r) => ({
        index: Number(r.getAttribute('row-index')),
        text:
          r.querySelector('[data-testid="host-name"]')?.textContent ??
          `  ${r.querySelector('[col-id="count"]')?.textContent ?? ''}`,
      }))
      .sort((a, b) => a.index - b.index)
      .map((r) => r.text),
  );

async function openHistory(page: Page, email = 'admin@acme.example') {
  await signIn(page, email, '/activations-history');
  await expect(page.getByRole('heading', { name: 'Manage Activations', level: 1 })).toBeVisible();
  await expect(page.getByTestId('selected-customer')).toContainText(ACME);
  await expect(page.getByText('Getting Activations History...')).toHaveCount(0);
}

async function pageSize(scope: Locator, size: string) {
  await scope.locator('.ag-paging-page-size .ag-picker-field').click();
  await scope.page().getByRole('option', { name: size, exact: true }).click();
}

test('lists the hosts, expands one into its grouped history, filters it, exports each section as CSV', async ({
  page,
}) => {
  // Spec 002 §9: each section pre-fetches the history of its first (at most) 5 hosts, at most 5 hosts per call.
  const asked: string[][] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/fulfillments/history'))
      asked.push((request.postDataJSON() as { hostIds: { hostId: string }[] }).hostIds.map((h) => h.hostId));
  });
  await openHistory(page);
  const hosts = await hostsOf(page);
  const active = activeHosts(hosts);
  const inactive = inactiveHosts(hosts);
  expect(active.length).toBeGreaterThan(1);
  expect(inactive.length).toBeGreaterThan(0);
  const prefetched = [...active.slice(0, 5), ...inactive.slice(0, 5)].map((h) => h.serverId).sort();
  await expect.poll(() => asked.flat().sort()).toEqual(prefetched);
  for (const ids of asked) expect(ids.length).toBeLessThanOrEqual(5);

  const activeGrid = grid(page, 'Active Servers');
  const inactiveGrid = grid(page, 'Inactive Servers');
  await expect(hostNames(activeGrid)).toHaveText(active.map((h) => h.displayName));
  await expect(hostNames(inactiveGrid)).toHaveText(inactive.map((h) => h.displayName));
  // A triad is named by its three servers, here and in the CSV (decision 049).
  const triad = active.find((h) => h.serverId.split(',').length === 3);
  expect(triad?.displayName.split('), ')).toHaveLength(3);
  await expect(
    section(page, 'Inactive Servers').getByText('inactive', { exact: true }).first(),
  ).toBeVisible();

  // Expanding shows the host's grouped rows as the API answers them (newest group first).
  const host = active[0];
  const rows = await historyOf(page, host);
  expect(rows.length).toBeGreaterThan(0);
  await pageSize(activeGrid, '500');
  await activeGrid.getByRole('button', { name: `Expand ${host.name}`, exact: true }).click();
  await expect(activeGrid.getByRole('button', { name: `Collapse ${host.name}`, exact: true })).toBeVisible();
  await expect.poll(async () => (await shownRows(activeGrid)).length).toBe(rows.length);
  const shown = await shownRows(activeGrid);
  expect(shown.map((r) => [r.action, r.count])).toEqual(
    rows.map((r) => [r.action, r.count.toLocaleString('en-US')]),
  );
  expect(shown.map((r) => [r.time, r.modifiedBy])).toEqual(
    rows.map((r) => [shownTime(r.time), modifiedBy(r)]),
  );
  for (const r of rows)
    expect(r.action).toBe(r.count > 0 ? `ACTIVATE (${r.count})` : `DEACTIVATE (${-r.count})`);
  // Every host stays listed, with the expanded one's rows right under it.
  const counts = rows.map((r) => `  ${r.count.toLocaleString('en-US')}`);
  expect(await shownTree(activeGrid)).toEqual([
    host.displayName,
    ...counts,
    ...active.slice(1).map((h) => h.displayName),
  ]);
  await expectNoSeriousViolations(page);

  // A filter narrows the history rows; the host rows stay.
  await filterColumn(activeGrid, 'action', 'Equals', rows[0].action);
  const same = rows.filter((r) => r.action === rows[0].action);
  await expect.poll(async () => (await shownRows(activeGrid)).length).toBe(same.length);
  await expect(hostNames(activeGrid)).toHaveText(active.map((h) => h.displayName));
  await section(page, 'Active Servers').getByRole('button', { name: 'Clear filters' }).click();
  await expect.poll(async () => (await shownRows(activeGrid)).length).toBe(rows.length);
  // A sort orders the rows under their host; the hosts keep their order. Reset view undoes it.
  // Two clicks: ascending, then descending (newest-first rows are not already in that order).
  const countHeader = activeGrid.locator('.ag-header-cell[col-id="count"] .ag-header-cell-label');
  const descending = [...rows].sort((a, b) => b.count - a.count).map((r) => r.count.toLocaleString('en-US'));
  expect(descending).not.toEqual(rows.map((r) => r.count.toLocaleString('en-US')));
  await countHeader.click();
  await countHeader.click();
  await expect
    .poll(() => shownTree(activeGrid))
    .toEqual([
      active[0].displayName,
      ...descending.map((c) => `  ${c}`),
      ...active.slice(1).map((h) => h.displayName),
    ]);
  await section(page, 'Active Servers').getByRole('button', { name: 'Reset view' }).click();
  await expect
    .poll(async () => (await shownRows(activeGrid)).map((r) => r.action))
    .toEqual(rows.map((r) => r.action));
  await activeGrid.getByRole('button', { name: `Collapse ${host.name}`, exact: true }).click();
  await expect.poll(async () => (await shownRows(activeGrid)).length).toBe(0);

  // Each section's export: the spec's header and one line per history row of each of its hosts.
  for (const [title, list, file] of [
    ['Active Servers', active, `ANSYSActiveServers_${ACME}.csv`],
    ['Inactive Servers', inactive, `ANSYSInactiveServers_${ACME}.csv`],
  ] as const) {
    const answer = await post<{ hostId: string; rows: HistoryRow[] }[]>(
      page,
      '/api/fulfillments/servers/export',
      {
        customerNumber: ACME,
        hostIds: hostIds([...list]),
      },
    );
    const expected = list.flatMap((h) =>
      (answer.find((a) => a.hostId === h.serverId)?.rows ?? []).map((r) => [
        h.displayName,
        r.time,
        modifiedBy(r),
        r.action,
        r.product,
        r.activationId,
        String(r.count),
        r.startDate,
        // A perpetual ends with its maintenance (decision 049).
        r.endDate ?? (r.versionDate ? `Maintenance ends on ${r.versionDate}` : 'PERMANENT'),
      ]),
    );
    expect(expected.length).toBeGreaterThan(0);
    if (title === 'Active Servers')
      expect(expected.some((l) => l[8].startsWith('Maintenance ends on '))).toBe(true);
    const downloading = page.waitForEvent('download');
    await section(page, title).getByRole('button', { name: 'Export as csv' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(file);
    const text = fs.readFileSync((await download.path())!, 'utf8');
    expect(text.split('\r\n')[0]).toBe(CSV_HEADER);
    expect(Papa.parse<string[]>(text, { skipEmptyLines: true }).data.slice(1)).toEqual(expected);
  }
});

test('views, downloads and verifies the license file of an active host', async ({ page }) => {
  await openHistory(page);
  const host = activeHosts(await hostsOf(page)).find((h) => !h.shared)!;
  const rows = await entitlementsOf(page, host);
  expect(rows.length).toBeGreaterThan(0);
  const activeGrid = grid(page, 'Active Servers');

  await activeGrid.getByRole('button', { name: `View activations of ${host.name}`, exact: true }).click();
  const view = page.getByRole('dialog', {
    name: `The following products are activated on Host ID: ${host.serverId}`,
  });
  const table = view.getByRole('table', { name: 'Activated products' });
  await expect(table.locator('tbody tr')).toHaveCount(rows.length);
  for (const r of rows) await expect(table.getByText(r.activationid, { exact: true })).toBeVisible();
  await expect(view.getByRole('progressbar').first()).toBeVisible();
  await expectNoSeriousViolations(page);
  await view.getByRole('button', { name: 'Ok' }).click();
  await expect(view).toHaveCount(0);

  const downloading = page.waitForEvent('download');
  await activeGrid
    .getByRole('button', { name: `Download license file of ${host.name}`, exact: true })
    .click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`license_${ACME}_${host.serverId}.lic`);
  const file = (await download.path())!;
  const text = fs.readFileSync(file, 'utf8');
  expect(text).toMatch(new RegExp(`^SERVER \\S+ (\\S+=)?${host.serverId}\\b`, 'im'));
  await expect(page.getByText('Downloading license file...')).toHaveCount(0);

  // A shared host: its merged file and each of its _shared.lic files.
  const shared = activeHosts(await hostsOf(page)).find((h) => h.shared)!;
  const answer = await page.request.post('/api/fulfillments/license', {
    headers: csrf,
    data: { customerNumber: ACME, serverId: shared.serverId, serverIdType: shared.serverIdType },
  });
  expect(answer.status()).toBe(200);
  const sharedFiles = ((await answer.json()) as { shared: { fileName: string }[] }).shared;
  expect(sharedFiles.length).toBeGreaterThan(0);
  const names: string[] = [];
  page.on('download', (d) => names.push(d.suggestedFilename()));
  await activeGrid
    .getByRole('button', { name: `Download license file of ${shared.name}`, exact: true })
    .click();
  await expect
    .poll(() => [...names].sort())
    .toEqual([`license_${ACME}_${shared.serverId}.lic`, ...sharedFiles.map((f) => f.fileName)].sort());

  // The file just downloaded verifies: every feature line genuine, issued for this customer and host.
  await page.getByRole('button', { name: 'Verify a license file' }).click();
  const verify = page.getByRole('dialog', { name: 'Verify a license file' });
  const choosing = page.waitForEvent('filechooser');
  await verify.getByRole('button', { name: 'Choose file' }).click();
  await (await choosing).setFiles(file);
  const result = verify.getByRole('region', { name: 'Verification result' });
  await expect(result).toContainText(`Issued for customer ${ACME}`);
  await expect(result).toContainText(host.serverId);
  const lines = result.getByRole('table', { name: 'Feature lines' }).locator('tbody tr');
  const features = text.split('\n').filter((l) => /^(FEATURE|INCREMENT|PACKAGE|UPGRADE)\s/.test(l)).length;
  expect(features).toBeGreaterThan(0);
  await expect(lines).toHaveCount(features);
  await expect(lines.filter({ hasText: 'Genuine' })).toHaveCount(features);
  // One overall verdict, worded as the CLI's `license verify` (issue 21).
  const summary = verify.getByTestId('verify-summary');
  await expect(summary).toContainText(`all ${features} feature lines valid`);
  await expectNoSeriousViolations(page);
  // A signature from elsewhere is not called altered: it is not signed by this portal.
  const foreign = `${os.tmpdir()}/lp-e2e-foreign-${host.serverId}.lic`;
  fs.writeFileSync(foreign, text.replace(/SIGN="[^"]*"/, 'SIGN="0011 2233 4455 6677"'));
  const choosingAgain = page.waitForEvent('filechooser');
  await verify.getByRole('button', { name: 'Choose file' }).click();
  await (await choosingAgain).setFiles(foreign);
  await expect(summary).toContainText(`1 bad line; ${features - 1} of ${features} feature lines valid`);
  await expect(lines.filter({ hasText: 'Not signed by this portal' })).toHaveCount(1);
  await expect(lines.filter({ hasText: 'Altered' })).toHaveCount(0);
  await verify.getByRole('button', { name: 'Ok' }).click();
  await expect(verify).toHaveCount(0);
});

test('deactivates a host into Inactive Servers (a failed step cleared and retried), then deletes it', async ({
  page,
}) => {
  await openHistory(page);
  // A host of this account alone whose products may all be returned (none past maintenance).
  let host: Host | undefined;
  let rows: ActivationRow[] = [];
  for (const h of activeHosts(await hostsOf(page)).filter((x) => !x.shared)) {
    rows = await entitlementsOf(page, h);
    if (rows.length > 0 && rows.every((r) => !r.maintenanceExpired)) {
      host = h;
      break;
    }
  }
  expect(host, 'an active host whose products can all be returned').toBeDefined();
  const target = host!;
  // An inactive host's history, sorted by Count descending: the sort holds when the data changes (issue 21).
  const inactiveGrid = grid(page, 'Inactive Servers');
  const old = inactiveHosts(await hostsOf(page))[0];
  const oldCounts = (await historyOf(page, old)).map((r) => r.count).sort((a, b) => b - a);
  await pageSize(inactiveGrid, '500');
  await inactiveGrid.getByRole('button', { name: `Expand ${old.name}`, exact: true }).click();
  await expect.poll(async () => (await shownRows(inactiveGrid)).length).toBe(oldCounts.length);
  const countHeader = inactiveGrid.locator('.ag-header-cell[col-id="count"] .ag-header-cell-label');
  await countHeader.click();
  await countHeader.click();
  const sortedUnder = async () => {
    const tree = await shownTree(inactiveGrid);
    const start = tree.indexOf(old.displayName) + 1;
    const end = tree.findIndex((t, i) => i >= start && !t.startsWith('  '));
    return tree.slice(start, end < 0 ? undefined : end);
  };
  const expected = oldCounts.map((c) => `  ${c.toLocaleString('en-US')}`);
  await expect.poll(sortedUnder).toEqual(expected);

  await grid(page, 'Active Servers')
    .getByRole('button', { name: `Deactivate ${target.name}`, exact: true })
    .click();
  const confirm = page.getByRole('dialog', { name: 'Confirm host deactivation' });
  const listed = confirm.getByRole('table', { name: `Products to deactivate for ${ACME}` });
  await expect(listed.locator('tbody tr')).toHaveCount(rows.length);
  await expectNoSeriousViolations(page);
  // The returns are held to see the spinner; the shared-group step then fails once.
  const release = await holdCalls(page, '**/api/fulfillments/return');
  await refuseCalls(page, '**/api/sharedserver/deactivate', 400, 'refused for the test');
  await confirm.getByRole('button', { name: 'Ok' }).click();
  await expect(page.getByText('Returning fulfillments...')).toBeVisible();
  release();
  const banner = page.getByRole('alert').filter({
    hasText: 'Error deactivating shared server group. Please clear the error and retry.',
  });
  await expect(banner).toBeVisible();
  await page.unroute('**/api/fulfillments/return');
  await page.unroute('**/api/sharedserver/deactivate');
  // Clear and retry runs the same plan again: the saved returns are replayed, not doubled.
  await banner.getByRole('button', { name: 'Clear error and retry' }).click();
  await expect(banner).toHaveCount(0);

  await expect(hostNames(inactiveGrid).filter({ hasText: target.displayName })).toHaveCount(1);
  // The hosts stay in name order and the expanded history keeps its sort.
  const names = inactiveHosts(await hostsOf(page)).map((h) => h.displayName);
  await expect(hostNames(inactiveGrid)).toHaveText(names);
  await expect.poll(sortedUnder).toEqual(expected);
  await expect(hostNames(grid(page, 'Active Servers')).filter({ hasText: target.displayName })).toHaveCount(
    0,
  );
  expect((await hostsOf(page)).find((h) => h.serverId === target.serverId)?.state).toBe('Inactive');
  expect(await entitlementsOf(page, target)).toEqual([]);
  // Its newest history group returns every seat that was activated, once.
  const history = await historyOf(page, target);
  const newest = history.filter((r) => r.groupId === history[0].groupId);
  expect(newest.every((r) => r.action.startsWith('DEACTIVATE ('))).toBe(true);
  expect(newest.reduce((n, r) => n - r.count, 0)).toBe(rows.reduce((n, r) => n + r.ansysactivated, 0));

  await inactiveGrid.getByRole('button', { name: `Delete ${target.name}`, exact: true }).click();
  const remove = page.getByRole('dialog', { name: 'Confirm host removal' });
  await expect(remove).toContainText(target.displayName);
  await expectNoSeriousViolations(page);
  await remove.getByRole('button', { name: 'Ok' }).click();
  await expect(hostNames(inactiveGrid).filter({ hasText: target.displayName })).toHaveCount(0);
  expect((await hostsOf(page)).some((h) => h.serverId === target.serverId)).toBe(false);
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('a view-only user reads the history, gets the notice on deactivate, rehost and delete; errors clear and retry', async ({
  page,
}) => {
  // The history calls fail at first: the banner says so and its action reloads once they work again.
  await refuseCalls(page, '**/api/fulfillments/history', 400, 'refused for the test');
  await openHistory(page, 'engineer@acme.example');
  const hosts = await hostsOf(page);
  const banner = page
    .getByRole('alert')
    .filter({ hasText: 'Error fetching fulfillment history for all the servers.' });
  await expect(banner).toBeVisible();
  const first = activeHosts(hosts)[0];
  const activeGrid = grid(page, 'Active Servers');
  await activeGrid.getByRole('button', { name: `Expand ${first.name}`, exact: true }).click();
  await expect(activeGrid.getByText('Error fetching fulfillment history for all the servers.')).toBeVisible();
  await page.unroute('**/api/fulfillments/history');
  await banner.getByRole('button', { name: 'Clear error and retry' }).click();
  await expect(banner).toHaveCount(0);
  const rows = await historyOf(page, first);
  await expect.poll(async () => (await shownRows(activeGrid)).length).toBe(Math.min(rows.length, 9));

  const host = activeHosts(hosts)[0];
  const old = inactiveHosts(hosts)[0];
  for (const [title, button] of [
    ['Active Servers', `Deactivate ${host.name}`],
    ['Active Servers', `Rehost ${host.name}`],
    ['Inactive Servers', `Delete ${old.name}`],
  ]) {
    await grid(page, title).getByRole('button', { name: button, exact: true }).click();
    const notice = page.getByRole('dialog', { name: `Customer ${ACME}` });
    await expect(notice.getByText(NO_PERMISSION)).toBeVisible();
    await notice.getByRole('button', { name: 'Ok' }).click();
    await expect(notice).toHaveCount(0);
  }
  // View activations on a host shared with accounts the viewer may not see: their lines stay out, only their
  // number is said (decision 049).
  const shared = activeHosts(hosts).find((h) => h.shared)!;
  const { otherCustomers } = await post<{ otherCustomers: number }>(page, '/api/fulfillments/override', {
    customerNumber: ACME,
    hostId: shared.serverId,
    hostIdType: shared.serverIdType,
  });
  expect(otherCustomers).toBeGreaterThan(0);
  await activeGrid.getByRole('button', { name: `View activations of ${shared.name}`, exact: true }).click();
  const view = page.getByRole('dialog', {
    name: `The following products are activated on Host ID: ${shared.serverId}`,
  });
  await expect(view.getByTestId('hidden-accounts')).toHaveText(
    `${otherCustomers} other account(s) you cannot see also use this host; their products are not listed.`,
  );
  await expect(view.getByRole('table', { name: 'Activated products' })).toBeVisible();
  await view.getByRole('button', { name: 'Ok' }).click();
  await expect(view).toHaveCount(0);
  await expect(page).toHaveURL(/\/activations-history(\?|$)/);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await hostsOf(page)).toEqual(hosts);
});
