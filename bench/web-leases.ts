/**
 * The web-licensing benches' data (issue 24 §5): the products, the accounts with their Named User and Shared Web
 * lines, directories of people, and web_leases filled by generate_series in the database (the services would take
 * hours for millions of rows). Deterministic: lease g of N belongs to account g % accounts unless it is one of the
 * big account's share, starts within the year before today and lasts 1 minute to 4 hours; every 50th is a denial.
 */
import { contactRoles } from '@lp/domain/policy';
import type { Database } from '@lp/server/db/database';
import {
  addContact,
  buildAccount,
  buildEntitlement,
  buildProduct,
  dayFromToday,
} from '@lp/server/harness/factories';
import { signInAs } from '@lp/server/harness/sign-in';
import { sql } from 'drizzle-orm';
import { int } from './measure.ts';

export const NAMED = 'WB-NU';
export const SHARED = 'WB-SW';
export const EMAIL = 'bench-web@example.com';
/** The big account: the reports' pool of `bigUsers` people and the largest share of the leases. */
export const BIG = '7240000';
export const accountNumber = (a: number) => String(7240000 + a);
/** People's ids are derived from the account and their number, so leases need no join to find them. */
const personId = (account: string, k: string) => sql.raw(`md5(${account} || '-' || ${k})::uuid`);

export async function seedProducts(database: Database) {
  await buildProduct(database.db, NAMED, { name: 'Bench Fluids - Named User', featureName: 'wb_named' });
  await buildProduct(database.db, SHARED, {
    name: 'Bench Mechanical - Shared Web',
    featureName: 'wb_shared',
  });
}

/**
 * An account with a Named User line (`namedSeats`, each held by one of its first people) and a Shared Web line
 * (`sharedSeats`), `people` active people u<k>@<account>.example, and the bench user as its administrator.
 */
export async function seedAccount(
  database: Database,
  customerNumber: string,
  seats: { people: number; namedSeats: number; sharedSeats: number },
) {
  const { db } = database;
  await buildAccount(db, { customerNumber, name: `Bench Web ${customerNumber}`, orgType: 'Direct' });
  await addContact(db, customerNumber, EMAIL, contactRoles.admin);
  const line = (partNumber: string, licenseModel: string, quantity: number) =>
    buildEntitlement(db, customerNumber, {
      kind: 'SSL',
      partNumber,
      licenseModel,
      quantity,
      startDate: dayFromToday(-400),
      endDate: dayFromToday(300),
    });
  if (seats.namedSeats) await line(NAMED, 'Named User', seats.namedSeats);
  if (seats.sharedSeats) await line(SHARED, 'Shared Web', seats.sharedSeats);
  await db.execute(sql`
    insert into web_users (id, customer_number, email, name, source, state, created_at)
    select ${personId(`'${customerNumber}'`, 'k')}, ${customerNumber}, 'u' || k || '@' || ${customerNumber} || '.example',
      'User ' || k, 'manual', 'active', now() - interval '400 days'
    from generate_series(0, ${seats.people - 1}) k`);
  await db.execute(sql`
    insert into web_named_seats (customer_number, part_number, user_id, assigned_at)
    select ${customerNumber}, ${NAMED}, ${personId(`'${customerNumber}'`, 'k')}, now() - interval '400 days'
    from generate_series(0, ${seats.namedSeats - 1}) k`);
}

/**
 * `total` leases: `bigShare` of them of the big account's `bigPeople` people, the rest spread over the other
 * accounts (1..accounts-1, `people` each). 70 % of a pool's sessions are of the shared pool, 30 % of the named one.
 * The secondary indexes are dropped for the load and built once after it, then VACUUM ANALYZE, as a live table.
 */
export async function fillLeases(
  database: Database,
  o: { total: number; bigShare: number; bigPeople: number; accounts: number; people: number },
) {
  const { db } = database;
  const started = Date.now();
  const indexes = (await db.execute(
    sql`select indexname, indexdef from pg_indexes where tablename = 'web_leases'
      and indexname not like '%pkey' and indexname not like '%lease_id%'`,
  )) as unknown as { rows: { indexname: string; indexdef: string }[] };
  for (const i of indexes.rows) await db.execute(sql.raw(`drop index ${i.indexname}`));
  const big = Math.round(o.total * o.bigShare);
  const chunk = 1_000_000;
  for (let from = 0; from < o.total; from += chunk) {
    const to = Math.min(o.total, from + chunk) - 1;
    // Account: the big one for g < big, else 1 + g % (accounts - 1); person k of that account.
    await db.execute(sql`
      insert into web_leases (customer_number, part_number, pool_kind, user_id, email, product, client, started_at,
        last_heartbeat_at, last_activity_at, ended_at, outcome, denial_reason)
      select a.cn, p.part, case when p.part = ${SHARED} then 'shared' else 'named' end,
        ${personId('a.cn', 'a.k')}, 'u' || a.k || '@' || a.cn || '.example', 'Bench Web App',
        'browser ' || g % 7, t.st,
        case when g % 50 = 0 then null else t.en end,
        case when g % 50 = 0 then null else t.en end,
        t.en,
        case when g % 50 = 0 then 'denied' when g % 3 = 0 then 'idle-timeout' else 'released' end,
        case when g % 50 = 0 then 'pool-full' end
      from generate_series(${from}::bigint, ${to}::bigint) g,
        lateral (select case when g < ${big} then ${BIG}
            else (7240000 + 1 + g % ${Math.max(1, o.accounts - 1)})::text end as cn,
          case when g < ${big} then (g * 7) % ${o.bigPeople} else (g / ${o.accounts}) % ${o.people} end as k) a,
        lateral (select case when g % 10 < 7 then ${SHARED} else ${NAMED} end as part) p,
        lateral (select date_trunc('day', now()) - make_interval(secs => (g * 7919) % 31536000) as st) s,
        lateral (select s.st as st,
          case when g % 50 = 0 then s.st else s.st + make_interval(secs => 60 + (g * 37) % 14340) end as en) t`);
    console.log(`  loaded ${int(to + 1)} leases (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
  for (const i of indexes.rows) await db.execute(sql.raw(i.indexdef));
  await db.execute(sql`vacuum analyze`);
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `  ${int(o.total)} leases (${int(big)} of ${BIG}) loaded, indexed and analysed in ${seconds.toFixed(0)} s`,
  );
  return seconds;
}

/** The bench user's session headers (administrator of every bench account). */
export const benchSession = async (database: Database) => (await signInAs(database.db, EMAIL)).headers;
