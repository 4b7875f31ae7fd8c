/**
 * Notices job benchmark (issue 13 §3: the daily notices job over 10 000 accounts ≤ 60 s). The job runs in this
 * process on a throw-away database, as an API node's job runner would run it:
 *  first       the day's first run: every finding is new, recorded and mailed (one transaction per account)
 *  again       the same day again (a restart, a second node): every finding is already recorded, nothing is sent
 * Baseline: `again` is the job's floor (the same facts read and compared); first ÷ again is what recording and
 * mailing add. Each account: one administrator, three leases (ending in 5, 40 and 200 days), a perpetual whose
 * maintenance ends in 20 days, an elastic entitlement 85 % used and an FSA contract 90 % used with a busops list,
 * its lines ordered over the last 30 days — about six findings and two e-mails per account.
 *
 *   npx tsx bench/notices.ts [--engines pglite,postgres] [--accounts N]
 *   (also `npm run bench:notices -w @lp/bench -- ...`)
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { shiftDay } from '@lp/domain/spend-forecast';
import { runNotices } from '@lp/server/features/notices/service';
import { loadConfig } from '@lp/server/platform/config';
import type { AppContext } from '@lp/server/platform/context';
import { openBenchDatabase } from './bench-database.ts';
import { fmt, int, row, table } from './measure.ts';

const { values: opt } = parseArgs({
  options: {
    engines: { type: 'string', default: 'pglite,postgres' },
    accounts: { type: 'string', default: '10000' },
  },
});
const ACCOUNTS = Number(opt.accounts);
const TODAY = new Date().toISOString().slice(0, 10);
const silent = {
  info() {},
  warn() {},
  error() {},
  debug() {},
  trace() {},
  fatal() {},
  child: () => silent,
  level: 'silent',
};

/** The world above with one INSERT … SELECT generate_series per table. */
async function fill(raw: (text: string, params: unknown[]) => Promise<unknown>) {
  const n = ACCOUNTS;
  const cn = `'N' || lpad(g::text, 7, '0')`;
  await raw(
    `insert into accounts (customer_number, name) select ${cn}, 'Account ' || g from generate_series(1, $1) g`,
    [n],
  );
  await raw(
    `insert into portal_contacts (customer_number, email, role)
     select ${cn}, 'admin' || g || '@example.com', 'Licensing Portal Administrator' from generate_series(1, $1) g`,
    [n],
  );
  await raw(
    `insert into entitlements (customer_number, activation_id, kind, license_model, quantity, start_date, end_date, product_name)
     select ${cn}, 'L-' || g || '-' || d, 'SSL', 'Lease', 1, $2, to_char($3::date + d, 'YYYY-MM-DD'), 'Solver'
     from generate_series(1, $1) g, unnest(array[5, 40, 200]) d`,
    [n, shiftDay(TODAY, -100), TODAY],
  );
  await raw(
    `insert into entitlements (customer_number, activation_id, kind, license_model, quantity, start_date, end_date, version_date, product_name)
     select ${cn}, 'P-' || g, 'SSL', 'Perpetual', 1, $2, null, $3, 'CFD' from generate_series(1, $1) g`,
    [n, shiftDay(TODAY, -400), shiftDay(TODAY, 20)],
  );
  await raw(
    `insert into entitlements (customer_number, activation_id, kind, license_model, quantity, used_cents, start_date, end_date, product_name)
     select ${cn}, 'EL-' || g, 'ELASTIC', 'Elastic', 1000, 85000, $2, $3, 'Elastic Units' from generate_series(1, $1) g`,
    [n, shiftDay(TODAY, -100), shiftDay(TODAY, 265)],
  );
  await raw(
    `insert into entitlements (customer_number, activation_id, kind, license_model, quantity, start_date, end_date, currency, price_cents, busops_emails)
     select ${cn}, 'FSA-' || g, 'FSA', 'FSA', 1, $2, $3, 'USD', 100000, 'ops@vendor.example' from generate_series(1, $1) g`,
    [n, shiftDay(TODAY, -100), shiftDay(TODAY, 265)],
  );
  await raw(
    `insert into entitlements (customer_number, activation_id, kind, license_model, quantity, start_date, end_date, price_cents, fsa_contract_id, ordered_at, product_name)
     select c.customer_number, c.activation_id || '-' || k, 'SSL', 'Lease', 1, $1, $2, 30000, c.id,
       ($3::date - (k * 7))::timestamptz, 'Solver'
     from entitlements c, generate_series(1, 3) k where c.kind = 'FSA'`,
    [TODAY, shiftDay(TODAY, 300), TODAY],
  );
}

async function benchEngine(engine: 'pglite' | 'postgres') {
  const bench = await openBenchDatabase(engine, 5);
  try {
    const filled = performance.now();
    await fill(bench.raw);
    console.log(
      `${engine}: ${int(ACCOUNTS)} accounts filled in ${fmt((performance.now() - filled) / 1000)} s`,
    );
    const ctx = {
      config: loadConfig({ NODE_ENV: 'production', DATA_DIR: os.tmpdir() }),
      database: bench.database,
      db: bench.database.db,
      secret: Buffer.alloc(32),
      log: silent,
    } as unknown as AppContext;
    const t0 = performance.now();
    const first = await runNotices(ctx, TODAY);
    const firstS = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    const again = await runNotices(ctx, TODAY);
    const againS = (performance.now() - t1) / 1000;
    row(
      `${engine}: first run, ${int(ACCOUNTS)} accounts (${int(first.recorded)} findings, ${int(first.emails)} e-mails)`,
      `${fmt(firstS)} s`,
      `${fmt(againS)} s (again, ${int(again.recorded)} new)`,
      (firstS / againS).toFixed(2),
      '≤ 60 s',
      firstS <= 60,
    );
  } finally {
    await bench.cleanup();
  }
}

for (const engine of opt.engines.split(',') as ('pglite' | 'postgres')[]) await benchEngine(engine);
console.log(
  ['', '| measure | time | baseline | ratio | target | |', '|---|---|---|---|---|---|', ...table].join('\n'),
);
