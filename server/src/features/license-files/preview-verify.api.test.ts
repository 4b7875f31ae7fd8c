import { messages } from '@lp/contract/common/errors';
import { parseLicenseText, tokenText } from '@lp/domain/license-file-parse';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLease } from '../../../harness/factories.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { buildAccountFixture } from '../../../test/account-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import { products } from '../../db/schema.ts';
import { unknownHost } from '../license-servers/service.ts';
import { VERIFY_MAX_BYTES } from './routes.ts';

const CN = '4600001';
const OTHER = '4600002';
type Headers = Record<string, string>;

let database: TestDatabase;
let app: FastifyInstance;
let boss: Headers;
let reader: Headers;
let outsider: Headers;

const post = (url: string, headers: Headers | undefined, payload: object) =>
  app.inject({ method: 'POST', url, headers, payload });

const HOST = 'b20000000001';
const ELSEWHERE = 'b20000000002';
const FOREIGN = 'b20000000003';
const NEW_HOST = 'b20000000009';

async function create(
  headers: Headers,
  customerNumber: string,
  serverId: string,
  activations: { id: string; count: number }[],
) {
  const res = await post('/api/fulfillments/create', headers, {
    customerNumber,
    serverName: `h${serverId.slice(-2)}`,
    serverId,
    serverIdType: 'ETHERNET',
    ansysborrowable: true,
    activations,
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** The customer's live fulfillments on a host by activation id. */
async function live(headers: Headers, customerNumber: string, serverId: string) {
  const res = await post('/api/fulfillments/entitlements', headers, {
    customerNumber,
    serverId,
    serverIdType: 'ETHERNET',
  });
  expect(res.statusCode, res.body).toBe(200);
  return Object.fromEntries(
    (
      res.json().data as {
        activationid: string;
        fulfillments: { FulfillmentID: number; FulfillCount: number }[];
      }[]
    ).map((r) => [
      r.activationid,
      { id: r.fulfillments[0].FulfillmentID, count: r.fulfillments[0].FulfillCount },
    ]),
  );
}

async function download(serverId = HOST) {
  const res = await post('/api/fulfillments/download', boss, {
    customerNumber: CN,
    serverId,
    serverIdType: 'ETHERNET',
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
}

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

const preview = (headers: Headers, changes: Record<string, Change>, serverId: string | null = HOST) =>
  post('/api/fulfillments/license/preview', headers, {
    customerNumber: CN,
    ...(serverId === null ? {} : { serverId, serverIdType: 'ETHERNET' }),
    customers: Object.entries(changes).map(([customerNumber, c]) => ({
      customerNumber,
      returns: c.returns ?? [],
      creates: c.creates ?? [],
    })),
  });

async function previewOk(headers: Headers, changes: Record<string, Change>, serverId: string | null = HOST) {
  const res = await preview(headers, changes, serverId);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { customerNumber: string; added: string[]; removed: string[] }[];
}

/** A multipart/form-data body with one file, as a browser sends it. */
function form(content: string | Buffer) {
  const boundary = '----lp-verify-boundary';
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="license.lic"\r\nContent-Type: text/plain\r\n\r\n`,
      ),
      Buffer.isBuffer(content) ? content : Buffer.from(content),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  };
}

const verify = (headers: Headers | undefined, body: { contentType: string; payload: Buffer }) =>
  app.inject({
    method: 'POST',
    url: '/api/license-files/verify',
    headers: { ...headers, 'content-type': body.contentType },
    payload: body.payload,
  });

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  await database.db.insert(products).values([
    {
      partNumber: 'PV-SOLVER',
      name: 'Solver',
      family: 'Fluids',
      daemon: 'cfdlmd',
      featureName: 'cfd_solver',
    },
    {
      partNumber: 'PV-MECH',
      name: 'Mechanical',
      family: 'Structures',
      daemon: 'mechlmd',
      featureName: 'mech',
    },
  ]);
  ({ boss, reader, outsider } = await buildAccountFixture(database.db, CN, OTHER));
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

afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('license-change preview (decision 032)', () => {
  it('shows the lines a create adds, with the same tokens the saved file then has', async () => {
    const before = await download();
    const [result] = await previewOk(boss, { [CN]: { creates: [{ id: 'PV-C', count: 4 }] } });
    expect(result.customerNumber).toBe(CN);
    expect(result.removed).toEqual([]);
    expect(result.added).toHaveLength(1);
    expect(result.added[0]).toMatch(
      new RegExp(
        `^INCREMENT cfd_solver cfdlmd \\d{4}\\.\\d{4} \\d{2}-[a-z]{3}-\\d{4} 4 VENDOR_STRING=customer:${CN} START=`,
      ),
    );
    // Nothing was saved.
    expect(await download()).toBe(before);
    await create(boss, CN, HOST, [{ id: 'PV-C', count: 4 }]);
    const after = displayLinesOf(await download());
    expect(after.filter((line) => !displayLinesOf(before).includes(line))).toEqual(result.added);
    // The borrowable model on a borrowable host carries BORROW in the preview as in the file.
    expect(after.find((line) => line.startsWith('INCREMENT mech '))).toMatch(/ BORROW$/);
  });

  it('shows a returned fulfillment as removed, and a changed count as its old line removed and new one added', async () => {
    const fulfillments = await live(boss, CN, HOST);
    const lines = displayLinesOf(await download());
    const lineOf = (feature: string, count: number) =>
      lines.find((l) => l.startsWith(`INCREMENT ${feature} `) && l.split(' ')[5] === String(count));
    const [gone] = await previewOk(boss, { [CN]: { returns: [{ id: fulfillments['PV-B'].id, count: -1 }] } });
    expect(gone).toEqual({ customerNumber: CN, added: [], removed: [lineOf('mech', 1)] });
    const [fewer] = await previewOk(reader, {
      [CN]: { returns: [{ id: fulfillments['PV-A'].id, count: -1 }] },
    });
    expect(fewer.removed).toEqual([lineOf('cfd_solver', 2)]);
    expect(fewer.added).toEqual([lineOf('cfd_solver', 2)!.replace(' 2 VENDOR_STRING', ' 1 VENDOR_STRING')]);
    // A create on an entitlement already on the host adds to its fulfillment: one line, the counts summed.
    const [more] = await previewOk(boss, { [CN]: { creates: [{ id: 'PV-A', count: 3 }] } });
    expect(more.removed).toEqual([lineOf('cfd_solver', 2)]);
    expect(more.added).toEqual([lineOf('cfd_solver', 2)!.replace(' 2 VENDOR_STRING', ' 5 VENDOR_STRING')]);
    const over = await preview(boss, { [CN]: { returns: [{ id: fulfillments['PV-A'].id, count: -3 }] } });
    expect(over.statusCode).toBe(409);
    expect(over.json().err).toBe(messages.returnOverActivated);
  });

  it('previews a host not saved yet: nothing before, the creates after; bad ids answer the spec text', async () => {
    const [fresh] = await previewOk(boss, { [CN]: { creates: [{ id: 'PV-B', count: 2 }] } }, NEW_HOST);
    expect(fresh.removed).toEqual([]);
    // A new host is added without BORROW until its owner allows it.
    expect(fresh.added).toEqual([
      expect.stringMatching(/^INCREMENT mech mechlmd .* 2 VENDOR_STRING=customer:4600001 START=\S+$/),
    ]);
    const [nameless] = await previewOk(boss, { [CN]: { creates: [{ id: 'PV-B', count: 2 }] } }, null);
    expect(nameless).toEqual(fresh);
    // Another account's host is previewed like a new one: nothing of theirs shows.
    const [theirs] = await previewOk(boss, { [CN]: { creates: [{ id: 'PV-B', count: 2 }] } }, FOREIGN);
    expect(theirs).toEqual(fresh);
    const bad = await preview(boss, { [CN]: { creates: [{ id: 'PV-B', count: 1 }] } }, '12345');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().err).toBe(
      'Invalid ETHERNET server id: 12345. It must be 12 hexadecimal (0-9, a-f, or A-F) digits.',
    );
  });

  it('answers 403 for an account the user may not see and 404 for a fulfillment or activation not theirs', async () => {
    const foreign = await preview(outsider, { [CN]: { creates: [{ id: 'PV-A', count: 1 }] } });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.body).not.toContain('cfd_solver');
    const sneaked = await preview(boss, { [OTHER]: { creates: [{ id: 'PV-OTHER', count: 1 }] } });
    expect(sneaked.statusCode).toBe(403);
    const theirs = (await live(outsider, OTHER, FOREIGN))['PV-OTHER'].id;
    const elsewhere = (await live(boss, CN, ELSEWHERE))['PV-C'].id;
    for (const id of [theirs, elsewhere, 999_999]) {
      const res = await preview(boss, { [CN]: { returns: [{ id, count: -1 }] } });
      expect(res.statusCode, String(id)).toBe(404);
      expect(res.json().err).toBe(unknownHost);
    }
    const onNew = await preview(boss, { [CN]: { returns: [{ id: elsewhere, count: -1 }] } }, NEW_HOST);
    expect(onNew.statusCode).toBe(404);
    const unknown = await preview(boss, { [CN]: { creates: [{ id: 'PV-OTHER', count: 1 }] } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().err).toBe(messages.unknownActivation('PV-OTHER'));
    expect((await preview(boss, {})).statusCode).toBe(400);
  });
});

/** The file's display lines, or none when nothing is activated on the host (the file is refused) or it is not saved. */
async function linesOnHost(serverId: string) {
  const res = await post('/api/fulfillments/download', boss, {
    customerNumber: CN,
    serverId,
    serverIdType: 'ETHERNET',
  });
  // 409: nothing activated on it; 404: no such host yet (a plan that starts and ends empty).
  if (res.statusCode === 409 || res.statusCode === 404) return [];
  expect(res.statusCode, res.body).toBe(200);
  return displayLinesOf(res.body);
}

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

  it('for random plans of returns, creates and Borrowable, what the preview adds and removes is what the file gains and loses', async () => {
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
            const made = await post('/api/fulfillments/create', boss, {
              customerNumber: CN,
              ...host,
              ansysborrowable: startBorrow,
              activations: initial,
            });
            expect(made.statusCode, made.body).toBe(200);
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
          const res = await post('/api/fulfillments/license/preview', boss, {
            customerNumber: CN,
            ...host,
            ansysborrowable: borrowable,
            customers: [{ customerNumber: CN, returns, creates }],
          });
          expect(res.statusCode, res.body).toBe(200);
          const [change] = res.json().data as { added: string[]; removed: string[] }[];

          // The save the page runs: returns, creates carrying Borrowable, or Borrowable saved on its own.
          if (returns.length) {
            const back = await post('/api/fulfillments/return', boss, {
              customerNumber: CN,
              activations: returns,
            });
            expect(back.statusCode, back.body).toBe(200);
          }
          if (creates.length) {
            const made = await post('/api/fulfillments/create', boss, {
              customerNumber: CN,
              ...host,
              ansysborrowable: borrowable,
              activations: creates,
            });
            expect(made.statusCode, made.body).toBe(200);
          } else if (initial.length) {
            const saved = await post('/api/fulfillments/servers/settings', boss, {
              customerNumber: CN,
              hostId: serverId,
              hostIdType: 'ETHERNET',
              ansysborrowable: borrowable,
            });
            expect(saved.statusCode, saved.body).toBe(200);
          }
          expect(await linesOnHost(serverId)).toEqual(applied(before, change));
        },
      ),
      { numRuns: 12 },
    );
  });

  it('a Borrowable change alone is saved for a user who may edit the host: every borrowable line gains BORROW, as the preview says', async () => {
    const serverId = 'b30000000fff';
    await create(boss, CN, serverId, [
      { id: 'PP-1', count: 2 },
      { id: 'PP-2', count: 1 },
    ]);
    const settings = (headers: Headers, ansysborrowable: boolean) =>
      post('/api/fulfillments/servers/settings', headers, {
        customerNumber: CN,
        hostId: serverId,
        hostIdType: 'ETHERNET',
        ansysborrowable,
      });
    expect((await settings(boss, false)).statusCode).toBe(200);
    const plain = await linesOnHost(serverId);
    expect(plain.some((line) => line.endsWith(' BORROW'))).toBe(false);
    const [change] = (
      await post('/api/fulfillments/license/preview', boss, {
        customerNumber: CN,
        serverId,
        serverIdType: 'ETHERNET',
        ansysborrowable: true,
        customers: [{ customerNumber: CN, returns: [], creates: [] }],
      })
    ).json().data;
    expect(change.removed).toHaveLength(1);
    expect(change.added).toEqual([`${change.removed[0]} BORROW`]);
    // A view-only user and an outsider change nothing.
    expect((await settings(reader, true)).statusCode).toBe(403);
    expect((await settings(outsider, true)).statusCode).toBe(403);
    expect(await linesOnHost(serverId)).toEqual(plain);
    expect((await settings(boss, true)).statusCode).toBe(200);
    expect(await linesOnHost(serverId)).toEqual(applied(plain, change));
    // Part of a fulfillment goes back (issue 21): the rest stays on the host, in the file.
    const held = (await live(boss, CN, serverId))['PP-1'];
    const part = await post('/api/fulfillments/return', boss, {
      customerNumber: CN,
      activations: [{ id: held.id, count: -1 }],
    });
    expect(part.statusCode, part.body).toBe(200);
    expect((await live(boss, CN, serverId))['PP-1']).toEqual({ id: held.id, count: 1 });
    const over = await post('/api/fulfillments/return', boss, {
      customerNumber: CN,
      activations: [{ id: held.id, count: -2 }],
    });
    expect(over.statusCode).toBe(409);
    expect(over.json().err).toBe(messages.returnOverActivated);
    const hosts = (await post('/api/fulfillments/servers', boss, { customerNumber: CN })).json().data;
    expect(hosts.find((h: { serverId: string }) => h.serverId === serverId).ansysborrowable).toBe(true);
  });
});

describe('verifying a license file', () => {
  it('finds every line of a downloaded file valid, with its customer and the SERVER host ids', async () => {
    const res = await verify(boss, form(await download()));
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json();
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
    expect((await verify(outsider, form(await download()))).json().data.lines[0].verdict).toBe('valid');
  });

  it('finds the one edited line invalid and the others still valid', async () => {
    const text = await download();
    const edited = text.replace(/^(INCREMENT mech mechlmd \S+ \S+) 1 /m, '$1 9 ');
    expect(edited).not.toBe(text);
    const { lines } = (await verify(boss, form(edited))).json().data;
    const mech = lines.find((l: { feature: string }) => l.feature === 'mech');
    expect(mech).toMatchObject({ verdict: 'invalid', keyword: 'INCREMENT' });
    expect(mech.line).toBe(edited.split('\n').findIndex((l) => l.startsWith('INCREMENT mech')) + 1);
    expect(lines.filter((l: { verdict: string }) => l.verdict === 'valid')).toHaveLength(lines.length - 1);
  });

  it('refuses what is not a license file, too large a file, no file and a body that is not multipart', async () => {
    const notLicense = await verify(boss, form('Dear customer,\nthis is a letter.\n'));
    expect(notLicense.statusCode).toBe(400);
    expect(notLicense.json()).toMatchObject({
      status: 'FAILURE',
      err: 'The file is not a license file: line 1: "Dear" is not a license file line (SERVER, VENDOR, INCREMENT…).',
    });
    const noFeatures = await verify(boss, form('SERVER h01 b20000000001 1055\nVENDOR cfdlmd\n'));
    expect(noFeatures.statusCode).toBe(400);
    expect(noFeatures.json().err).toBe(messages.licenseFileNoFeatures);
    const large = await verify(boss, form(Buffer.alloc(VERIFY_MAX_BYTES + 1, '#')));
    expect(large.statusCode).toBe(413);
    expect(large.json()).toMatchObject({ status: 'FAILURE', code: 'PAYLOAD_TOO_LARGE' });
    const json = await post('/api/license-files/verify', boss, { file: 'INCREMENT x y 1 permanent 1' });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toMatchObject({ status: 'FAILURE', code: 'UNSUPPORTED_MEDIA_TYPE' });
    const boundary = '----lp-empty';
    const empty = await verify(boss, {
      contentType: `multipart/form-data; boundary=${boundary}`,
      payload: Buffer.from(`--${boundary}--\r\n`),
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().err).toBe(messages.uploadNeedsFile);
    expect((await verify(undefined, form(await download()))).statusCode).toBe(401);
  });
});
