/**
 * Large-pages benchmark (issue 8 §2, decision 021): the real server as its own process on a throw-away
 * PostgreSQL database, one account with N usage sessions, then 20 concurrent 30 000-row /api/fetchUsage calls
 * (the CSV export's request) while a probe user keeps asking a 20-row page of another account. Measured:
 * the server's RSS (VmRSS from /proc/<pid>/status every 25 ms) idle and its peak under the load, and the
 * probe's latency under the load against the same probe idle just before (the machine is shared and noisy,
 * so the ratio is the result). Two loads: 20 calls by one user, and one call each by 20 users.
 *
 *   npx tsx bench/large-pages.ts [--rows 31000] [--calls 20] [--server-dir DIR]
 *
 * --server-dir runs the server of another checkout (e.g. the commit before a change) against the same data.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { contactRoles } from '@lp/domain/policy';
import { addContact, buildAccount } from '@lp/server/harness/factories';
import { signInAs } from '@lp/server/harness/sign-in';
import { sql } from 'drizzle-orm';
import { openBenchDatabase } from './bench-database.ts';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '31000' },
    calls: { type: 'string', default: '20' },
    'server-dir': { type: 'string' },
  },
});
const rows = Number(args.rows);
const calls = Number(args.calls);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverDir = path.resolve(args['server-dir'] ?? root);

const BIG = '5500001';
const SMALL = '5500002';

function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const mb = (kb: number) => (kb / 1024).toFixed(0);
const ms = (n: number) => n.toFixed(n < 10 ? 2 : 1);

function rssKb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

const bench = await openBenchDatabase('postgres', 2);
const { db } = bench.database;
try {
  await buildAccount(db, { customerNumber: BIG, name: 'Big Usage Ltd' });
  await buildAccount(db, { customerNumber: SMALL, name: 'Small Usage Ltd' });
  await addContact(db, SMALL, 'probe@small.example', contactRoles.viewer);
  const probe = (await signInAs(db, 'probe@small.example')).headers;
  const loaders: Record<string, string>[] = [];
  for (let i = 0; i < calls; i++) {
    await addContact(db, BIG, `user${i}@big.example`, contactRoles.viewer);
    loaders.push((await signInAs(db, `user${i}@big.example`)).headers);
  }
  // Rows like bench/elastic.ts's, all of one account (plus 500 of the probe's account).
  await db.execute(sql`
    insert into usage_sessions (customer_number, session_id, start_time, end_time, product, product_version,
      product_count, hours, charge, currency, username, host, project, session_status, referer_ip, cloud_job_id,
      server_id, rate_table_version, rate, charged_cents)
    select case when g <= 500 then ${SMALL} else ${BIG} end, 'S' || g, st,
      case when g % 500 = 0 then null else st + make_interval(secs => 60 + (g * 37) % 36000) end,
      (array['Fluent','Mechanical','CFX','HFSS','LS-DYNA','Maxwell'])[1 + g % 6], '2025 R' || (1 + g % 2),
      1 + g % 8, round(((60 + (g * 37) % 36000) / 3600.0)::numeric, 2)::float8,
      round(((g * 13) % 5000 / 10.0)::numeric, 2)::float8, case when g % 7 = 0 then 'EUR' else 'USD' end,
      'user' || g % 40, 'host-' || g % 25, 'project-' || g % 12,
      case when g % 500 = 0 then 'Active' else 'Completed' end, '10.0.' || g % 250 || '.1',
      case when g % 3 = 0 then 'job-' || g end, 'SRV1', '2025.1.0', 2, (g * 13) % 5000
    from generate_series(1, ${rows + 500}) g,
      lateral (select '2026-11-01T00:00:00Z'::timestamptz - make_interval(secs => (g * 7919) % 34000000) as st) t`);
  await db.execute(sql`vacuum analyze usage_sessions`);

  const port = 18_000 + Math.floor(Math.random() * 700);
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['server/src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      DATABASE_URL: bench.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_ON_EMPTY: 'false',
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const pid = server.pid ?? 0;
  try {
    // Ready when the server says so (its ready line), or failed when it exits first.
    await new Promise<void>((resolve, reject) => {
      let out = '';
      server.stdout?.on('data', (chunk: Buffer) => {
        process.stdout.write(chunk);
        out += chunk.toString();
        if (out.includes('Licensing Portal is ready at')) resolve();
      });
      server.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready`)));
    });
    const post = (headers: Record<string, string>, body: unknown) =>
      fetch(`${base}/api/fetchUsage`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const large = { customerNumber: BIG, limit: 30_000, offset: 0 };
    const small = { customerNumber: SMALL, limit: 20 };
    const probeOnce = async () => {
      const started = performance.now();
      const res = await post(probe, small);
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`probe answered ${res.status}`);
      return performance.now() - started;
    };
    // Warm-up: code paths compiled, pools filled.
    for (let i = 0; i < 3; i++) await (await post(loaders[0], large)).arrayBuffer();
    for (let i = 0; i < 50; i++) await probeOnce();
    const results: string[] = [];

    async function scenario(name: string, who: (i: number) => Record<string, string>) {
      // The previous scenario's calls were all read to the end, so the server is idle again.
      const idle: number[] = [];
      for (let i = 0; i < 200; i++) idle.push(await probeOnce());
      const idleRss = rssKb(pid);
      let peak = idleRss;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssKb(pid));
      }, 25);
      const started = performance.now();
      let running = true;
      const statuses: number[] = [];
      const load = Promise.all(
        Array.from({ length: calls }, async (_, i) => {
          const res = await post(who(i), large);
          await res.arrayBuffer();
          statuses.push(res.status);
        }),
      ).finally(() => {
        running = false;
      });
      const busy: number[] = [];
      while (running) busy.push(await probeOnce());
      await load;
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      const ok = statuses.filter((s) => s === 200).length;
      const refused = statuses.filter((s) => s === 429).length;
      const p99 = percentile(busy, 99);
      results.push(
        `| ${name} | ${mb(idleRss)} | ${mb(peak)} | +${mb(peak - idleRss)} | ${ok} / ${refused} / ${calls - ok - refused} | ${seconds.toFixed(1)} | ${ms(percentile(idle, 50))} / ${ms(percentile(idle, 99))} | ${ms(percentile(busy, 50))} / ${ms(p99)} (n=${busy.length}) | ${(p99 / percentile(idle, 99)).toFixed(1)} |`,
      );
    }
    await scenario(`${calls} calls by one user`, () => loaders[0]);
    await scenario(`1 call each by ${calls} users`, (i) => loaders[i]);

    console.log(
      `\nserver: ${serverDir}; ${rows.toLocaleString('en-US')} rows in the big account; ${os.cpus().length} cores; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}\n`,
    );
    console.log(
      '| load | RSS idle MB | RSS peak MB | RSS growth MB | 200 / 429 / other | load s | probe idle p50 / p99 ms | probe under load p50 / p99 ms | p99 ratio |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const line of results) console.log(line);
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
} finally {
  await bench.cleanup();
}
