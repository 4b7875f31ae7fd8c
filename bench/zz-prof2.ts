import { randomBytes } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { migrateDatabase, openPglite } from '@lp/server/db/database';
import { usageSessionsResource } from '@lp/server/features/transactions/resource';
import { compilePageQuery, queryPage } from '@lp/server/platform/query/engine';
const database = await openPglite(undefined);
await migrateDatabase(database);
const client = (database as unknown as { pglite: PGlite }).pglite;
await database.db.execute(sql`insert into usage_sessions (customer_number, session_id, start_time, end_time, product, product_version, product_count, hours, charge, currency, username, host, project, session_status, referer_ip, cloud_job_id, server_id)
 select (100000 + g % 50)::text, 'S'||g, now() - make_interval(secs => g*60), now(), 'Fluent','1',1,1.5,2.5,'USD','user'||g%40,'h','p','Closed','ip',null,'s' from generate_series(1,20000) g`);
await database.db.execute(sql`vacuum analyze usage_sessions`);
const secret = randomBytes(32);
const request = { filter: { condition: 'ALL' as const, criteria: [{ name: 'User', method: 'CONTAINS' as const, value: 'USER1', casefold: true }] }, sorting: [{ name: 'StartTime', direction: 'desc' as const }], limit: 20 };
const scope = sql`u.customer_number = ${'100001'}`;
const d = new PgDialect();
const q = compilePageQuery(usageSessionsResource, { scope, request, secret }).query;
const { sql: text, params } = d.sqlToQuery(q);
const time = async (label: string, fn: () => Promise<unknown>) => {
  for (let i = 0; i < 200; i++) await fn();
  const t = performance.now();
  for (let i = 0; i < 1000; i++) await fn();
  console.log(label, ((performance.now() - t) / 1000).toFixed(3), 'ms');
};
for (let r = 0; r < 2; r++) {
  await time('engine queryPage', () => queryPage(database.db, usageSessionsResource, { scope, request, secret }));
  await time('drizzle execute ', () => database.db.execute(q));
  await time('raw client.query', () => client.query(text, params as never[]));
  await time('raw w/ parsers  ', () => client.query(text, params as never[], { rowMode: 'object', parsers: { 1184: (v: string) => v } }));
}
await database.close();
