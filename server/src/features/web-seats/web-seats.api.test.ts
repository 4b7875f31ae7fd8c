import { messages } from '@lp/contract/common/errors';
import { webSeatsApi } from '@lp/contract/web-seats/api';
import { contactRoles } from '@lp/domain/policy';
import { describe, expect } from 'vitest';
import {
  addContact,
  buildAccount,
  buildEntitlement,
  buildProduct,
  dayFromToday,
} from '../../../harness/factories.ts';
import { acme, anonymous, apiTest, type Caller, other } from '../../../test/api-fixture.ts';
import { auditEntriesOf } from '../../../test/audit-entries.ts';
import { unknownPool } from './service.ts';

/* Issue 24 (decision 071), first server slice: the account's web seat pools and their lease policy. */

const CN = acme.customerNumber;
const OTHER = other.customerNumber;
/** An account under export control (status Pending), whose admin is Acme's boss. */
const BLOCKED = '4100024';
const NAMED = 'WEB-NU';
const SHARED = 'WEB-SW';
const LEASE = 'WEB-LEASE';
const LATER = 'WEB-LATER';

const defaults = { heartbeatWindowSeconds: 300, idleTimeoutSeconds: 900, sessionsPerUser: 1 };
const custom = { heartbeatWindowSeconds: 120, idleTimeoutSeconds: 1800, sessionsPerUser: 3 };
type Policy = typeof defaults;

const test = apiTest.extend('calls', { scope: 'file' }, async ({ api, database }) => ({
  pools: (who: Caller, customerNumber: string = CN) => api.call(who, webSeatsApi.pools, { customerNumber }),
  save: (who: Caller, policy: Policy, partNumber = NAMED, customerNumber: string = CN) =>
    api.call(who, webSeatsApi.savePolicy, { customerNumber, partNumber, policy }),
  entries: () => auditEntriesOf(database.db, 'web-seats.'),
}));

// The cast first: its accounts own the lines.
test.beforeAll(async ({ database: { db }, cast: _accounts }) => {
  await buildProduct(db, NAMED, { name: 'Fluids Premium - Named User', featureName: 'web_fluids' });
  await buildProduct(db, SHARED, { name: 'Mechanical - Shared Web', featureName: 'web_mech' });
  await buildProduct(db, LEASE, { name: 'Solver', featureName: 'solver' });
  await buildProduct(db, LATER, { name: 'Optics - Named User', featureName: 'web_optics' });
  const line = (
    customerNumber: string,
    partNumber: string,
    licenseModel: string,
    quantity: number,
    startDate: string,
    endDate: string | null,
    state = 'Deployed',
  ) =>
    buildEntitlement(db, customerNumber, {
      kind: 'SSL',
      partNumber,
      licenseModel,
      quantity,
      startDate,
      endDate,
      state,
    });
  // Named: two live lines (10 + 5 seats); an expired line and one not Deployed do not count.
  await line(CN, NAMED, 'Named User', 10, dayFromToday(-100), dayFromToday(200));
  await line(CN, NAMED, 'Named User', 5, dayFromToday(-10), dayFromToday(400));
  await line(CN, NAMED, 'Named User', 7, dayFromToday(-400), dayFromToday(-1));
  await line(CN, NAMED, 'Named User', 9, dayFromToday(-10), dayFromToday(100), 'Inactive');
  // Shared: a permanent Shared Web line and a ConcurrentProduct line (the same group): 6 seats, no end.
  await line(CN, SHARED, 'Shared Web', 4, dayFromToday(-30), null);
  await line(CN, SHARED, 'ConcurrentProduct', 2, dayFromToday(-5), dayFromToday(100));
  // A Lease line is no web seat; a Named User line that starts tomorrow is no pool yet.
  await line(CN, LEASE, 'Lease', 10, dayFromToday(-100), dayFromToday(200));
  await line(CN, LATER, 'Named User', 3, dayFromToday(1), dayFromToday(300));
  // Another account's pool of the same product is not Acme's.
  await line(OTHER, NAMED, 'Named User', 50, dayFromToday(-100), dayFromToday(200));
  await buildAccount(db, { customerNumber: BLOCKED, name: 'Blocked', exportControlStatus: 'Pending' });
  await addContact(db, BLOCKED, 'boss@acme.example', contactRoles.admin);
  await line(BLOCKED, NAMED, 'Named User', 2, dayFromToday(-100), dayFromToday(200));
});

const namedPool = (policy: Policy) => ({
  partNumber: NAMED,
  productName: 'Fluids Premium - Named User',
  kind: 'named',
  seats: 15,
  start: dayFromToday(-100),
  end: dayFromToday(400),
  policy,
});
const sharedPool = (policy: Policy) => ({
  partNumber: SHARED,
  productName: 'Mechanical - Shared Web',
  kind: 'shared',
  seats: 6,
  start: dayFromToday(-30),
  end: null,
  policy,
});

/** A pool as listed: with its use (nothing assigned, leased or transferred in this file). */
const listed = <P extends { seats: number }>(pool: P) => ({
  ...pool,
  assigned: 0,
  inUse: 0,
  peak30Days: 0,
  transfers: {
    used: 0,
    allowance: pool.seats,
    text: `Transfers in the last 30 days: 0 of ${pool.seats}`,
  },
  groupTerms: [],
});

describe('listWebPools', () => {
  test("answers the account's Named User and Shared Web pools with seats, term and the default policy", async ({
    cast: { reader, support },
    calls: { pools },
  }) => {
    for (const who of [reader, support]) {
      const res = await pools(who);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        status: 'SUCCESS',
        data: [listed(namedPool(defaults)), listed(sharedPool(defaults))],
      });
    }
  });

  test('refuses anonymous (401), an outsider as an unknown account (403), an export-denied account and a malformed body', async ({
    api,
    cast: { boss, outsider, busops },
    calls: { pools },
  }) => {
    expect((await pools(anonymous)).statusCode).toBe(401);
    const outsiders = await api.refused(outsider, webSeatsApi.pools, { customerNumber: CN }, 403);
    const unknown = await api.refused(outsider, webSeatsApi.pools, { customerNumber: '9999999' }, 403);
    expect(outsiders).toEqual(unknown);
    expect(outsiders.err).toBe(messages.noPermissionPage);
    for (const who of [boss, busops])
      expect((await api.refused(who, webSeatsApi.pools, { customerNumber: BLOCKED }, 403)).err).toBe(
        messages.exportDenied,
      );
    const bad = await api.refused(boss, webSeatsApi.pools, { customerNumber: CN, extra: 1 }, 400);
    expect(bad.err).toMatch(/^Invalid request: /);
    const missing = await api.refused(boss, webSeatsApi.pools, {}, 400);
    expect(missing.err).toMatch(/^Invalid request: customerNumber/);
  });
});

describe('saveWebPoolPolicy', () => {
  test('saves a policy that reads back with the pool, audited with the policy before and after', async ({
    api,
    cast: { boss, busops, reader },
    calls: { save, pools, entries },
  }) => {
    const saved = await save(boss, custom);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ status: 'SUCCESS', data: namedPool(custom) });
    expect((await pools(reader)).json().data).toEqual([
      listed(namedPool(custom)),
      listed(sharedPool(defaults)),
    ]);
    const rows = await entries();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      customerNumber: CN,
      actorKind: 'user',
      actorName: 'boss@acme.example',
      action: 'web-seats.pool.policy.changed',
      objectType: 'web-pool',
      objectId: NAMED,
      before: defaults,
      after: custom,
    });
    // Business operations may save too; saving the policy a pool has changes nothing and records nothing.
    await api.ok(busops, webSeatsApi.savePolicy, {
      customerNumber: CN,
      partNumber: SHARED,
      policy: defaults,
    });
    expect(await entries()).toHaveLength(1);
    expect((await pools(reader)).json().data).toEqual([
      listed(namedPool(custom)),
      listed(sharedPool(defaults)),
    ]);
  });

  test('refuses view-only users, outsiders and anonymous callers, and changes nothing', async ({
    api,
    cast: { reader, outsider, support },
    calls: { save, pools, entries },
  }) => {
    const before = (await pools(reader)).json().data;
    const marks = (await entries()).length;
    expect((await save(anonymous, defaults)).statusCode).toBe(401);
    for (const who of [reader, support]) {
      const refused = await api.refused(
        who,
        webSeatsApi.savePolicy,
        { customerNumber: CN, partNumber: NAMED, policy: { ...defaults, sessionsPerUser: 5 } },
        403,
      );
      expect(refused.err).toBe(messages.noPermission);
    }
    const outsiders = await api.refused(
      outsider,
      webSeatsApi.savePolicy,
      { customerNumber: CN, partNumber: NAMED, policy: defaults },
      403,
    );
    expect(outsiders.err).toBe(messages.noPermissionPage);
    expect((await pools(reader)).json().data).toEqual(before);
    expect(await entries()).toHaveLength(marks);
  });

  test('refuses an export-denied account as its reads are refused', async ({ api, cast: { boss } }) => {
    const refused = await api.refused(
      boss,
      webSeatsApi.savePolicy,
      { customerNumber: BLOCKED, partNumber: NAMED, policy: custom },
      403,
    );
    expect(refused.err).toBe(messages.exportDenied);
  });

  test.for([
    ['a Lease product', LEASE],
    ['a product whose lines start tomorrow', LATER],
    ['an unknown part number', 'NO-SUCH-PART'],
  ])('answers 404 for %s', async ([, partNumber], { api, cast: { boss } }) => {
    const refused = await api.refused(
      boss,
      webSeatsApi.savePolicy,
      { customerNumber: CN, partNumber, policy: custom },
      404,
    );
    expect(refused).toMatchObject({ status: 'FAILURE', err: unknownPool });
  });

  test.for([
    ['heartbeatWindowSeconds', 59, 'The heartbeat window (seconds) must be a whole number from 60 to 3600.'],
    [
      'heartbeatWindowSeconds',
      3601,
      'The heartbeat window (seconds) must be a whole number from 60 to 3600.',
    ],
    ['idleTimeoutSeconds', 86_401, 'The idle timeout (seconds) must be a whole number from 60 to 86400.'],
    ['sessionsPerUser', 0, 'The sessions per user must be a whole number from 1 to 10.'],
    ['sessionsPerUser', 1.5, 'The sessions per user must be a whole number from 1 to 10.'],
    ['sessionsPerUser', '2', 'The sessions per user must be a whole number from 1 to 10.'],
  ] as const)(
    'answers 400 for %s %s in the envelope',
    async ([field, value, text], { api, cast: { boss } }) => {
      const refused = await api.refused(
        boss,
        webSeatsApi.savePolicy,
        { customerNumber: CN, partNumber: SHARED, policy: { ...defaults, [field]: value } },
        400,
      );
      expect(refused).toMatchObject({ status: 'FAILURE', err: `Invalid request: policy.${field}: ${text}` });
    },
  );

  test('answers 400 for a malformed body: a missing policy, a missing number, an unknown field', async ({
    api,
    cast: { boss },
  }) => {
    const refused = (body: unknown) => api.refused(boss, webSeatsApi.savePolicy, body, 400);
    expect((await refused({ customerNumber: CN, partNumber: SHARED })).err).toMatch(
      /^Invalid request: policy/,
    );
    const { sessionsPerUser: _, ...partial } = defaults;
    expect((await refused({ customerNumber: CN, partNumber: SHARED, policy: partial })).err).toMatch(
      /^Invalid request: policy\.sessionsPerUser/,
    );
    expect(
      (await refused({ customerNumber: CN, partNumber: SHARED, policy: { ...defaults, seats: 99 } })).err,
    ).toMatch(/^Invalid request: policy/);
  });
});
