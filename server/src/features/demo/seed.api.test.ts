import { randomBytes } from 'node:crypto';
import { routeFeatureDescription, routeFeatures } from '@lp/domain/feature-flags';
import { contactRoles } from '@lp/domain/policy';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, vi } from 'vitest';
import { apiTest } from '../../../test/api-fixture.ts';
import type { Db } from '../../db/database.ts';
import { loadConfig } from '../../platform/config.ts';
import { unseal } from '../../platform/secret-box.ts';
import { verifyPassword } from '../auth/service.ts';
import { reconcile } from '../ledger/service.ts';
import { clearDemoWorld, rowsOf, seedDemoWorld } from './seed.ts';
import { seedIfEmpty } from './seed-on-start.ts';
import { WEB_DEMO_ACCOUNT } from './world/web-pools.ts';

const TODAY = '2026-03-15';
const SESSIONS = 2000;
const pinKey = randomBytes(32);
const opts = { seed: 42, sessions: SESSIONS, demoPassword: 'demo-password', today: TODAY, pinKey };
const silentLog = { info() {}, warn() {}, error() {}, debug() {} } as unknown as FastifyBaseLogger;

/** Reads of the file's database: rows of a query, its one number, its column `v`, and a fingerprint. */
function readsOf(db: Db) {
  const q = async <T = Record<string, unknown>>(text: string) => rowsOf<T>(await db.execute(sql.raw(text)));
  const one = async (text: string) => Number(Object.values((await q(text))[0])[0]);
  const values = async (text: string) => (await q<{ v: string }>(text)).map((r) => r.v);
  return { q, one, values, fingerprint: () => fingerprint(q) };
}

/** A fingerprint of every seeded table (columns that are random by design, like password salts, left out). */
async function fingerprint(q: ReturnType<typeof readsOf>['q']) {
  const tables: [string, string, string][] = [
    ['users', 'id, email, name, vendor_roles', 'email'],
    ['idp_accounts', 'id, email, name, roles', 'email'],
    ['accounts', '*', 'customer_number'],
    ['portal_contacts', '*', 'customer_number, email'],
    ['products', '*', 'part_number'],
    ['entitlements', '*', 'id'],
    ['fsa_prices', '*', 'contract_id, part_number'],
    ['license_servers', '*', 'id'],
    ['license_server_accounts', '*', 'server_id, customer_number'],
    ['fulfillments', '*', 'id'],
    [
      'fulfillment_events',
      'fulfillment_id, server_id, customer_number, time, modified_by, action, count, lifecycle_action, parent_fulfillment_id',
      'fulfillment_id, time, count',
    ],
    ['usage_sessions', '*', 'id'],
    ['emails', '*', 'id'],
    ['alerts', '*', 'id'],
    ['features', '*', 'name'],
    ['web_users', 'customer_number, email, name, source, state, role, scim_external_id', 'email'],
    ['web_groups', 'customer_number, name, source, scim_external_id', 'name'],
  ];
  const out: Record<string, string> = {};
  for (const [table, cols, key] of tables) {
    out[table] = String(
      (
        await q<{ h: string }>(
          `select md5(string_agg(r::text, '|' order by ${key})) as h from (select ${cols} from ${table}) r`,
        )
      )[0].h,
    );
  }
  return out;
}

/** The demo world, seeded once into the fixture's database, and the reads of it. */
const test = apiTest.extend('world', { scope: 'file' }, async ({ database }) => {
  await database.db.transaction((tx) => seedDemoWorld(tx, opts));
  return readsOf(database.db);
});

describe('demo world in the database', () => {
  test('has entitlements of every kind and state the screens show', async ({ world: { one, values } }) => {
    expect(await values(`select distinct kind as v from entitlements order by 1`)).toEqual([
      'ELASTIC',
      'FSA',
      'SSL',
    ]);
    // Spec 002 §9 model groups; FSA order lines stay 'Lease'.
    expect(
      await values(`select distinct license_model as v from entitlements where kind = 'SSL' order by 1`),
    ).toEqual([
      'ConcurrentProduct',
      'Lease',
      'Named User',
      'Network',
      'Network Borrow',
      'Node Locked',
      'Shared Web',
    ]);
    expect(
      await values(`select distinct license_type as v from entitlements where kind = 'SSL' order by 1`),
    ).toEqual(['named', 'server', 'shared']);
    const ssl = `from entitlements where kind = 'SSL'`;
    expect(
      await one(`select count(*) ${ssl} and end_date is null and version_date is not null`),
    ).toBeGreaterThan(0);
    expect(await one(`select count(*) ${ssl} and is_evaluation`)).toBeGreaterThan(0);
    expect(await one(`select count(*) ${ssl} and end_date < '${TODAY}'`)).toBeGreaterThan(0);
    expect(await one(`select count(*) ${ssl} and start_date > '${TODAY}'`)).toBeGreaterThan(0);
    expect(
      await one(`select count(*) ${ssl} and start_date <= '${TODAY}' and end_date >= '${TODAY}'`),
    ).toBeGreaterThan(0);
    expect(
      await one(`select count(*) ${ssl} and fsa_contract_id is not null and price_cents > 0`),
    ).toBeGreaterThan(0);
    expect(
      await one(`select count(*) ${ssl} and part_number = 'FSA0030216' and product_name is not null`),
    ).toBeGreaterThan(0);
    // Elastic-AEU: PO numbers, rate tables, currencies.
    expect(
      await one(`select count(*) from entitlements where kind = 'ELASTIC' and (license_model <> 'Elastic-AEU'
        or po_number is null or rate_table_version !~ '^\\d{4}\\.\\d+\\.\\d+$' or currency not in ('USD', 'EUR'))`),
    ).toBe(0);
    expect(
      await values(`select distinct currency as v from entitlements where kind = 'ELASTIC' order by 1`),
    ).toEqual(['EUR', 'USD']);
    // FSA contracts with a budget and a price table.
    expect(
      await one(`select count(*) from entitlements e where kind = 'FSA' and (license_model <> 'FSA' or price_cents is null
        or not exists (select 1 from fsa_prices p where p.contract_id = e.id))`),
    ).toBe(0);
    expect(await one(`select count(*) from fsa_prices where price_1_year_cents is null`)).toBe(0);
  });

  test('gives every elastic license server its first PIN as it is created, sealed (decision 022)', async ({
    world: { q },
  }) => {
    const rows = await q<{ customer_number: string; cls_id: string; pin_cipher: string | null }>(
      `select a.customer_number, s.host_identity as cls_id, e.pin_cipher from license_servers s
        join license_server_accounts a on a.server_id = s.id
        left join elastic_server_settings e on e.customer_number = a.customer_number and e.cls_id = s.host_identity
        where s.kind = 'elastic'`,
    );
    expect(rows.length).toBeGreaterThan(5);
    const pins = rows.map((r) => unseal(pinKey, r.pin_cipher ?? '', [r.customer_number, r.cls_id], 'PIN'));
    expect(pins.filter((pin) => !/^[0-9]{6}$/.test(pin))).toEqual([]);
    expect(new Set(pins).size).toBeGreaterThan(1);
  });

  test('has accounts of every org type, export status and access-flag combination', async ({
    world: { one, values },
  }) => {
    expect(await values(`select distinct org_type as v from accounts order by 1`)).toEqual([
      'Channel',
      'Direct',
      'Indirect',
      'Undefined',
    ]);
    const statuses = await values(`select distinct export_control_status as v from accounts`);
    for (const s of ['', 'Approved', 'approved', 'Pending', 'Denied']) expect(statuses).toContain(s);
    expect(
      await one(
        `select count(*) from (select distinct is_access_disabled, is_fnp_license_generator from accounts) x`,
      ),
    ).toBe(4);
    expect(await one(`select count(*) from accounts`)).toBe(50);
  });

  test('gives customer users their per-account contact roles, the first being a good demo account', async ({
    world: { q, one },
  }) => {
    const contacts = async (email: string) =>
      q<{ customer_number: string; role: string }>(
        `select customer_number, role from portal_contacts where email = '${email}' order by customer_number`,
      );
    const acme = await contacts('admin@acme.example');
    expect(acme.length).toBeGreaterThanOrEqual(3);
    expect(await contacts('admin@northwind.example')).toHaveLength(1);
    expect((await contacts('engineer@acme.example')).map((c) => c.role)).toEqual([contactRoles.viewer]);
    expect((await contacts('coordinator@acme.example')).map((c) => c.role)).toContain(
      contactRoles.coordinator,
    );
    expect(await contacts('newhire@acme.example')).toHaveLength(0);
    expect(await one(`select count(*) from users where email = 'newhire@acme.example'`)).toBe(1);
    for (const email of ['admin@acme.example', 'admin@northwind.example', 'coordinator@acme.example']) {
      const [first] = await contacts(email);
      const [info] = await q<{ org_type: string; x: string; kinds: string[] }>(
        `select org_type, export_control_status as x, array(select distinct kind from entitlements e
           where e.customer_number = a.customer_number order by 1) as kinds
         from accounts a where customer_number = '${first.customer_number}'`,
      );
      expect(info.org_type).toBe('Direct');
      expect(info.x.toLowerCase()).toBe('approved');
      expect(info.kinds).toEqual(['ELASTIC', 'FSA', 'SSL']);
    }
  });

  test('stores vendor staff with their roles and demo passwords that verify', async ({
    world: { q, one },
  }) => {
    const staff = await q<{ email: string; roles: string[]; password_hash: string }>(
      `select email, roles, password_hash from idp_accounts where email like '%@demo.example' order by email`,
    );
    expect(staff.map((s) => [s.email, s.roles])).toEqual([
      ['admin@demo.example', ['admin']],
      ['busops@demo.example', ['busops']],
      ['sales@demo.example', ['sales']],
      ['salesaccess@demo.example', ['salesaccess']],
      ['support@demo.example', ['support']],
    ]);
    expect(await verifyPassword('demo-password', staff[0].password_hash)).toBe(true);
    expect(await verifyPassword('wrong-password', staff[0].password_hash)).toBe(false);
    expect(await one(`select count(*) from idp_accounts i join users u using (id, email)`)).toBe(
      await one(`select count(*) from idp_accounts`),
    );
  });

  test('generates usage sessions on elastic entitlements, some still active', async ({
    database,
    world: { q, one },
  }) => {
    expect(await one(`select count(*) from usage_sessions`)).toBe(SESSIONS);
    expect(
      await one(`select count(*) from usage_sessions where end_time is null and session_status = 'Active'`),
    ).toBeGreaterThan(0);
    expect(
      await one(
        `select count(*) from usage_sessions where (end_time is null) <> (session_status = 'Active')`,
      ),
    ).toBe(0);
    expect(
      await one(
        `select count(*) from usage_sessions where hours < 0.01 or charge < 0 or end_time < start_time`,
      ),
    ).toBe(0);
    // A session's entitlement (the first that paid for it) is an elastic entitlement of its account in its
    // currency that was valid when it was charged; sessions no entitlement covered have none.
    expect(
      await one(`select count(*) from usage_sessions s join entitlements e on e.id = s.entitlement_id
        where e.kind is distinct from 'ELASTIC' or e.customer_number <> s.customer_number or e.currency <> s.currency
          or to_char(coalesce(s.end_time, s.last_seen_at) at time zone 'UTC', 'YYYY-MM-DD')
            not between e.start_date and e.end_date`),
    ).toBe(0);
    // Charges are priced by the rating code and all of them reached the ledger.
    expect(
      await one(`select count(*) from usage_sessions where charged_cents <> round(charge * 100) or rate <= 0
        or rate_table_version = ''`),
    ).toBe(0);
    const reconciliation = await reconcile(database.db);
    expect(reconciliation.length).toBeGreaterThan(5);
    expect(reconciliation.filter((r) => !r.balanced)).toEqual([]);
    const [range] = await q<{ first: string; last: string }>(
      `select to_char(min(start_time) at time zone 'UTC', 'YYYY-MM-DD') as first,
              to_char(max(coalesce(end_time, start_time)) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') as last from usage_sessions`,
    );
    expect(range.first >= '2025-02-13').toBe(true); // 13 months back, roughly
    expect(range.first <= '2025-03-31').toBe(true);
    expect(range.last <= `${TODAY}T00:00:00`).toBe(true);
    // Every elastic account's server is its elastic license server.
    expect(
      await one(`select count(*) from usage_sessions s where not exists (select 1 from license_servers l
        join license_server_accounts m on m.server_id = l.id
        where m.customer_number = s.customer_number and l.kind = 'elastic' and l.host_identity = s.server_id)`),
    ).toBe(0);
    // Planned used percentages hold: one entitlement used up, others below their quantity.
    const used = await q<{ pct: number }>(
      `select round(used_cents / quantity) as pct from entitlements
       where kind = 'ELASTIC' and quantity > 0 and start_date <= '${TODAY}' and used_cents > 0`,
    );
    expect(used.some((u) => Number(u.pct) >= 100)).toBe(true);
    expect(used.some((u) => Number(u.pct) < 80)).toBe(true);
  });

  test('has license servers (single, triad, elastic) with a consistent fulfillment history', async ({
    world: { one, values },
  }) => {
    expect(await values(`select distinct kind as v from license_servers order by 1`)).toEqual([
      'elastic',
      'flexlm',
    ]);
    expect(
      await values(
        `select distinct host_id_types as v from license_servers where kind = 'flexlm' and host_ids not like '%,%' order by 1`,
      ),
    ).toEqual(['DISK_SERIAL_NUM', 'ETHERNET', 'FLEXID']);
    expect(
      await one(
        `select count(*) from license_servers where kind = 'flexlm' and array_length(string_to_array(host_ids, ','), 1) = 3`,
      ),
    ).toBeGreaterThan(0);
    expect(
      await one(
        `select count(*) from license_servers where array_length(string_to_array(host_ids, ','), 1) not in (1, 3)`,
      ),
    ).toBe(0);
    expect(await one(`select count(*) from license_servers where kind = 'elastic' and alias is null`)).toBe(
      0,
    );
    // Shared hosts: one host serving several accounts, in their shared-server group.
    expect(
      await one(`select count(*) from (select server_id from license_server_accounts where in_shared_group
        group by server_id having count(*) > 1) x`),
    ).toBeGreaterThan(0);
    expect(await values(`select distinct action as v from fulfillment_events order by 1`)).toEqual([
      'ACTIVATE',
      'RETURN',
    ]);
    // Live counts are the sum of their history, and entitlements' activated the sum of their live counts.
    expect(
      await one(
        `select count(*) from fulfillments f where f.count <> (select sum(e.count) from fulfillment_events e where e.fulfillment_id = f.id)`,
      ),
    ).toBe(0);
    expect(
      await one(
        `select count(*) from entitlements e where e.activated <> coalesce((select sum(f.count) from fulfillments f where f.entitlement_id = e.id), 0)`,
      ),
    ).toBe(0);
    expect(
      await one(
        `select count(*) from license_servers s where state = 'Inactive' and exists (select 1 from fulfillments f where f.server_id = s.id)`,
      ),
    ).toBeGreaterThan(0);
    // Two years of history: deactivated hosts and rehosts, whose targets' fulfillments name the source's.
    expect(await values(`select distinct lifecycle_action as v from fulfillment_events order by 1`)).toEqual([
      'deactivate',
      'new',
      'rehost',
      'return',
    ]);
    expect(
      await one(`select count(*) from fulfillments c join fulfillments p on p.id = c.parent_id
        join license_servers s on s.id = p.server_id
        where s.state = 'Inactive' and p.entitlement_id = c.entitlement_id and p.server_id <> c.server_id`),
    ).toBeGreaterThan(3);
    expect(
      await one(`select count(*) from fulfillment_events e join fulfillments f on f.id = e.fulfillment_id
        where e.parent_fulfillment_id is distinct from (case when e.count > 0 then f.parent_id end)
          and e.lifecycle_action = 'rehost'`),
    ).toBe(0);
    expect(
      await one(
        `select count(*) from fulfillment_events where time < timestamptz '${TODAY} 00:00:00+00' - interval '600 days'`,
      ),
    ).toBeGreaterThan(0);
  });

  test('has e-mails, alerts of every category and status, and route feature flags', async ({
    world: { q, one, values },
  }) => {
    expect(
      await one(
        `select count(*) from emails where customer_number = (select min(customer_number) from accounts)`,
      ),
    ).toBeGreaterThan(20);
    expect(await one(`select count(*) from emails where body not like '<p>%'`)).toBe(0);
    expect(await values(`select distinct category as v from alerts order by 1`)).toEqual([
      'CRITICAL',
      'INFO',
      'OK',
      'WARNING',
    ]);
    expect(await values(`select distinct status as v from alerts order by 1`)).toEqual([
      'ACTIVE',
      'RESOLVED',
    ]);
    const anchor = `timestamptz '${TODAY} 00:00:00+00'`;
    expect(
      await one(
        `select count(*) from alerts where category = 'INFO' and date > ${anchor} and date < ${anchor} + interval '5 days'`,
      ),
    ).toBeGreaterThan(0);
    expect(
      await one(`select count(*) from alerts where status = 'RESOLVED' and expires < ${anchor}`),
    ).toBeGreaterThan(0);
    expect(
      await one(`select count(*) from alerts where status = 'ACTIVE' and expires < ${anchor}`),
    ).toBeGreaterThan(0);
    const flags = await q<{ name: string; description: string; enabled: boolean; conflicts: string[] }>(
      `select * from features order by name`,
    );
    // The product's route features (decision 025) are there after a seed as before, beside the experiments.
    for (const route of routeFeatures) {
      expect(flags.find((f) => f.name === route.name)).toEqual({
        name: route.name,
        description: routeFeatureDescription(route),
        enabled: true,
        conflicts: [],
      });
    }
    expect(flags).toHaveLength(routeFeatures.length + 2);
    const experiments = flags.filter((f) => f.conflicts.length > 0);
    expect(experiments).toHaveLength(2);
    expect(experiments[0].conflicts).toEqual([experiments[1].name]);
    expect(experiments[1].conflicts).toEqual([experiments[0].name]);
  });

  test('gives the web demo account pools, a directory, groups, seats, terms and a month of sessions', async ({
    world: { q, one, values },
  }) => {
    const [{ cn }] = await q<{ cn: string }>(
      `select customer_number as cn from accounts where name = '${WEB_DEMO_ACCOUNT}'`,
    );
    // Users may pick it: admin@acme.example administers it.
    expect(
      await one(
        `select count(*) from portal_contacts where customer_number = '${cn}' and email = 'admin@acme.example'`,
      ),
    ).toBe(1);
    // Entitlements page: named and shared pools.
    const pools = await q<{ kind: string }>(
      `select distinct case when license_model = 'Named User' then 'named' else 'shared' end as kind
        from entitlements where customer_number = '${cn}' and license_model in ('Named User', 'Shared Web')
          and start_date <= current_date::text and (end_date is null or end_date >= current_date::text) order by 1`,
    );
    expect(pools.map((p) => p.kind)).toEqual(['named', 'shared']);
    // Users page: people of every source and state, two administrators.
    const people = `from web_users where customer_number = '${cn}'`;
    expect(await one(`select count(*) ${people}`)).toBeGreaterThanOrEqual(25);
    expect(await values(`select distinct source as v ${people} order by 1`)).toEqual([
      'csv',
      'manual',
      'scim',
      'sign-in',
    ]);
    expect(await values(`select distinct state as v ${people} order by 1`)).toEqual([
      'active',
      'invited',
      'removed',
      'suspended',
    ]);
    expect(await one(`select count(*) ${people} and state = 'active'`)).toBeGreaterThan(20);
    expect(await one(`select count(*) ${people} and state = 'suspended'`)).toBe(1);
    expect(await one(`select count(*) ${people} and state = 'removed'`)).toBe(1);
    expect(await one(`select count(*) ${people} and role = 'administrator'`)).toBe(2);
    // Groups page: four groups, one from the identity provider; named seats direct and through a group pool;
    // guarantees and caps on the shared pool.
    expect(
      await values(
        `select name || ':' || source as v from web_groups where customer_number = '${cn}' order by 1`,
      ),
    ).toEqual(['Contractors:manual', 'Electronics:manual', 'Fluids Team:scim', 'Structures:manual']);
    const seats = `from web_named_seats where customer_number = '${cn}'`;
    expect(await one(`select count(*) ${seats} and group_id is null`)).toBe(3);
    expect(await one(`select count(*) ${seats} and group_id is not null`)).toBeGreaterThanOrEqual(4);
    expect(
      await values(
        `select g.name || ':' || t.guaranteed || ':' || coalesce(t.cap::text, '-') as v from web_group_terms t
          join web_groups g on g.id = t.group_id where t.customer_number = '${cn}' order by 1`,
      ),
    ).toEqual(['Contractors:0:1', 'Fluids Team:2:3']);
    // Transactions: a month of leases through the working day, every way a session ends, denials with reasons,
    // some open now; never more leases of a pool at once than its seats.
    const leases = `from web_leases where customer_number = '${cn}'`;
    const anchor = `timestamptz '${TODAY} 00:00:00+00'`;
    expect(await one(`select min(started_at) < ${anchor} - interval '25 days' ${leases}`)).toBe(1);
    expect(
      await one(`select count(distinct started_at::date) ${leases} and extract(isodow from started_at) < 6`),
    ).toBeGreaterThanOrEqual(18);
    expect(
      await values(`select distinct outcome as v ${leases} and outcome not in ('denied', 'open') order by 1`),
    ).toEqual(['heartbeat-lost', 'idle-timeout', 'released']);
    expect(
      await values(`select distinct denial_reason as v ${leases} and outcome = 'denied' order by 1`),
    ).toEqual(expect.arrayContaining(['group-cap', 'no-seat-assigned', 'pool-full']));
    expect(await one(`select count(*) ${leases} and outcome = 'open'`)).toBeGreaterThanOrEqual(3);
    expect(
      await one(
        `select count(*) from web_leases s where s.customer_number = '${cn}' and s.outcome <> 'denied'
          and (select count(*) from web_leases l where l.customer_number = s.customer_number
            and l.part_number = s.part_number and l.outcome <> 'denied' and l.started_at <= s.started_at
            and (l.ended_at is null or l.ended_at > s.started_at))
          > (select sum(quantity) from entitlements e where e.customer_number = s.customer_number
            and e.part_number = s.part_number and e.license_model in ('Named User', 'Shared Web')
            and e.start_date <= current_date::text and (e.end_date is null or e.end_date >= current_date::text))`,
      ),
    ).toBe(0);
    // The products' credential the sessions came through.
    expect(await one(`select count(distinct credential_id) ${leases}`)).toBe(1);
  });

  // Each seeds the whole world again (twice here, once below): about 30 s on a quiet machine, more than a minute on
  // a loaded CI one since the world holds web licensing too.
  test('is deterministic: clearing and seeding again with the same seed gives identical rows', {
    timeout: 240_000,
  }, async ({ database, world: { one, fingerprint } }) => {
    const before = await fingerprint();
    await clearDemoWorld(database.db);
    expect(await one(`select count(*) from accounts`)).toBe(0);
    expect(await one(`select count(*) from usage_sessions`)).toBe(0);
    await database.db.transaction((tx) => seedDemoWorld(tx, opts));
    expect(await fingerprint()).toEqual(before);
    // Another seed gives another world.
    await database.db.transaction(async (tx) => {
      await clearDemoWorld(tx);
      await seedDemoWorld(tx, { ...opts, seed: 7 });
    });
    const other = await fingerprint();
    expect(other.accounts).not.toBe(before.accounts);
    expect(other.usage_sessions).not.toBe(before.usage_sessions);
  });

  test('seedIfEmpty leaves a seeded database alone and lists the demo users outside production', {
    timeout: 240_000,
  }, async ({ database, world: { one } }) => {
    const config = loadConfig({ SEED_SESSIONS: '100', DEMO_PASSWORD: 'secret-demo-pw' });
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const before = await one(`select count(*) from usage_sessions`);
      await seedIfEmpty(silentLog, database, config);
      expect(await one(`select count(*) from usage_sessions`)).toBe(before);
      const printed = log.mock.calls.map((c) => String(c[0])).join('\n');
      expect(printed).toContain('Demo users (password: secret-demo-pw)');
      expect(printed).toMatch(/busops@demo\.example\s+busops/);
      expect(printed).toMatch(/admin@acme\.example\s+\d+: Licensing Portal Administrator/);
      expect(printed).toMatch(/newhire@acme\.example\s+no account/);

      log.mockClear();
      await seedIfEmpty(
        silentLog,
        database,
        loadConfig({ APP_ENVIRONMENT: 'prod', PUBLIC_URL: 'https://portal.example.com' }),
      );
      expect(log).not.toHaveBeenCalled();

      // An empty database gets seeded (with today's anchor), then listed.
      await clearDemoWorld(database.db);
      await seedIfEmpty(silentLog, database, config);
      expect(await one(`select count(*) from accounts`)).toBe(50);
      expect(await one(`select count(*) from usage_sessions`)).toBe(100);
      expect(log.mock.calls.map((c) => String(c[0])).join('\n')).toContain(
        'Demo users (password: secret-demo-pw)',
      );
    } finally {
      log.mockRestore();
    }
  });
});
