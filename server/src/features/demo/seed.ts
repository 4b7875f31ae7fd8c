import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { type Db, queryRows } from '../../db/database.ts';
import { ensureMonthPartitions } from '../../db/partitions.ts';
import {
  accounts,
  alerts,
  emails,
  entitlements,
  fsaPrices,
  fulfillmentEvents,
  fulfillments,
  idpAccounts,
  licenseServerAccounts,
  licenseServers,
  portalContacts,
  products,
  rateTables,
  users,
} from '../../db/schema.ts';
import { hashPassword } from '../auth/service.ts';
import { createFirstPins } from '../credentials/service.ts';
import { addMissingFeatures, ensureRouteFeatures } from '../featureflags/service.ts';
import { productVersions, projects, usernames } from './catalogue.ts';
import { loadSeededUsage, STAGING } from './seed-usage.ts';
import { seedWebDemo } from './web-world.ts';
import { buildWorld, utcToday } from './world/build-world.ts';
import type { DemoWorld } from './world/types.ts';
import { WEB_DEMO_ACCOUNT } from './world/web-pools.ts';

export interface SeedOptions {
  seed: number;
  sessions: number;
  demoPassword: string;
  /** 'YYYY-MM-DD' anchor of all relative dates; defaults to the current UTC day */
  today?: string;
  /** The proven sealing key: each elastic license server gets its first PIN when it is created (decision 022). */
  pinKey: Buffer;
}

export interface SeedSummary {
  seed: number;
  today: string;
  counts: Record<string, number>;
  elapsedMs: number;
}

/**
 * Tables that survive a reseed: the OpenID provider's keys and grants, instance settings, and the audit log,
 * which refuses TRUNCATE (decision 044): its signed checkpoints would report a cleared log as destroyed evidence.
 */
const KEEP = ['oidc_store', 'app_settings', 'audit_entries', 'audit_chain_heads', 'audit_checkpoints'];

/** Empties every data table of the current schema (future tables included) except those in KEEP. */
export async function clearDemoWorld(db: Db): Promise<void> {
  const result = await db.execute(
    sql`select tablename from pg_tables where schemaname = current_schema() order by tablename`,
  );
  const tables = rowsOf<{ tablename: string }>(result)
    .map((r) => r.tablename)
    .filter((t) => !KEEP.includes(t));
  if (tables.length === 0) return;
  await db.execute(
    sql.raw(`truncate table ${tables.map((t) => `"${t}"`).join(', ')} restart identity cascade`),
  );
}

/** Rows of a raw `execute` (both drivers answer `{ rows }`). */
export const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

async function insertAll<T extends PgTable>(db: Db, table: T, rows: T['$inferInsert'][], batch = 500) {
  for (let i = 0; i < rows.length; i += batch) await db.insert(table).values(rows.slice(i, i + batch));
}

/** Fills an empty database with the demo world. Run it inside a transaction so a failure leaves nothing half-made. */
export async function seedDemoWorld(db: Db, opts: SeedOptions): Promise<SeedSummary> {
  const started = Date.now();
  const today = opts.today ?? utcToday();
  const world = buildWorld(opts.seed, today);

  const hashes = await Promise.all(world.users.map(() => hashPassword(opts.demoPassword)));
  await insertAll(
    db,
    idpAccounts,
    world.users.map((u, i) => ({
      id: u.id,
      email: u.email,
      name: u.name,
      roles: u.vendorRoles,
      passwordHash: hashes[i],
    })),
  );
  await insertAll(
    db,
    users,
    world.users.map((u) => ({ id: u.id, email: u.email, name: u.name, vendorRoles: u.vendorRoles })),
  );
  await insertAll(db, accounts, world.accounts);
  await insertAll(db, portalContacts, world.contacts);
  await insertAll(db, products, world.products);
  await insertAll(db, entitlements, world.entitlements);
  await insertAll(db, fsaPrices, world.fsaPrices);
  await insertAll(db, licenseServers, world.licenseServers);
  await insertAll(db, licenseServerAccounts, world.licenseServerAccounts);
  const elastic = new Map(world.licenseServers.filter((s) => s.kind === 'elastic').map((s) => [s.id, s]));
  await createFirstPins(
    db,
    opts.pinKey,
    world.licenseServerAccounts.flatMap(({ serverId: hostRowId, customerNumber }) => {
      const server = elastic.get(hostRowId);
      return server ? [{ customerNumber, elasticServerId: server.hostIdentity }] : [];
    }),
  );
  await insertAll(db, fulfillments, world.fulfillments);
  await insertAll(db, fulfillmentEvents, world.fulfillmentEvents);
  await insertAll(db, emails, world.emails, 200);
  await insertAll(db, alerts, world.alerts);
  // The product's route features are not part of the world, but a reseed empties every table: put them back
  // (the server also adds them at each start), then the world's own experiments.
  await ensureRouteFeatures(db);
  await addMissingFeatures(db, world.features);
  await insertAll(db, rateTables, world.rateTables);

  if (opts.sessions > 0 && world.sessionPlan.accounts.length > 0) {
    await db.execute(sql.raw(`create temp table ${STAGING} (like usage_sessions including defaults)`));
    await db.execute(sql.raw(usageSessionsSql(world, opts.seed, opts.sessions)));
    // The months the sessions start in get their partitions before the load (decision 073).
    const [span] = await queryRows<{ first: string | Date; last: string | Date }>(
      db,
      sql.raw(`select min(start_time) as first, max(start_time) as last from ${STAGING}`),
    );
    if (span?.first)
      await ensureMonthPartitions(db, 'usage_sessions', new Date(span.first), new Date(span.last));
    await loadSeededUsage(db, world.sessionPlan.targets);
  }

  // Rows were inserted with explicit ids (stable per seed); move the sequences past them.
  for (const table of [
    'entitlements',
    'license_servers',
    'fulfillments',
    'emails',
    'alerts',
    'usage_sessions',
  ]) {
    await db.execute(
      sql.raw(
        `select setval(pg_get_serial_sequence('${table}', 'id'), coalesce((select max(id) from ${table}), 0) + 1, false)`,
      ),
    );
  }

  // Web licensing: the demo account's directory and seats through their commands, a month of sessions simulated up
  // to this time of day on the anchor day.
  const webAccount = world.accounts.find((a) => a.name === WEB_DEMO_ACCOUNT);
  const admin = world.users.find((u) => u.email === 'admin@acme.example');
  if (webAccount && admin)
    await seedWebDemo(db, {
      customerNumber: webAccount.customerNumber,
      admin,
      seed: opts.seed,
      until: new Date(Date.parse(`${today}T00:00:00Z`) + (Date.now() % 86_400_000)),
    });

  const counted = await db.execute(
    sql.raw(
      [
        'users',
        'accounts',
        'portal_contacts',
        'products',
        'entitlements',
        'fsa_prices',
        'license_servers',
        'fulfillments',
        'usage_sessions',
        'emails',
        'alerts',
        'features',
        'web_users',
        'web_groups',
        'web_leases',
      ]
        .map((t) => `select '${t}' as name, count(*)::int as n from ${t}`)
        .join(' union all '),
    ),
  );
  const counts: Record<string, number> = {};
  for (const r of rowsOf<{ name: string; n: number }>(counted)) counts[r.name] = Number(r.n);
  return { seed: opts.seed, today, counts, elapsedMs: Date.now() - started };
}

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const textArray = (items: readonly string[]) => `array[${items.map(lit).join(', ')}]`;

/**
 * One INSERT ... SELECT over generate_series: every column is a deterministic function of the row number and
 * the seed (hashint8extended is portable across platforms and versions, being what hash partitioning relies
 * on), so 200 000 rows take seconds on PGlite and 10 million stay practical on PostgreSQL.
 */
export function usageSessionsSql(world: DemoWorld, seed: number, sessions: number): string {
  const plan = world.sessionPlan;
  const n = Math.floor(sessions);
  const activeCount = Math.min(n, Math.max(5, Math.min(300, Math.floor(n / 1000))));
  const anchor = `timestamptz ${lit(`${world.today} 00:00:00+00`)}`;
  const u = (k: number) =>
    `((hashint8extended(g.i::int8, ${seed * 97 + k}::int8) & 2147483647)::float8 / 2147483648.0)`;
  const h64 = (k: number) => `lpad(to_hex(hashint8extended(t.i::int8, ${seed * 97 + k}::int8)), 16, '0')`;
  const h48 = (k: number) =>
    `lpad(to_hex(hashint8extended(t.i::int8, ${seed * 97 + k}::int8) & 281474976710655), 12, '0')`;

  const slots = plan.accounts.flatMap((a) => Array.from({ length: a.weight }, () => a));
  const accountValues = slots
    .map(
      (a, i) =>
        `(${i}, ${lit(a.customerNumber)}, ${lit(a.elasticServerId)}, ${lit(a.hostPrefix)}, ${a.cloud}, ${a.userOffset}, ${lit(a.ipPrefix)}, ${a.ipBase})`,
    )
    .join(',\n    ');
  const productSlots = plan.products.flatMap((p) => (p.hpc ? [p] : [p, p, p]));
  const productValues = productSlots.map((p, i) => `(${i}, ${lit(p.name)}, ${p.hpc})`).join(',\n    ');
  const periodValues = plan.periods
    .map(
      (p) =>
        `(${lit(p.customerNumber)}, ${p.entitlementId}::bigint, ${p.fromDaysAgo}, ${p.toDaysAgo}, ${lit(p.currency)})`,
    )
    .join(',\n    ');

  return `
insert into ${STAGING} (id, customer_number, entitlement_id, session_id, start_time, end_time, product,
  product_version, product_count, hours, charge, currency, username, host, project, session_status, referer_ip,
  cloud_job_id, server_id, last_seen_at)
with
  a(slot, customer_number, server_id, host_prefix, cloud, user_offset, ip_prefix, ip_base) as (values
    ${accountValues}),
  pr(slot, name, hpc) as (values
    ${productValues}),
  p(customer_number, entitlement_id, from_ago, to_ago, currency) as (values
    ${periodValues}),
  base as (
    select g.i, g.i > ${n - activeCount} as active,
      floor(${u(1)} * ${slots.length})::int as aslot,
      floor(${u(6)} * ${productSlots.length})::int as pslot,
      case when g.i > ${n - activeCount} then 1 else 1 + floor(394 * power(${u(2)}, 1.3))::int end as days_ago,
      ${u(3)} as u3, ${u(4)} as u4, ${u(5)} as u5, ${u(7)} as u7, ${u(8)} as u8, ${u(9)} as u9,
      ${u(10)} as u10, ${u(11)} as u11, ${u(12)} as u12, ${u(13)} as u13, ${u(14)} as u14
    from generate_series(1, ${n}) g(i)
  ),
  t as (
    select b.*,
      case when b.active then ${anchor} - make_interval(secs => 300 + floor(b.u3 * 28800))
      else ${anchor} - make_interval(secs => b.days_ago * 86400
        - case when b.u4 < 0.15 then floor(b.u3 * 86400) else 25200 + floor(b.u3 * 43200) end)
      end as start_time
    from base b
  )
select t.i, a.customer_number, p.entitlement_id, upper(${h64(20)}), t.start_time,
  case when t.active then null else t.start_time + make_interval(secs => x.len) end,
  pr.name,
  (${textArray(productVersions)})[1 + greatest(0, (case when t.days_ago > 300 then 0 when t.days_ago > 180 then 1
    when t.days_ago > 60 then 2 else 3 end) - (case when t.u14 < 0.3 then 1 else 0 end))],
  x.cnt, 0, 0, p.currency,
  (${textArray(usernames)})[1 + (a.user_offset + floor(t.u8 * 9)::int) % ${usernames.length}],
  a.host_prefix || case when x.cnt >= 8 then '-hpc' || lpad((1 + floor(t.u9 * 16)::int)::text, 2, '0')
    else '-ws' || lpad((1 + floor(t.u9 * 40)::int)::text, 3, '0') end,
  (${textArray(projects)})[1 + floor(t.u10 * ${projects.length})::int],
  case when t.active then 'Active' when t.u11 < 0.02 then 'Terminated' else 'Completed' end,
  a.ip_prefix || '.' || (a.ip_base + floor(t.u12 * 4)::int)::text,
  case when a.cloud and t.u13 < 0.35 then 'cj-' || ${h48(21)} end,
  a.server_id,
  case when t.active then ${anchor} else t.start_time + make_interval(secs => x.len) end
from t
  join a on a.slot = t.aslot
  join pr on pr.slot = t.pslot
  join p on p.customer_number = a.customer_number and t.days_ago between p.to_ago and p.from_ago
  cross join lateral (select
    case when pr.hpc then (array[4, 8, 16, 32, 64])[1 + floor(t.u7 * 5)::int]
      when t.u7 < 0.75 then 1 when t.u7 < 0.92 then 2 else 4 end as cnt,
    case when t.active then extract(epoch from ${anchor} - t.start_time)::float8
      else least(floor(-ln(1 - t.u5) * 7920 * case when pr.hpc then 2.5 else 1 end), 345600,
        extract(epoch from ${anchor} - t.start_time)::float8) end as len) x`;
}
