import { messages } from '@lp/contract/common/errors';
import { webSessionsApi } from '@lp/contract/web-sessions/api';
import { denialReasons } from '@lp/domain/web-seats';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { buildAccount, buildEntitlement, buildProduct, dayFromToday } from '../../../harness/factories.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { acme, anonymous, apiOf, apiTest, bearer, type Caller, other } from '../../../test/api-fixture.ts';
import { auditEntriesOf } from '../../../test/audit-entries.ts';
import {
  addGroupTerms,
  addWebGroup,
  addWebPerson,
  ageLease,
  assignNamedSeat,
  leaseRow,
} from '../../../test/web-leases.ts';
import { queryRows } from '../../db/database.ts';
import { runDueJobs } from '../../platform/jobs.ts';
import { endUserLeases, noSuchLease, partNotCovered, webSessionsSweepJob } from './service.ts';
import { issueWebCredential, revokeWebCredential } from './web-credentials.ts';

/* Issue 24 (decision 071): the web-license product API (/web/v1), its sweep and the portal's open sessions. */

const CN = acme.customerNumber;
const NAMED = 'WS-NU';
const SHARED = 'WS-SW';
const RACE = 'WS-RACE';
const NONE = 'WS-NONE';
const ELSEWHERE = 'WS-ELSE';
const mail = (who: string) => `${who}@acme.example`;
/** An account under export control, with a pool of the product. */
const BLOCKED = '4100024';

type CheckoutBody = { email: string; partNumber: string; customerNumber?: string; operationKey?: string };

const test = apiTest
  .extend('web', { scope: 'file' }, async ({ database, cast: _accounts }) => {
    const { db } = database;
    await buildProduct(db, NAMED, { name: 'Fluids Premium - Named User', featureName: 'ws_fluids' });
    await buildProduct(db, SHARED, { name: 'Mechanical - Shared Web', featureName: 'ws_mech' });
    await buildProduct(db, RACE, { name: 'Optics - Shared Web', featureName: 'ws_optics' });
    await buildProduct(db, NONE, { name: 'Acoustics - Shared Web', featureName: 'ws_acoustics' });
    await buildProduct(db, ELSEWHERE, { name: 'Thermal - Shared Web', featureName: 'ws_thermal' });
    const line = (partNumber: string, licenseModel: string, quantity: number) =>
      buildEntitlement(db, CN, {
        kind: 'SSL',
        partNumber,
        licenseModel,
        quantity,
        startDate: dayFromToday(-10),
        endDate: dayFromToday(300),
      });
    await line(NAMED, 'Named User', 3);
    await line(SHARED, 'Shared Web', 4);
    await line(RACE, 'Shared Web', 5);
    await line(ELSEWHERE, 'Shared Web', 5);
    await buildAccount(db, { customerNumber: BLOCKED, name: 'Blocked', exportControlStatus: 'Denied' });
    await addWebPerson(db, BLOCKED, mail('ann'));
    const issue = async (partNumbers: string[]) =>
      issueWebCredential(db, { product: 'Fluids Online', partNumbers, createdBy: 'test' });
    const product = await issue([NAMED, SHARED, RACE, NONE]);
    const elsewhere = await issue([ELSEWHERE]);
    const revoked = await issue([NAMED, SHARED]);
    await revokeWebCredential(db, revoked.id);
    const people: Record<string, string> = {};
    for (const [who, state] of [
      ['ann', 'active'],
      ['bea', 'active'],
      ['ivy', 'invited'],
      ['sue', 'suspended'],
      ['rex', 'removed'],
      ['free1', 'active'],
      ['free2', 'active'],
      ['eng1', 'active'],
      ['eng2', 'active'],
      ['ops1', 'active'],
      ['ops2', 'active'],
    ] as const)
      people[who] = await addWebPerson(db, CN, mail(who), state);
    for (const who of ['ann', 'ivy', 'sue']) await assignNamedSeat(db, CN, NAMED, people[who]);
    const eng = await addWebGroup(db, CN, 'Engineering', [people.eng1, people.eng2]);
    const ops = await addWebGroup(db, CN, 'Operations', [people.ops1, people.ops2]);
    // Four seats: two kept for Engineering (at most three), Operations at most one of the free two.
    await addGroupTerms(db, CN, SHARED, eng, 2, 3);
    await addGroupTerms(db, CN, SHARED, ops, 0, 1);
    return {
      people,
      groups: { eng, ops },
      product: bearer(product.token),
      elsewhere: bearer(elsewhere.token),
      revoked: bearer(revoked.token),
    };
  })
  .extend('calls', { scope: 'file' }, async ({ api, database, web }) => ({
    checkout: (body: CheckoutBody, who: Caller = web.product) =>
      api.call(who, webSessionsApi.checkout, { customerNumber: CN, ...body }),
    /** A checkout that must be granted: its lease. */
    grant: async (body: CheckoutBody) => {
      const { data } = await api.ok(web.product, webSessionsApi.checkout, { customerNumber: CN, ...body });
      if (!data.granted) throw new Error(`expected a grant, got ${data.reason}`);
      return data;
    },
    /** A checkout that must be refused: its reason. */
    denial: async (body: CheckoutBody) => {
      const { data } = await api.ok(web.product, webSessionsApi.checkout, { customerNumber: CN, ...body });
      if (data.granted) throw new Error('expected a denial, got a lease');
      expect(data.message).toBe(denialReasons[data.reason]);
      return data.reason;
    },
    heartbeat: (leaseId: string, active?: boolean, who: Caller = web.product) =>
      api.call(who, webSessionsApi.heartbeat, { leaseId, ...(active !== undefined && { active }) }),
    release: (leaseId: string, who: Caller = web.product) =>
      api.call(who, webSessionsApi.release, { leaseId }),
    /** Ends every open lease of the account, so a test starts from free pools. */
    freeAll: () =>
      database.db.execute(
        sql`update web_leases set outcome = 'released', ended_at = now() where outcome = 'open'`,
      ),
    denials: async () =>
      queryRows<{ email: string; part_number: string; denial_reason: string }>(
        database.db,
        sql`select email, part_number, denial_reason from web_leases where outcome = 'denied' order by id`,
      ),
  }));

describe('checkout', () => {
  test('grants a named seat to its holder, marks an invited person active, and answers the heartbeat terms', async ({
    database: { db },
    web: { people },
    calls: { grant, freeAll },
  }) => {
    await freeAll();
    const before = Date.now();
    const lease = await grant({ email: mail('ivy'), partNumber: NAMED });
    expect(lease).toMatchObject({ granted: true, seat: 'named', heartbeatSeconds: 100 });
    expect(lease.group).toBeUndefined();
    // The default heartbeat window is 5 minutes.
    const expires = Date.parse(lease.expiresAt) - before;
    expect(expires).toBeGreaterThanOrEqual(299_000);
    expect(expires).toBeLessThan(310_000);
    const [ivy] = await queryRows<{ state: string; last_seen_at: string | null }>(
      db,
      sql`select state, last_seen_at from web_users where id = ${people.ivy}`,
    );
    expect(ivy.state).toBe('active');
    expect(ivy.last_seen_at).not.toBeNull();
    // The e-mail is the directory's whatever its case.
    expect((await grant({ email: 'ANN@Acme.Example', partNumber: NAMED })).seat).toBe('named');
  });

  test('refuses with each reason, records every refusal, and names it in words', async ({
    calls: { grant, denial, denials, freeAll },
  }) => {
    await freeAll();
    const before = (await denials()).length;
    expect(await denial({ email: mail('nobody'), partNumber: NAMED })).toBe('unknown-user');
    expect(await denial({ email: mail('sue'), partNumber: NAMED })).toBe('suspended-user');
    expect(await denial({ email: mail('rex'), partNumber: SHARED })).toBe('suspended-user');
    expect(await denial({ email: mail('ann'), partNumber: NONE })).toBe('no-pool');
    expect(await denial({ email: mail('bea'), partNumber: NAMED })).toBe('no-seat-assigned');
    await grant({ email: mail('ann'), partNumber: NAMED });
    expect(await denial({ email: mail('ann'), partNumber: NAMED })).toBe('session-limit');
    // The shared pool: four seats, two kept for Engineering, Operations capped at one.
    expect((await grant({ email: mail('ops1'), partNumber: SHARED })).group?.name).toBe('Operations');
    expect(await denial({ email: mail('ops2'), partNumber: SHARED })).toBe('group-cap');
    expect((await grant({ email: mail('free1'), partNumber: SHARED })).group).toBeUndefined();
    // Two in use and two kept for Engineering: nobody else gets one, Engineering's members do.
    expect(await denial({ email: mail('free2'), partNumber: SHARED })).toBe('pool-full');
    expect((await grant({ email: mail('eng1'), partNumber: SHARED })).group?.name).toBe('Engineering');
    expect((await grant({ email: mail('eng2'), partNumber: SHARED })).group?.name).toBe('Engineering');
    expect(await denial({ email: mail('bea'), partNumber: SHARED })).toBe('pool-full');
    expect((await denials()).slice(before)).toEqual([
      { email: mail('nobody'), part_number: NAMED, denial_reason: 'unknown-user' },
      { email: mail('sue'), part_number: NAMED, denial_reason: 'suspended-user' },
      { email: mail('rex'), part_number: SHARED, denial_reason: 'suspended-user' },
      { email: mail('ann'), part_number: NONE, denial_reason: 'no-pool' },
      { email: mail('bea'), part_number: NAMED, denial_reason: 'no-seat-assigned' },
      { email: mail('ann'), part_number: NAMED, denial_reason: 'session-limit' },
      { email: mail('ops2'), part_number: SHARED, denial_reason: 'group-cap' },
      { email: mail('free2'), part_number: SHARED, denial_reason: 'pool-full' },
      { email: mail('bea'), part_number: SHARED, denial_reason: 'pool-full' },
    ]);
  });

  test('refuses a credential not issued for the part number (403), a revoked or missing one (401), an unknown account (404), an export-blocked one (403)', async ({
    api,
    web: { elsewhere, revoked },
    calls: { checkout },
  }) => {
    const asked = { email: mail('ann'), partNumber: NAMED };
    const notCovered = await checkout(asked, elsewhere);
    expect(notCovered.statusCode).toBe(403);
    expect(notCovered.json()).toMatchObject({ status: 'FAILURE', err: partNotCovered(NAMED) });
    for (const who of [revoked, anonymous, bearer('web_not-a-credential')]) {
      const res = await checkout(asked, who);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ status: 'FAILURE', err: messages.notSignedIn });
    }
    await api.refused(
      elsewhere,
      webSessionsApi.checkout,
      { ...asked, customerNumber: other.customerNumber },
      403,
    );
    const unknown = await checkout({ ...asked, customerNumber: '9999999' });
    expect(unknown.statusCode).toBe(404);
    const blocked = await checkout({ ...asked, customerNumber: BLOCKED });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toMatchObject({ status: 'FAILURE', err: messages.exportDenied });
  });

  test.for([
    ['no e-mail', { customerNumber: CN, partNumber: NAMED }],
    ['a malformed e-mail', { customerNumber: CN, partNumber: NAMED, email: 'not-an-address' }],
    ['an empty part number', { customerNumber: CN, partNumber: ' ', email: mail('ann') }],
    ['a field it does not take', { customerNumber: CN, partNumber: NAMED, email: mail('ann'), seats: 2 }],
    [
      'a malformed operation key',
      { customerNumber: CN, partNumber: NAMED, email: mail('ann'), operationKey: 'x' },
    ],
    ['no body', undefined],
  ] as const)('refuses %s with 400', async ([, body], { api, web: { product } }) => {
    const refusal = await api.refused(product, webSessionsApi.checkout, body, 400);
    expect(refusal.status).toBe('FAILURE');
  });

  test('a retry with the same operation key is applied once; the key with another request is refused', async ({
    api,
    database: { db },
    web: { product },
    calls: { checkout, freeAll },
  }) => {
    await freeAll();
    const body = { email: mail('free1'), partNumber: SHARED, operationKey: 'checkout-retry-0001' };
    const first = await checkout(body);
    const again = await checkout(body);
    expect(first.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const [{ n }] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from web_leases where email = ${mail('free1')} and outcome = 'open'`,
    );
    expect(n).toBe(1);
    await api.refused(
      product,
      webSessionsApi.checkout,
      { ...body, customerNumber: CN, email: mail('free2') },
      409,
    );
  });
});

describe('heartbeat and release', () => {
  test('a heartbeat moves the deadline and records activity; release ends the lease, twice alike; then 410', async ({
    database: { db },
    calls: { grant, heartbeat, release, freeAll },
  }) => {
    await freeAll();
    const lease = await grant({ email: mail('ann'), partNumber: NAMED });
    await ageLease(db, lease.leaseId, 120, 120);
    const idle = await heartbeat(lease.leaseId);
    expect(idle.statusCode).toBe(200);
    expect(idle.json().data.leaseId).toBe(lease.leaseId);
    expect(Date.parse(idle.json().data.expiresAt)).toBeGreaterThanOrEqual(Date.parse(lease.expiresAt));
    const before = (await leaseRow(db, lease.leaseId)).last_activity_at;
    expect((await heartbeat(lease.leaseId, true)).statusCode).toBe(200);
    expect(new Date((await leaseRow(db, lease.leaseId)).last_activity_at!).getTime()).toBeGreaterThan(
      new Date(before!).getTime(),
    );

    const released = await release(lease.leaseId);
    expect(released.statusCode).toBe(200);
    expect(released.json().data).toMatchObject({ leaseId: lease.leaseId, outcome: 'released' });
    const twice = await release(lease.leaseId);
    expect(twice.json()).toEqual(released.json());
    const late = await heartbeat(lease.leaseId);
    expect(late.statusCode).toBe(410);
    expect(late.json()).toMatchObject({ status: 'FAILURE', code: 'GONE' });
    expect(late.json().err).toContain('released');
  });

  test('a heartbeat after the window ends the lease heartbeat-lost and answers 410', async ({
    database: { db },
    calls: { grant, heartbeat, freeAll },
  }) => {
    await freeAll();
    const lease = await grant({ email: mail('ann'), partNumber: NAMED });
    await ageLease(db, lease.leaseId, 301, 0);
    const res = await heartbeat(lease.leaseId, true);
    expect(res.statusCode).toBe(410);
    expect(res.json().err).toContain('heartbeat-lost');
    expect((await leaseRow(db, lease.leaseId)).outcome).toBe('heartbeat-lost');
  });

  test('a heartbeat past the idle timeout ends the lease idle-timeout, unless it reports activity', async ({
    database: { db },
    calls: { grant, heartbeat, freeAll },
  }) => {
    await freeAll();
    const idle = await grant({ email: mail('ann'), partNumber: NAMED });
    const busy = await grant({ email: mail('eng1'), partNumber: SHARED });
    for (const lease of [idle, busy]) await ageLease(db, lease.leaseId, 60, 901);
    const res = await heartbeat(idle.leaseId, false);
    expect(res.statusCode).toBe(410);
    expect(res.json().err).toContain('idle-timeout');
    expect((await heartbeat(busy.leaseId, true)).statusCode).toBe(200);
    expect((await leaseRow(db, busy.leaseId)).outcome).toBe('open');
  });

  test("another product's credential, an unknown lease and bad bodies learn nothing", async ({
    api,
    web: { elsewhere, product },
    calls: { grant, heartbeat, release, freeAll },
  }) => {
    await freeAll();
    const lease = await grant({ email: mail('ann'), partNumber: NAMED });
    for (const res of [
      await heartbeat(lease.leaseId, undefined, elsewhere),
      await release(lease.leaseId, elsewhere),
      await heartbeat('00000000-0000-4000-8000-000000000000'),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ status: 'FAILURE', err: noSuchLease });
    }
    await api.refused(product, webSessionsApi.heartbeat, { leaseId: 'nope' }, 400);
    await api.refused(product, webSessionsApi.heartbeat, { leaseId: lease.leaseId, active: 'yes' }, 400);
    await api.refused(product, webSessionsApi.release, {}, 400);
    expect((await heartbeat(lease.leaseId)).statusCode).toBe(200);
  });
});

describe('the sweep', () => {
  test('ends leases past the heartbeat window heartbeat-lost and idle ones idle-timeout; fresh ones stay', async ({
    appContext,
    database: { db },
    calls: { grant, freeAll },
  }) => {
    await freeAll();
    const lost = await grant({ email: mail('ann'), partNumber: NAMED });
    const idle = await grant({ email: mail('free1'), partNumber: SHARED });
    const fresh = await grant({ email: mail('eng1'), partNumber: SHARED });
    await ageLease(db, lost.leaseId, 301, 301);
    await ageLease(db, idle.leaseId, 60, 901);
    await ageLease(db, fresh.leaseId, 200, 800);
    const ran = await runDueJobs(appContext, [webSessionsSweepJob], { node: 'sweeper' });
    expect(ran).toEqual([{ name: 'web-sessions-sweep', runKey: expect.any(String), ok: true }]);
    expect((await leaseRow(db, lost.leaseId)).outcome).toBe('heartbeat-lost');
    expect((await leaseRow(db, idle.leaseId)).outcome).toBe('idle-timeout');
    expect((await leaseRow(db, fresh.leaseId)).outcome).toBe('open');
    // The minute's run is claimed once across nodes.
    expect(await runDueJobs(appContext, [webSessionsSweepJob], { node: 'other-node' })).toEqual([]);
    // Its runs of more than a day ago are pruned as it goes; today's stay.
    await db.execute(
      sql`insert into job_runs (name, run_key, node, claimed_at, lease_until, finished_at)
        values ('web-sessions-sweep', '2020-01-01T00:00', 'old', now() - interval '2 days', now() - interval '2 days',
          now() - interval '2 days')`,
    );
    await runDueJobs(appContext, [webSessionsSweepJob], {
      node: 'sweeper',
      now: () => new Date(Date.now() + 60_000),
    });
    const runs = await queryRows<{ run_key: string }>(
      db,
      sql`select run_key from job_runs where name = 'web-sessions-sweep' order by run_key`,
    );
    expect(runs.map((r) => r.run_key)).toEqual([ran[0].runKey, expect.any(String)]);
  });
});

describe('endUserLeases (web-directory suspends or removes people)', () => {
  test("ends the people's open leases in the caller's transaction and answers how many", async ({
    database: { db },
    web: { people },
    calls: { grant, freeAll },
  }) => {
    await freeAll();
    const a = await grant({ email: mail('ann'), partNumber: NAMED });
    const b = await grant({ email: mail('eng1'), partNumber: SHARED });
    const n = await db.transaction((tx) => endUserLeases(tx, CN, [people.ann, people.bea], 'user-removed'));
    expect(n).toBe(1);
    expect((await leaseRow(db, a.leaseId)).outcome).toBe('user-removed');
    expect((await leaseRow(db, b.leaseId)).outcome).toBe('open');
    expect(await db.transaction((tx) => endUserLeases(tx, CN, [], 'user-removed'))).toBe(0);
  });
});

describe('open sessions in the portal', () => {
  test('readers list them; administrators release one (audited once); view-only and outsiders are refused', async ({
    api,
    database: { db },
    cast: { boss, reader, outsider, busops },
    web: { people, groups },
    calls: { grant, heartbeat, freeAll },
  }) => {
    await freeAll();
    const a = await grant({ email: mail('ann'), partNumber: NAMED });
    const e = await grant({ email: mail('eng1'), partNumber: SHARED });
    const all = await api.ok(reader, webSessionsApi.listOpen, { customerNumber: CN });
    expect(all.data.map((s) => s.leaseId).sort()).toEqual([a.leaseId, e.leaseId].sort());
    const eng = await api.ok(reader, webSessionsApi.listOpen, { customerNumber: CN, userId: people.eng1 });
    expect(eng.data).toEqual([
      expect.objectContaining({
        leaseId: e.leaseId,
        email: mail('eng1'),
        name: 'eng1',
        partNumber: SHARED,
        seat: 'shared',
        group: { id: groups.eng, name: 'Engineering' },
        product: 'Fluids Online',
      }),
    ]);
    await api.refused(outsider, webSessionsApi.listOpen, { customerNumber: CN }, 403);

    const release = { customerNumber: CN, leaseId: a.leaseId };
    await api.refused(reader, webSessionsApi.adminRelease, release, 403);
    await api.refused(outsider, webSessionsApi.adminRelease, release, 403);
    await api.refused(
      outsider,
      webSessionsApi.adminRelease,
      { customerNumber: other.customerNumber, leaseId: a.leaseId },
      404,
    );
    const before = (await auditEntriesOf(db, 'web-sessions.lease.')).length;
    const done = await api.ok(boss, webSessionsApi.adminRelease, release);
    expect(done.data).toMatchObject({ leaseId: a.leaseId, outcome: 'admin-released' });
    expect((await api.ok(busops, webSessionsApi.adminRelease, release)).data).toEqual(done.data);
    const entries = (await auditEntriesOf(db, 'web-sessions.lease.')).slice(before);
    expect(entries).toEqual([
      expect.objectContaining({
        customerNumber: CN,
        action: 'web-sessions.lease.released',
        objectType: 'web-lease',
        objectId: a.leaseId,
        actorId: boss.userId,
      }),
    ]);
    expect((await heartbeat(a.leaseId)).statusCode).toBe(410);
    await api.refused(boss, webSessionsApi.adminRelease, { ...release, leaseId: crypto.randomUUID() }, 404);
  });
});

describe('races', () => {
  test('forty checkouts at once for the five seats of a pool, on two nodes: exactly five granted', async ({
    app,
    appEnv,
    database,
    web: { product },
    onTestFinished,
  }) => {
    const { db } = database;
    const nodeB = await createTestApp(database, appEnv);
    onTestFinished(() => nodeB.close());
    const nodes = [apiOf(app), apiOf(nodeB)];
    const racers = Array.from({ length: 40 }, (_, i) => mail(`racer${i}`));
    for (const email of racers) await addWebPerson(db, CN, email);
    const answers = await Promise.all(
      racers.map((email, i) =>
        nodes[i % 2].ok(product, webSessionsApi.checkout, { customerNumber: CN, email, partNumber: RACE }),
      ),
    );
    const granted = answers.filter((a) => a.data.granted);
    expect(granted).toHaveLength(5);
    expect(answers.filter((a) => !a.data.granted && a.data.reason === 'pool-full')).toHaveLength(35);
    const [{ n }] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from web_leases where part_number = ${RACE} and outcome = 'open'`,
    );
    expect(n).toBe(5);
  });

  test('twenty keyed checkouts for five seats, each sent to both nodes at once: each key applied once, answered alike', async ({
    app,
    appEnv,
    database,
    web: { product },
    calls: { freeAll },
    onTestFinished,
  }) => {
    const { db } = database;
    await freeAll();
    const nodeB = await createTestApp(database, appEnv);
    onTestFinished(() => nodeB.close());
    const nodes = [apiOf(app), apiOf(nodeB)];
    const racers = Array.from({ length: 20 }, (_, i) => mail(`keyed${i}`));
    for (const email of racers) await addWebPerson(db, CN, email);
    const pairs = await Promise.all(
      racers.map((email, i) => {
        const body = {
          customerNumber: CN,
          email,
          partNumber: RACE,
          operationKey: `race-key-${String(i).padStart(4, '0')}`,
        };
        return Promise.all(nodes.map((node) => node.ok(product, webSessionsApi.checkout, body)));
      }),
    );
    for (const [first, retry] of pairs) expect(retry.data).toEqual(first.data);
    const granted = pairs.filter(([first]) => first.data.granted);
    expect(granted).toHaveLength(5);
    const rows = await queryRows<{ outcome: string; n: number }>(
      db,
      sql`select outcome, count(*)::int as n from web_leases
        where part_number = ${RACE} and email like 'keyed%' group by outcome order by outcome`,
    );
    expect(rows).toEqual([
      { outcome: 'denied', n: 15 },
      { outcome: 'open', n: 5 },
    ]);
  });
});
