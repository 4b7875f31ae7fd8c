import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Download, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations, signIn } from './helpers.ts';

/*
 * Activate Entitlements at /activations (spec 002 §2, §4, §5, §6, §8; issue 11 §1, §3, §4), on the real server and
 * its demo world: Acme Aerospace Inc. (1000123, support list cae-support@acme.example) and Acme Automotive GmbH
 * (1000124) are administered by admin@acme.example. Every host is new per test (random ids), so tests never share
 * seats. The worker's server delivers e-mail to a real SMTP server in the worker. The view-only notice, a failed
 * fetch with Clear error and retry, and an export-denied tab are component tests
 * (web/src/features/activations/pages/activations-page.test.tsx).
 */

// Runs on a server delivering to a real SMTP server (playwright.config.ts, project 'smtp').

const ACME = '1000123';
const AUTOMOTIVE_NAME = 'Acme Automotive GmbH';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const csrf = { 'x-lp-csrf': '1' };

const hex12 = () => randomBytes(6).toString('hex');
const hostName = (prefix: string) => `${prefix}-${randomBytes(3).toString('hex')}`;

interface Row {
  activationid: string;
  ansysproduct: string;
  ansysborrowable: boolean;
  ansysavailable: number;
  ansysactivated: number;
  maintenanceExpired: boolean;
  fulfillments: { FulfillmentID: number; FulfillCount: number }[];
}

/** The account's rows on a host (or only available rows without one), as the page reads them. */
async function tabRows(
  page: Page,
  customerNumber: string,
  host?: { serverId: string; serverIdType: string },
) {
  const res = await page.request.post('/api/fulfillments/allentitlements', {
    headers: csrf,
    data: { customerNumber, ...host },
  });
  expect(res.status()).toBe(200);
  return (await res.json()).data as { assigned: Row[]; available: Row[] };
}

/** Available rows that can take `seats` more seats, picked from the server's own answer. */
async function pickAvailable(
  page: Page,
  customerNumber: string,
  n: number,
  seats = 1,
  also: (r: Row) => boolean = () => true,
) {
  const { available } = await tabRows(page, customerNumber);
  const rows = available.filter((r) => r.ansysavailable >= seats && !r.maintenanceExpired && also(r));
  expect(rows.length).toBeGreaterThanOrEqual(n);
  return rows.slice(0, n);
}

const activeTabPanel = (page: Page) => page.getByRole('tabpanel');
const countInput = (scope: Locator, id: string) =>
  scope
    .getByRole('textbox', { name: `Activated count for ${id}`, exact: true })
    .or(scope.getByRole('spinbutton', { name: `Activated count for ${id}`, exact: true }));

async function openActivations(page: Page, email = 'admin@acme.example') {
  await signIn(page, email, '/activations');
  await expect(page.getByRole('heading', { name: 'Activate Entitlements' })).toBeVisible();
  await expect(page.getByTestId('selected-customer')).toContainText(ACME);
}

async function addHostByTyping(page: Page, name: string, id: string) {
  await page.getByRole('button', { name: 'Add server' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New Host' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Host name', exact: true }).fill(name);
  await dialog.getByRole('textbox', { name: 'Host ID', exact: true }).fill(id);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('pending-host')).toContainText(`${name} (${id})`);
}

/** Clicks the confirmation's Ok, which the dialog enables once it shows the license file changes. */
async function confirmOk(page: Page, title = 'Confirm activations') {
  await page.getByRole('dialog', { name: title }).getByRole('button', { name: 'Ok' }).click();
}

/** Confirms the save in the dialog and returns the download it ends with. */
async function confirmAndDownload(page: Page, title = 'Confirm activations'): Promise<Download> {
  const downloading = page.waitForEvent('download');
  await confirmOk(page, title);
  return downloading;
}

async function downloadedText(download: Download) {
  const file = path.join(
    os.tmpdir(),
    `lp-e2e-${randomBytes(4).toString('hex')}-${download.suggestedFilename()}`,
  );
  await download.saveAs(file);
  return { file, text: fs.readFileSync(file, 'utf8') };
}

interface HostListed {
  name: string;
  serverId: string;
  serverIdType: string;
  state: string;
  triad: boolean;
}

/** A request held by a route until the test has seen what the page shows meanwhile. */
function held() {
  let release = () => {};
  const wait = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { wait, release };
}

/** `npm run cli -- license verify FILE --keys-url URL`, as an operator would run it. */
function verifyWithCli(file: string, keysUrl: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['tools/src/cli.ts', 'license', 'verify', file, '--keys-url', keysUrl],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (c) => {
      output += c;
    });
    child.stderr.on('data', (c) => {
      output += c;
    });
    child.on('exit', (code) => resolve({ code, output }));
  });
}

test('adds a host by typing, activates on it, and the downloaded file is signed and verifies', async ({
  page,
  baseURL,
}) => {
  await openActivations(page);
  // A borrowable model, so that the Borrowable steps below change its line; three seats, to give two back.
  const [row] = await pickAvailable(page, ACME, 1, 3, (r) => r.ansysborrowable);
  const name = hostName('e2e-single');
  const id = hex12();

  // The dialog shows the spec's texts as the user types.
  await page.getByRole('button', { name: 'Add server' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New Host' });
  await dialog.getByRole('textbox', { name: 'Host name', exact: true }).fill('bad name!');
  await expect(dialog.getByText('Please remove spaces and special characters.').first()).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Host ID', exact: true }).fill('12345');
  await expect(
    dialog.getByText(
      'Invalid ETHERNET server id: 12345. It must be 12 hexadecimal (0-9, a-f, or A-F) digits.',
    ),
  ).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();
  await expectNoSeriousViolations(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  // A host was chosen before the new one is added: the save must leave it alone.
  await page.getByRole('combobox', { name: 'Server', exact: true }).click();
  await page.getByRole('option', { name: /^licsrv01 / }).click();
  await expect(page.getByRole('tab', { name: ACME })).toBeVisible();
  await addHostByTyping(page, name, id);

  // Counts are checked as typed; a valid one turns Generate into Save & Generate.
  const input = countInput(activeTabPanel(page), row.activationid);
  await input.fill(String(row.ansysavailable + 1));
  await expect(page.getByText(`Maximum is ${row.ansysavailable}.`)).toBeVisible();
  // An invalid count is no change: the label stays Generate, and it is disabled while the error shows.
  await expect(page.getByRole('button', { name: 'Generate', exact: true })).toBeDisabled();
  await expect(page.getByText('Correct the activated counts marked below to save.')).toBeVisible();
  await input.fill('3');
  await expect(page.getByText(`Maximum is ${row.ansysavailable}.`)).toBeHidden();
  await page.getByRole('button', { name: 'Save & Generate' }).click();

  // The confirmation lists the product and previews the signed file's new line.
  const confirm = page.getByRole('dialog', { name: 'Confirm activations' });
  await expect(confirm.getByRole('table', { name: `Products to activate for ${ACME}` })).toContainText(
    row.activationid,
  );
  await expect(confirm.getByText(`will be activated on Host ID: ${name} (${id})`)).toBeVisible();
  await expect(confirm.getByRole('table', { name: `Products to deactivate for ${ACME}` })).toHaveCount(0);
  await expect(confirm.getByRole('region', { name: `License file changes for ${ACME}` })).toContainText(
    '+ INCREMENT',
  );
  await expectNoSeriousViolations(page);
  const download = await confirmAndDownload(page);
  expect(download.suggestedFilename()).toBe(`license_${ACME}_${id}.lic`);
  const { file, text } = await downloadedText(download);
  expect(text).toContain(`SERVER ${name} ${id}`);
  expect(text).toContain(`customer:${ACME}`);
  const verified = await verifyWithCli(file, `${baseURL}/api/license-keys`);
  expect(verified.output).not.toMatch(/invalid|unsigned|unknown/i);
  expect(verified.code).toBe(0);

  // The server holds exactly three seats on the new host, which is now active and selected.
  const after = await tabRows(page, ACME, { serverId: id, serverIdType: 'ETHERNET' });
  expect(after.assigned.map((r) => [r.activationid, r.ansysactivated])).toEqual([[row.activationid, 3]]);
  await expect(page.getByText(`License file license_${ACME}_${id}.lic was generated.`)).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Server', exact: true })).toHaveValue(new RegExp(name));

  // Borrowable alone is a change (decision 048): Cancel undoes it; saved, the preview and the file both gain BORROW.
  expect(text).not.toMatch(/ BORROW/);
  const borrowable = page.getByRole('checkbox', { name: 'Borrowable' });
  await expect(borrowable).not.toBeChecked();
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeDisabled();
  await borrowable.check();
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeEnabled();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(borrowable).not.toBeChecked();
  await expect(page.getByRole('button', { name: 'Generate', exact: true })).toBeEnabled();
  await borrowable.check();
  await page.getByRole('button', { name: 'Save & Generate' }).click();
  const borrowConfirm = page.getByRole('dialog', { name: 'Confirm activations' });
  await expect(
    borrowConfirm.getByText(`Borrowable will be turned on for Host ID: ${name} (${id}).`),
  ).toBeVisible();
  const borrowPreview = borrowConfirm.getByRole('region', { name: `License file changes for ${ACME}` });
  await expect(borrowPreview).toContainText('+ INCREMENT');
  const previewed = ((await borrowPreview.locator('pre').textContent()) ?? '')
    .split('\n')
    .filter((l) => l.startsWith('+ '))
    .map((l) => l.slice(2));
  expect(previewed).toHaveLength(1);
  expect(previewed[0]).toMatch(/ BORROW$/);
  const borrowed = await downloadedText(await confirmAndDownload(page));
  // The file's line is the previewed one (its ISSUED and SIGN aside).
  const fileLine = borrowed.text
    .replace(/ \\\n\t/g, ' ')
    .split('\n')
    .find((l) => l.startsWith('INCREMENT '));
  expect(fileLine?.replace(/ ISSUED=\S+/, '').replace(/ SIGN=.*$/, '')).toBe(previewed[0]);
  await expect(page.getByText(`License file license_${ACME}_${id}.lic was generated.`)).toBeVisible();
  await expect(borrowable).toBeChecked();
  await expect(page.getByRole('button', { name: 'Generate', exact: true })).toBeEnabled();

  // An assigned count lowered gives part of the seats back (issue 21): two of three leave, one stays.
  const keepName = `Assigned count for ${row.activationid}`;
  const keep = activeTabPanel(page)
    .getByRole('textbox', { name: keepName, exact: true })
    .or(activeTabPanel(page).getByRole('spinbutton', { name: keepName, exact: true }));
  await expect(keep).toHaveValue('3');
  await keep.fill('4');
  await expect(page.getByText('Maximum is 3.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Generate', exact: true })).toBeDisabled();
  await keep.fill('1');
  await page.getByRole('button', { name: 'Save & Generate' }).click();
  const lowerConfirm = page.getByRole('dialog', { name: 'Confirm activations' });
  await expect(
    lowerConfirm
      .getByRole('table', { name: `Products to deactivate for ${ACME}` })
      .getByRole('row')
      .filter({ hasText: row.activationid })
      .getByRole('cell', { name: '2', exact: true }),
  ).toBeVisible();
  const lowered = await downloadedText(await confirmAndDownload(page));
  expect(lowered.text).toMatch(/^INCREMENT \S+ \S+ \S+ \S+ 1 \\$/m);
  const left = await tabRows(page, ACME, { serverId: id, serverIdType: 'ETHERNET' });
  expect(left.assigned.map((r) => [r.activationid, r.ansysactivated])).toEqual([[row.activationid, 1]]);
  await expect(keep).toHaveValue('1');
});

test('adds a triad by importing a file of its SERVER lines, keeping their port', async ({ page }) => {
  await openActivations(page);
  const [row] = await pickAvailable(page, ACME, 1);
  const names = [hostName('tri-a'), hostName('tri-b'), hostName('tri-c')];
  const ids = [hex12(), hex12(), hex12()];
  await page.getByRole('button', { name: 'Add server' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New Host' });
  // lmhostid output names no host: the empty name waits for typing, with no message before anything was typed.
  await dialog.getByTestId('host-file-input').setInputFiles({
    name: 'hostid.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from(
      `lmhostid - Copyright (c) 1989-2024 Flexera. All Rights Reserved.\nThe FlexNet host ID of this machine is "${ids[0]}"\n`,
    ),
  });
  await expect(dialog.getByRole('textbox', { name: 'Host ID', exact: true })).toHaveValue(ids[0]);
  await expect(dialog.getByRole('textbox', { name: 'Host name', exact: true })).toHaveValue('');
  await expect(dialog.getByText('Please remove spaces and special characters.')).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();
  await dialog.getByTestId('host-file-input').setInputFiles({
    name: 'triad.lic',
    mimeType: 'text/plain',
    buffer: Buffer.from(
      `${names.map((n, i) => `SERVER ${n} ${ids[i]} 27000`).join('\n')}\nVENDOR ansyslmd\n`,
    ),
  });
  await expect(dialog.getByRole('switch', { name: 'Triad' })).toBeChecked();
  for (const [i, n] of names.entries()) {
    await expect(dialog.getByRole('textbox', { name: `Host name ${i + 1}`, exact: true })).toHaveValue(n);
    await expect(dialog.getByRole('textbox', { name: `Host ID ${i + 1}`, exact: true })).toHaveValue(ids[i]);
  }
  // The SERVER lines' port is kept and shown; a port is checked as typed.
  const port = dialog.getByRole('textbox', { name: 'Port', exact: true });
  await expect(port).toHaveValue('27000');
  await port.fill('70000');
  await expect(dialog.getByText('Port must be a whole number from 1 to 65535.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();
  await port.fill('27000');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('pending-host')).toContainText(ids.join(','));
  await countInput(activeTabPanel(page), row.activationid).fill('1');
  await page.getByRole('button', { name: 'Save & Generate' }).click();
  const { text } = await downloadedText(await confirmAndDownload(page));
  for (const [i, n] of names.entries()) expect(text).toContain(`SERVER ${n} ${ids[i]} 27000`);
});

test('activates from two associated accounts onto one shared host and e-mails the merged file', async ({
  page,
  mailbox,
}) => {
  await openActivations(page);
  const [mine] = await pickAvailable(page, ACME, 1);
  const name = hostName('e2e-shared');
  const id = hex12();
  await addHostByTyping(page, name, id);

  const search = page.getByRole('combobox', { name: 'Associated Accounts' });
  await search.fill('Automotive');
  await page.getByRole('option', { name: new RegExp(AUTOMOTIVE_NAME) }).click();
  const tabs = page.getByRole('tab');
  await expect(tabs).toHaveCount(2);
  const other = ((await tabs.nth(1).textContent()) ?? '').replace(/[^\d]/g, '');
  const [theirs] = await pickAvailable(page, other, 1);

  await expectNoSeriousViolations(page);
  await countInput(activeTabPanel(page), theirs.activationid).fill('1');
  await page.getByRole('tab', { name: ACME }).click();
  await countInput(activeTabPanel(page), mine.activationid).fill('1');
  await page.getByRole('button', { name: 'Save & Email' }).click();

  const confirm = page.getByRole('dialog', { name: 'Confirm activations' });
  await expect(confirm.getByText(`Customer numbers ${ACME}, ${other} share this server`)).toBeVisible();
  await expect(confirm.getByRole('tab')).toHaveCount(2);
  const { text } = await downloadedText(await confirmAndDownload(page));
  expect(text).toContain(`customer:${ACME}`);
  expect(text).toContain(`customer:${other}`);
  expect(text.match(/^SERVER /gm)).toHaveLength(1);

  // The host serves both accounts now.
  const customers = await page.request.post('/api/fulfillments/customers', {
    headers: csrf,
    data: { customerNumber: ACME, hostId: id, hostIdType: 'ETHERNET' },
  });
  expect(((await customers.json()).data as { AccountID: string }[]).map((a) => a.AccountID).sort()).toEqual(
    [ACME, other].sort(),
  );
  // View activations lists the lines of every account on the shared host the user may see (decision 049).
  await page.getByRole('button', { name: 'View activations' }).click();
  const view = page.getByRole('dialog', { name: `The following products are activated on Host ID: ${id}` });
  await expect(view.getByRole('table', { name: `Activated products of ${ACME}` })).toContainText(
    mine.activationid,
  );
  await expect(view.getByRole('table', { name: `Activated products of ${other}` })).toContainText(
    theirs.activationid,
  );
  await expect(view.getByTestId('hidden-accounts')).toHaveCount(0);
  await view.getByRole('button', { name: 'Ok' }).click();
  await expect(view).toHaveCount(0);

  // The signed file reaches the support list through the real SMTP server, attached.
  expect(mailbox).not.toBeNull();
  await expect
    .poll(() => mailbox?.mail.find((m) => m.to.includes('cae-support@acme.example') && m.raw.includes(id)))
    .toBeTruthy();
  const mail = mailbox?.mail.find((m) => m.to.includes('cae-support@acme.example') && m.raw.includes(id));
  expect(mail?.to).toContain('admin@acme.example');
  expect(mail?.raw).toMatch(new RegExp(`filename="?license_${ACME}_${id}\\.lic`));

  // Settings › Emails: the e-mail's detail shows the attachment, to save, and the keys' address in full (issue 21).
  const fileName = `license_${ACME}_${id}.lic`;
  const listed = await page.request.post('/api/getemails', {
    headers: csrf,
    data: {
      customerNumber: ACME,
      filter: { condition: 'ALL', criteria: [{ method: 'CONTAINS', name: 'subject', value: fileName }] },
    },
  });
  expect(listed.status()).toBe(200);
  const [sent] = (await listed.json()).data as { id: number }[];
  await page.goto(`/emails/${sent.id}`);
  const attached = page.getByRole('region', { name: 'Attachments' });
  await expect(attached).toContainText(fileName);
  const saving = page.waitForEvent('download');
  await attached.getByRole('button', { name: `Download ${fileName}` }).click();
  const saved = await downloadedText(await saving);
  expect(saved.text).toContain(`SERVER ${name} ${id}`);
  const body = page.locator('iframe[title^="E-mail body"]').contentFrame();
  await expect(body.getByRole('link', { name: /\/api\/license-keys$/ })).toHaveAttribute(
    'href',
    /^https?:\/\/.+\/api\/license-keys$/,
  );

  // An account without a support list: Email stays off and says why, in the server's words.
  await page.goto('/activations');
  await expect(page.getByTestId('selected-customer')).toContainText(ACME);
  // The top bar's account box (the page has an Associated Accounts search too), as helpers.ts searchAccount uses it.
  const accountBox = page.getByRole('textbox', { name: 'Account', exact: true });
  await accountBox.click();
  await accountBox.fill('Marine');
  await page.getByRole('option', { name: /Acme Marine B\.V\./ }).click();
  await expect(page.getByTestId('selected-customer')).toContainText('Acme Marine B.V.');
  const emailButton = page.getByRole('button', { name: 'Email', exact: true });
  await expect(emailButton).toBeDisabled();
  await expect(emailButton).toHaveAccessibleDescription(
    'No support e-mail address is on file for this account.',
  );
});

test('a failure in the middle of the save stops it; clear and retry finishes it without doubling a seat', async ({
  page,
}) => {
  await openActivations(page);
  const rows = await pickAvailable(page, ACME, 2);
  const id = hex12();
  await addHostByTyping(page, hostName('e2e-retry'), id);
  for (const r of rows) await countInput(activeTabPanel(page), r.activationid).fill('1');

  // The license step fails (after the seats were created): the server answers 500 on every retry, with the
  // reference its error handler gives, which the banner appends (spec 002 §8).
  const reference = randomBytes(16).toString('hex');
  await page.route('**/api/fulfillments/licenses', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ status: 'FAILURE', err: `Internal server error (reference ${reference})` }),
    }),
  );
  await page.getByRole('button', { name: 'Save & Generate' }).click();
  await confirmOk(page);
  const banner = page
    .getByRole('alert')
    .filter({ hasText: 'Error creating license file. Please clear the error and retry.' });
  await expect(banner).toBeVisible();
  await expect(page.getByRole('button', { name: /Generate$/ })).toBeDisabled();
  const midway = await tabRows(page, ACME, { serverId: id, serverIdType: 'ETHERNET' });
  expect(midway.assigned.map((r) => r.ansysactivated)).toEqual([1, 1]);

  await page.unroute('**/api/fulfillments/licenses');
  const downloading = page.waitForEvent('download');
  await banner.getByRole('button', { name: 'Clear error and retry' }).click();
  expect((await downloading).suggestedFilename()).toBe(`license_${ACME}_${id}.lic`);
  const after = await tabRows(page, ACME, { serverId: id, serverIdType: 'ETHERNET' });
  expect(after.assigned.map((r) => [r.activationid, r.ansysactivated]).sort()).toEqual(
    rows.map((r) => [r.activationid, 1]).sort(),
  );
});

test('rehost from Manage Activations moves every seat to the new host; the source becomes inactive', async ({
  page,
}) => {
  await openActivations(page);
  const [row] = await pickAvailable(page, ACME, 1, 2);
  const sourceId = hex12();
  const sourceName = hostName('e2e-src');
  await addHostByTyping(page, sourceName, sourceId);
  await countInput(activeTabPanel(page), row.activationid).fill('2');
  await page.getByRole('button', { name: 'Save & Generate' }).click();
  await confirmAndDownload(page);

  // From Manage Activations: the host's Rehost button opens /activations?serverId={ids}&action=rehost.
  await page.goto('/activations-history');
  await page
    .getByRole('region', { name: 'Active Servers table', exact: true })
    .getByRole('button', { name: `Rehost ${sourceName}`, exact: true })
    .click();
  await expect(page).toHaveURL(/\/activations(\?|$)/);
  const dialog = page.getByRole('dialog', { name: `Rehost ${sourceName} (${sourceId}) to a new host` });
  await expect(dialog).toBeVisible();
  const targetId = hex12();
  const targetName = hostName('e2e-dst');
  const hostNameBox = dialog.getByRole('textbox', { name: 'Host name', exact: true });
  const hostIdBox = dialog.getByRole('textbox', { name: 'Host ID', exact: true });
  // The id of another active host is refused as the user types, naming the host that holds it (issue 21).
  const listed = await page.request.post('/api/fulfillments/servers', {
    headers: csrf,
    data: { customerNumber: ACME },
  });
  const holder = ((await listed.json()).data as HostListed[]).find(
    (s) => s.state === 'Active' && !s.triad && s.serverIdType === 'ETHERNET' && s.serverId !== sourceId,
  );
  if (!holder) throw new Error('the demo account has no other active single ETHERNET host');
  await hostNameBox.fill(targetName);
  await hostIdBox.fill(holder.serverId);
  await expect(dialog.getByTestId('host-problem')).toContainText(
    `Host identifier ${holder.name} (${holder.serverId}) is already in use.`,
  );
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();
  await hostNameBox.fill(holder.name);
  await expect(dialog.getByTestId('host-problem')).toHaveText(
    `Host ${holder.name} (${holder.serverId}) is active.`,
  );
  await hostNameBox.fill(targetName);
  await hostIdBox.fill(targetId);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('button', { name: 'Save & Generate' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm rehost' });
  await expect(confirm.getByRole('table', { name: `Products to deactivate for ${ACME}` })).toContainText(
    row.activationid,
  );
  await expect(confirm.getByRole('table', { name: `Products to activate for ${ACME}` })).toContainText(
    row.activationid,
  );
  // The preview says the lines move, instead of the same lines removed and added.
  const preview = confirm.getByRole('region', { name: `License file changes for ${ACME}` });
  await expect(preview).toContainText(
    `These lines move from host ${sourceName} (${sourceId}) to host ${targetName} (${targetId}):`,
  );
  await expect(preview).not.toContainText('- INCREMENT');
  await expect(preview).not.toContainText('+ INCREMENT');
  await expectNoSeriousViolations(page);
  // Each step's spinner text shows while its calls are held (spec 002 §2).
  const returnHeld = held();
  const createHeld = held();
  await page.route('**/api/fulfillments/return', async (route) => {
    await returnHeld.wait;
    await route.continue();
  });
  await page.route('**/api/fulfillments/create', async (route) => {
    await createHeld.wait;
    await route.continue();
  });
  const downloading = page.waitForEvent('download');
  await confirm.getByRole('button', { name: 'Ok' }).click();
  const spinner = page.getByTestId('spinner-panel');
  await expect(spinner).toContainText('Rehosting to/from...');
  returnHeld.release();
  await expect(spinner).toContainText('Creating fulfillments...');
  createHeld.release();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`license_${ACME}_${targetId}.lic`);
  await page.unroute('**/api/fulfillments/return');
  await page.unroute('**/api/fulfillments/create');
  // The success message is about this save: it goes once the user works on another host.
  const success = page.getByText(`License file license_${ACME}_${targetId}.lic was generated.`);
  await expect(success).toBeVisible();
  await page.getByRole('combobox', { name: 'Server', exact: true }).click();
  await page.getByRole('option', { name: new RegExp(`^${holder.name} `) }).click();
  await expect(success).toBeHidden();

  const servers = await page.request.post('/api/fulfillments/servers', {
    headers: csrf,
    data: { customerNumber: ACME },
  });
  const list = (await servers.json()).data as { serverId: string; state: string }[];
  expect(list.find((s) => s.serverId === sourceId)?.state).toBe('Inactive');
  expect(list.find((s) => s.serverId === targetId)?.state).toBe('Active');
  const moved = await tabRows(page, ACME, { serverId: targetId, serverIdType: 'ETHERNET' });
  expect(moved.assigned.map((r) => [r.activationid, r.ansysactivated])).toEqual([[row.activationid, 2]]);
});
