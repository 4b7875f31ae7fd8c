/**
 * Compression benchmark (issue 21 §3): the usage CSV export's request (/api/fetchUsage, 30 000 rows, streamed
 * from a cursor) and a 1 000-row grid page, against the real server as its own process, asked with
 * Accept-Encoding identity (what every client got before the change: the server ignored the header), gzip and
 * br. Measured: the bytes on the wire and the time to the last byte (p50/p95 over the rounds); each answer is
 * decoded and checked against the identity bytes.
 *
 *   npx tsx bench/compression.ts [--engine pglite|postgres] [--rows 30000] [--rounds 5]
 */
import http from 'node:http';
import os from 'node:os';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import { contactRoles } from '@lp/domain/policy';
import { addContact, buildAccount } from '@lp/server/harness/factories';
import { signInAs } from '@lp/server/harness/sign-in';
import { sql } from 'drizzle-orm';
import { int, pair, row, spread, table } from './measure.ts';
import { loadAverage, withSeededServer } from './server-process.ts';

const { values: opt } = parseArgs({
  options: {
    engine: { type: 'string', default: 'pglite' },
    rows: { type: 'string', default: '30000' },
    rounds: { type: 'string', default: '5' },
  },
});
const ROWS = Number(opt.rows);
const ROUNDS = Number(opt.rounds);
const ACCOUNT = '5600001';

/** One POST on a plain socket, so that the bytes counted are the bytes sent (fetch would decode them). */
function post(base: string, headers: Record<string, string>, body: object, acceptEncoding: string) {
  const payload = JSON.stringify(body);
  return new Promise<{ status: number; encoding: string | undefined; body: Buffer; ms: number }>(
    (resolve, reject) => {
      const started = performance.now();
      const req = http.request(
        `${base}/api/fetchUsage`,
        {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json', 'accept-encoding': acceptEncoding },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              encoding: res.headers['content-encoding'],
              body: Buffer.concat(chunks),
              ms: performance.now() - started,
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    },
  );
}

const decode = (encoding: string | undefined, body: Buffer) =>
  encoding === 'br' ? zlib.brotliDecompressSync(body) : encoding === 'gzip' ? zlib.gunzipSync(body) : body;
const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(2)} MB`;

const engine = opt.engine === 'postgres' ? 'postgres' : 'pglite';
console.log(
  `compression bench: engine ${engine}, ${ROWS} rows, ${ROUNDS} rounds; nproc ${os.cpus().length}, node ${process.version}, ${new Date().toISOString()}, load average ${loadAverage()}`,
);
await withSeededServer(
  engine,
  async ({ db }) => {
    await buildAccount(db, { customerNumber: ACCOUNT, name: 'Export Ltd' });
    await addContact(db, ACCOUNT, 'viewer@export.example', contactRoles.viewer);
    // Rows like bench/large-pages.ts's: the usage an account of heavy users collects in a year.
    await db.execute(sql`
      insert into usage_sessions (customer_number, session_id, start_time, end_time, product, product_version,
        product_count, hours, charge, currency, username, host, project, session_status, referer_ip, cloud_job_id,
        server_id, rate_table_version, rate, charged_cents)
      select ${ACCOUNT}, 'S' || g, st,
        case when g % 500 = 0 then null else st + make_interval(secs => 60 + (g * 37) % 36000) end,
        (array['Fluent','Mechanical','CFX','HFSS','LS-DYNA','Maxwell'])[1 + g % 6], '2025 R' || (1 + g % 2),
        1 + g % 8, round(((60 + (g * 37) % 36000) / 3600.0)::numeric, 2)::float8,
        round(((g * 13) % 5000 / 10.0)::numeric, 2)::float8, case when g % 7 = 0 then 'EUR' else 'USD' end,
        'user' || g % 40, 'host-' || g % 25, 'project-' || g % 12,
        case when g % 500 = 0 then 'Active' else 'Completed' end, '10.0.' || g % 250 || '.1',
        case when g % 3 = 0 then 'job-' || g end, 'SRV1', '2025.1.0', 2, (g * 13) % 5000
      from generate_series(1, ${ROWS}) g,
        lateral (select '2026-11-01T00:00:00Z'::timestamptz - make_interval(secs => (g * 7919) % 34000000) as st) t`);
    return (await signInAs(db, 'viewer@export.example')).headers;
  },
  async ({ base }, headers) => {
    for (const [what, limit] of [
      ['usage export (streamed)', ROWS],
      ['usage grid page', 1000],
    ] as const) {
      const body = { customerNumber: ACCOUNT, limit, offset: 0 };
      const identity = await post(base, headers, body, 'identity');
      if (identity.status !== 200) throw new Error(`fetchUsage answered ${identity.status}`);
      for (const accept of ['identity', 'gzip', 'br']) {
        const times: number[] = [];
        let bytes = 0;
        // One warm-up call, then the rounds.
        for (let i = 0; i <= ROUNDS; i++) {
          const res = await post(base, headers, body, accept);
          const expected = accept === 'identity' ? undefined : accept;
          if (res.encoding !== expected) throw new Error(`${accept}: answered ${res.encoding}`);
          if (!decode(res.encoding, res.body).equals(identity.body))
            throw new Error(`${accept}: decodes to other bytes`);
          if (i > 0) times.push(res.ms);
          bytes = res.body.length;
        }
        const ratio = `${((bytes / identity.body.length) * 100).toFixed(1)} %`;
        row(
          `${what}, ${int(limit)} rows, ${accept}`,
          `${mb(bytes)}, ${pair(spread(times))} ms`,
          mb(identity.body.length),
          ratio,
        );
      }
    }
  },
);
console.log(`load average at the end ${loadAverage()}`);
console.log('\n| answer | wire bytes, last byte p50 / p95 | identity bytes | of identity | | |');
console.log('|---|---|---|---|---|---|');
for (const line of table) console.log(line);
