import { activationsApi } from '@lp/contract/activations/api';
import { messages } from '@lp/contract/common/errors';
import { licenseFilesApi } from '@lp/contract/license-files/api';
import { licenseServersApi } from '@lp/contract/license-servers/api';
import { parseLicenseText, tokenText } from '@lp/domain/license-file-parse';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { buildLease, buildProduct } from '../../../harness/factories.ts';
import { activationCalls } from '../../../test/activation-calls.ts';
import { acme, anonymous, apiTest, type Caller, Multipart, other } from '../../../test/api-fixture.ts';

import { unknownHost } from '../license-servers/service.ts';
import { VERIFY_MAX_BYTES } from './routes.ts';

const CN = acme.customerNumber;
const OTHER = other.customerNumber;

const HOST = 'b20000000001';
const ELSEWHERE = 'b20000000002';
const FOREIGN = 'b20000000003';
const NEW_HOST = 'b20000000009';

/** The file's INCREMENT lines read back, as the preview writes them: every token but SIGN and ISSUED. */
const displayLinesOf = (text: string) =>
  parseLicenseText(text)
    .features.map((f) =>
      f.tokens
        .filter((t) => t.key !== 'SIGN' && t.key !== 'ISSUED')
        .map(tokenText)
        .join(' '),
    )
    .sort();

type Change = {
  returns?: { id: number; count: number }[];
  creates?: { id: string; count: number }[];
};

/** The preview's body: these changes per customer, on HOST unless another (or, null, no) host is named. */
const previewBody = (changes: Record<string, Change>, serverId: string | null = HOST) => ({
  customerNumber: CN,
  ...(serverId === null ? {} : { serverId, serverIdType: 'ETHERNET' }),
  customers: Object.entries(changes).map(([customerNumber, c]) => ({
    customerNumber,
    returns: c.returns ?? [],
    creates: c.creates ?? [],
  })),
});

/** A license file to verify, uploaded as a browser sends it. */
const licenseForm = (content: string | Buffer) => new Multipart({}, { name: 'license.lic', content });

const test = apiTest.extend('calls', { scope: 'file' }, async ({ api, cast: { boss } }) => {
  /** The file's display lines, or none when nothing is activated on the host (the file is refused) or it is not saved. */
  const linesOnHost = async (serverId: string) => {
    const res = await api.call(boss, licenseFilesApi.download, {
      customerNumber: CN,
      serverId,
      serverIdType: 'ETHERNET',
    });
    // 409: nothing activated on it; 404: no such host yet (a plan that starts and ends empty).
    if (res.statusCode === 409 || res.statusCode === 404) return [];
    expect(res.statusCode, res.body).toBe(200);
    return displayLinesOf(res.body);
  };
  const admin = activationCalls(api, boss, CN);
  return {
    ...admin,
    /** The admin's calls on Acme's hosts, unchanged. */
    admin,
    /** `who` activates seats of their account on a Borrowable host. */
    create: (
      who: Caller,
      customerNumber: string,
      serverId: string,
      activations: { id: string; count: number }[],
    ) =>
      activationCalls(api, who, customerNumber).create({
        serverName: `h${serverId.slice(-2)}`,
        serverId,
        ansysborrowable: true,
        activations,
      }),
    /** The customer's live fulfillments on a host by activation id. */
    live: (who: Caller, customerNumber: string, serverId: string) =>
      activationCalls(api, who, customerNumber).live(serverId),
    /** The account's file of a host, as downloaded. */
    download: async (serverId = HOST) => {
      const res = await api.call(boss, licenseFilesApi.download, {
        customerNumber: CN,
        serverId,
        serverIdType: 'ETHERNET',
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.body;
    },
    linesOnHost,
    previewOk: async (who: Caller, changes: Record<string, Change>, serverId: string | null = HOST) =>
      (await api.ok(who, licenseFilesApi.preview, previewBody(changes, serverId))).data,
  };
});

// The cast comes first: its accounts own the leases and the hosts.
test.beforeAll(async ({ database, cast: { boss, outsider }, calls: { create } }) => {
  await buildProduct(database.db, 'PV-SOLVER', {
    name: 'Solver',
    family: 'Fluids',
    daemon: 'cfdlmd',
    featureName: 'cfd_solver',
  });
  await buildProduct(database.db, 'PV-MECH', {
    name: 'Mechanical',
    family: 'Structures',
    daemon: 'mechlmd',
    featureName: 'mech',
  });
  await buildLease(database.db, CN, 'PV-A', { partNumber: 'PV-SOLVER' });
  await buildLease(database.db, CN, 'PV-B', { partNumber: 'PV-MECH', licenseModel: 'Network Borrow' });
  await buildLease(database.db, CN, 'PV-C', { partNumber: 'PV-SOLVER', quantity: 20 });
  await buildLease(database.db, OTHER, 'PV-OTHER', { partNumber: 'PV-SOLVER' });
  await create(boss, CN, HOST, [
    { id: 'PV-A', count: 2 },
    { id: 'PV-B', count: 1 },
  ]);
  await create(boss, CN, ELSEWHERE, [{ id: 'PV-C', count: 1 }]);
  // The property's own entitlements: plenty of seats, a borrowable model on each daemon and a plain one.
  await buildLease(database.db, CN, 'PP-1', { partNumber: 'PV-SOLVER', quantity: 1000 });
  await buildLease(database.db, CN, 'PP-2', {
    partNumber: 'PV-SOLVER',
    quantity: 1000,
    licenseModel: 'Network Borrow',
  });
  await buildLease(database.db, CN, 'PP-3', {
    partNumber: 'PV-MECH',
    quantity: 1000,
    licenseModel: 'Network Borrow',
  });
  await create(outsider, OTHER, FOREIGN, [{ id: 'PV-OTHER', count: 1 }]);
});

describe('license-change preview (decision 032)', () => {
  test('shows the lines a create adds, with the same tokens the saved file then has', async ({
    cast: { boss },
    calls: { create, download, previewOk },
  }) => {
    const before = await download();
    const [result] = await previewOk(boss, { [CN]: { creates: [{ id: 'PV-C', count: 4 }] } });
    expect(result!.customerNumber).toBe(CN);
    expect(result!.removed).toEqual([]);
    expect(result!.added).toHaveLength(1);
    expect(result!.added[0]).toMatch(
      new RegExp(
        `^INCREMENT cfd_solver cfdlmd \\d{4}\\.\\d{4} \\d{2}-[a-z]{3}-\\d{4} 4 VENDOR_STRING=customer:${CN} START=`,
      ),
    );
    // Nothing was saved.
    expect(await download()).toBe(before);
    await create(boss, CN, HOST, [{ id: 'PV-C', count: 4 }]);
    const after = displayLinesOf(await download());
    expect(after.filter((line) => !displayLinesOf(before).includes(line))).toEqual(result!.added);
    // The borrowable model on a borrowable host carries BORROW in the preview as in the file.
    expect(after.find((line) => line.startsWith('INCREMENT mech '))).toMatch(/ BORROW$/);
  });

  test('shows a returned fulfillment as removed, and a changed count as its old line removed and new one added', async ({
    api,
    cast: { boss, reader },
    calls: { live, download, previewOk },
  }) => {
    const fulfillments = await live(boss, CN, HOST);
    const lines = displayLinesOf(await download());
    const lineOf = (feature: string, count: number) =>
      lines.find((l) => l.startsWith(`INCREMENT ${feature} `) && l.split(' ')[5] === String(count));
    const [gone] = await previewOk(boss, {
      [CN]: { returns: [{ id: fulfillments['PV-B']!.id, count: -1 }] },
    });
    expect(gone).toEqual({ customerNumber: CN, added: [], removed: [lineOf('mech', 1)] });
    const [fewer] = await previewOk(reader, {
      [CN]: { returns: [{ id: fulfillments['PV-A']!.id, count: -1 }] },
    });
    expect(fewer!.removed).toEqual([lineOf('cfd_solver', 2)]);
    expect(fewer!.added).toEqual([lineOf('cfd_solver', 2)!.replace(' 2 VENDOR_STRING', ' 1 VENDOR_STRING')]);
    // A create on an entitlement already on the host adds to its fulfillment: one line, the counts summed.
    const [more] = await previewOk(boss, { [CN]: { creates: [{ id: 'PV-A', count: 3 }] } });
    expect(more!.removed).toEqual([lineOf('cfd_solver', 2)]);
    expect(more!.added).toEqual([lineOf('cfd_solver', 2)!.replace(' 2 VENDOR_STRING', ' 5 VENDOR_STRING')]);
    const over = await api.refused(
      boss,
      licenseFilesApi.preview,
      previewBody({ [CN]: { returns: [{ id: fulfillments['PV-A']!.id, count: -3 }] } }),
      409,
    );
    expect(over.err).toBe(messages.returnOverActivated);
  });

  test('previews a host not saved yet: nothing before, the creates after; bad ids answer the spec text', async ({
    api,
    cast: { boss },
    calls: { previewOk },
  }) => {
    const [fresh] = await previewOk(boss, { [CN]: { creates: [{ id: 'PV-B', count: 2 }] } }, NEW_HOST);
    expect(fresh!.removed).toEqual([]);
    // A new host is added without BORROW until its owner allows it.
    expect(fresh!.added).toEqual([
      expect.stringMatching(
        new RegExp(`^INCREMENT mech mechlmd .* 2 VENDOR_STRING=customer:${CN} START=\\S+$`),
      ),
    ]);
    const [nameless] = await previewOk(boss, { [CN]: { creates: [{ id: 'PV-B', count: 2 }] } }, null);
    expect(nameless).toEqual(fresh);
    // Another account's host is previewed like a new one: nothing of theirs shows.
    const [theirs] = await previewOk(boss, { [CN]: { creates: [{ id: 'PV-B', count: 2 }] } }, FOREIGN);
    expect(theirs).toEqual(fresh);
    const bad = await api.refused(
      boss,
      licenseFilesApi.preview,
      previewBody({ [CN]: { creates: [{ id: 'PV-B', count: 1 }] } }, '12345'),
      400,
    );
    expect(bad.err).toBe(
      'Invalid ETHERNET server id: 12345. It must be 12 hexadecimal (0-9, a-f, or A-F) digits.',
    );
  });

  test('answers 403 for an account the user may not see and 404 for a fulfillment or activation not theirs', async ({
    api,
    cast: { boss, outsider },
    calls: { live },
  }) => {
    const preview = licenseFilesApi.preview;
    const foreign = await api.refused(
      outsider,
      preview,
      previewBody({ [CN]: { creates: [{ id: 'PV-A', count: 1 }] } }),
      403,
    );
    expect(JSON.stringify(foreign)).not.toContain('cfd_solver');
    await api.refused(
      boss,
      preview,
      previewBody({ [OTHER]: { creates: [{ id: 'PV-OTHER', count: 1 }] } }),
      403,
    );
    const theirs = (await live(outsider, OTHER, FOREIGN))['PV-OTHER']!.id;
    const elsewhere = (await live(boss, CN, ELSEWHERE))['PV-C']!.id;
    for (const id of [theirs, elsewhere, 999_999]) {
      const refusal = await api.refused(
        boss,
        preview,
        previewBody({ [CN]: { returns: [{ id, count: -1 }] } }),
        404,
      );
      expect(refusal.err, String(id)).toBe(unknownHost);
    }
    await api.refused(
      boss,
      preview,
      previewBody({ [CN]: { returns: [{ id: elsewhere, count: -1 }] } }, NEW_HOST),
      404,
    );
    const unknown = await api.refused(
      boss,
      preview,
      previewBody({ [CN]: { creates: [{ id: 'PV-OTHER', count: 1 }] } }),
      404,
    );
    expect(unknown.err).toBe(messages.unknownActivation('PV-OTHER'));
    await api.refused(boss, preview, previewBody({}), 400);
  });
});

/** `lines` without one of each of `removed`, plus `added` (multisets, as the preview reads them). */
function applied(lines: string[], change: { added: string[]; removed: string[] }) {
  const left = [...lines];
  for (const line of change.removed) {
    const at = left.indexOf(line);
    expect(at, `removed line not in the file: ${line}`).toBeGreaterThanOrEqual(0);
    left.splice(at, 1);
  }
  return [...left, ...change.added].sort();
}

describe('the preview is the saved file (decision 048)', () => {
  const ids = ['PP-1', 'PP-2', 'PP-3'];
  const seats = fc.array(fc.nat({ max: 3 }), { minLength: 3, maxLength: 3 });
  let hostNumber = 0x100;

  test('for random plans of returns, creates and Borrowable, what the preview adds and removes is what the file gains and loses', async ({
    api,
    cast: { boss },
    calls: { admin, live, linesOnHost },
  }) => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          start: seats,
          startBorrow: fc.boolean(),
          returned: seats,
          added: seats,
          borrowable: fc.boolean(),
        }),
        async ({ start, startBorrow, returned, added, borrowable }) => {
          hostNumber += 1;
          const serverId = `b3${hostNumber.toString(16).padStart(10, '0')}`;
          const host = { serverName: 'pp', serverId, serverIdType: 'ETHERNET' };
          const initial = ids.flatMap((id, i) => (start[i] ? [{ id, count: start[i] }] : []));
          if (initial.length) {
            await admin.create({ ...host, ansysborrowable: startBorrow, activations: initial });
          }
          const onHost = initial.length ? await live(boss, CN, serverId) : {};
          // Part or all of a fulfillment's seats go back.
          const returns = ids.flatMap((id, i) =>
            onHost[id] && returned[i]
              ? [{ id: onHost[id].id, count: -Math.min(returned[i], onHost[id].count) }]
              : [],
          );
          const creates = ids.flatMap((id, i) => (added[i] ? [{ id, count: added[i] }] : []));
          const before = await linesOnHost(serverId);
          const [change] = (
            await api.ok(boss, licenseFilesApi.preview, {
              customerNumber: CN,
              ...host,
              ansysborrowable: borrowable,
              customers: [{ customerNumber: CN, returns, creates }],
            })
          ).data;

          // The save the page runs: returns, creates carrying Borrowable, or Borrowable saved on its own.
          if (returns.length) {
            await admin.giveBack({ activations: returns });
          }
          if (creates.length) {
            await admin.create({ ...host, ansysborrowable: borrowable, activations: creates });
          } else if (initial.length) {
            await api.ok(boss, licenseServersApi.settings, {
              customerNumber: CN,
              hostId: serverId,
              hostIdType: 'ETHERNET',
              ansysborrowable: borrowable,
            });
          }
          expect(await linesOnHost(serverId)).toEqual(applied(before, change!));
        },
      ),
      { numRuns: 12 },
    );
  });

  test('a Borrowable change alone is saved for a user who may edit the host: every borrowable line gains BORROW, as the preview says', async ({
    api,
    cast: { boss, reader, outsider },
    calls: { create, giveBack, servers, live, linesOnHost },
  }) => {
    const serverId = 'b30000000fff';
    await create(boss, CN, serverId, [
      { id: 'PP-1', count: 2 },
      { id: 'PP-2', count: 1 },
    ]);
    const settings = (ansysborrowable: boolean) => ({
      customerNumber: CN,
      hostId: serverId,
      hostIdType: 'ETHERNET',
      ansysborrowable,
    });
    await api.ok(boss, licenseServersApi.settings, settings(false));
    const plain = await linesOnHost(serverId);
    expect(plain.some((line) => line.endsWith(' BORROW'))).toBe(false);
    const [change] = (
      await api.ok(boss, licenseFilesApi.preview, {
        customerNumber: CN,
        serverId,
        serverIdType: 'ETHERNET',
        ansysborrowable: true,
        customers: [{ customerNumber: CN, returns: [], creates: [] }],
      })
    ).data;
    expect(change!.removed).toHaveLength(1);
    expect(change!.added).toEqual([`${change!.removed[0]} BORROW`]);
    // A view-only user and an outsider change nothing.
    await api.refused(reader, licenseServersApi.settings, settings(true), 403);
    await api.refused(outsider, licenseServersApi.settings, settings(true), 403);
    expect(await linesOnHost(serverId)).toEqual(plain);
    await api.ok(boss, licenseServersApi.settings, settings(true));
    expect(await linesOnHost(serverId)).toEqual(applied(plain, change!));
    // Part of a fulfillment goes back (issue 21): the rest stays on the host, in the file.
    const held = (await live(boss, CN, serverId))['PP-1']!;
    await giveBack({ activations: [{ id: held.id, count: -1 }] });
    expect((await live(boss, CN, serverId))['PP-1']).toEqual({ id: held.id, count: 1 });
    const over = await api.refused(
      boss,
      activationsApi.return,
      { customerNumber: CN, activations: [{ id: held.id, count: -2 }] },
      409,
    );
    expect(over.err).toBe(messages.returnOverActivated);
    const hosts = await servers();
    expect(hosts.find((h) => h.serverId === serverId)!.ansysborrowable).toBe(true);
  });
});

describe('verifying a license file', () => {
  test('finds every line of a downloaded file valid, with its customer and the SERVER host ids', async ({
    api,
    cast: { boss, outsider },
    calls: { download },
  }) => {
    const { data } = await api.upload(boss, licenseFilesApi.verify, licenseForm(await download()));
    expect(data.customers).toEqual([CN]);
    expect(data.hostIds).toEqual([HOST]);
    expect(data.lines.length).toBeGreaterThan(1);
    for (const line of data.lines)
      expect(line).toMatchObject({
        verdict: 'valid',
        customerNumber: CN,
        keyId: expect.stringMatching(/^[0-9a-f]{8}$/),
      });
    // Any signed-in user may check a file: it reads nothing but the file.
    const theirs = await api.upload(outsider, licenseFilesApi.verify, licenseForm(await download()));
    expect(theirs.data.lines[0]!.verdict).toBe('valid');
  });

  test('finds the one edited line invalid and the others still valid', async ({
    api,
    cast: { boss },
    calls: { download },
  }) => {
    const text = await download();
    const edited = text.replace(/^(INCREMENT mech mechlmd \S+ \S+) 1 /m, '$1 9 ');
    expect(edited).not.toBe(text);
    const { lines } = (await api.upload(boss, licenseFilesApi.verify, licenseForm(edited))).data;
    const mech = lines.find((l) => l.feature === 'mech');
    expect(mech).toMatchObject({ verdict: 'invalid', keyword: 'INCREMENT' });
    expect(mech!.line).toBe(edited.split('\n').findIndex((l) => l.startsWith('INCREMENT mech')) + 1);
    expect(lines.filter((l) => l.verdict === 'valid')).toHaveLength(lines.length - 1);
  });

  test('refuses what is not a license file, too large a file, no file and a body that is not multipart', async ({
    api,
    cast: { boss },
    calls: { download },
  }) => {
    const verify = licenseFilesApi.verify;
    const notLicense = await api.refused(
      boss,
      verify,
      licenseForm('Dear customer,\nthis is a letter.\n'),
      400,
    );
    expect(notLicense).toMatchObject({
      status: 'FAILURE',
      err: 'The file is not a license file: line 1: "Dear" is not a license file line (SERVER, VENDOR, INCREMENT…).',
    });
    const noFeatures = await api.refused(
      boss,
      verify,
      licenseForm('SERVER h01 b20000000001 1055\nVENDOR cfdlmd\n'),
      400,
    );
    expect(noFeatures.err).toBe(messages.licenseFileNoFeatures);
    const large = await api.refused(boss, verify, licenseForm(Buffer.alloc(VERIFY_MAX_BYTES + 1, '#')), 413);
    expect(large).toMatchObject({ status: 'FAILURE', code: 'PAYLOAD_TOO_LARGE' });
    const json = await api.refused(boss, verify, { file: 'INCREMENT x y 1 permanent 1' }, 415);
    expect(json).toMatchObject({ status: 'FAILURE', code: 'UNSUPPORTED_MEDIA_TYPE' });
    // A form without any part.
    const empty = await api.refused(boss, verify, new Multipart({}), 400);
    expect(empty.err).toBe(messages.uploadNeedsFile);
    expect((await api.call(anonymous, verify, licenseForm(await download()))).statusCode).toBe(401);
  });
});
