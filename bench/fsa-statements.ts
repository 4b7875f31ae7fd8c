import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { fsaApi } from '@lp/contract/fsa/api';
import { licenseServersApi } from '@lp/contract/license-servers/api';
import { type FsaDuration, priceLine } from '@lp/domain/fsa-pricing';
import { contactRoles } from '@lp/domain/policy';
import { fsaPrices, products } from '@lp/server/db/schema';
import { addContact, buildAccount, buildEntitlement, dayFromToday } from '@lp/server/harness/factories';
import { signInAs } from '@lp/server/harness/sign-in';
import { createTestApp } from '@lp/server/harness/test-app';
import pg from 'pg';
import { openBenchDatabase } from './bench-database.ts';

/**
 * What one 50-line FSA order sends to PostgreSQL (issue 23 §1): every statement of the order and of the bare
 * authenticated call bench/fsa.ts compares it with, counted and timed at the driver, and the request's time
 * outside the database (parsing, pricing, hashing, the answer). In-process (app.inject). The statements are counted
 * on PostgreSQL (the driver is wrapped); `--engine pglite` times the same calls on PGlite, where the database runs
 * in the process and no statement is counted. `npx tsx bench/fsa-statements.ts [--orders 20] [--print] [--engine]`.
 */

const { values: opt } = parseArgs({
  options: {
    orders: { type: 'string', default: '20' },
    print: { type: 'boolean', default: false },
    engine: { type: 'string', default: 'postgres' },
  },
});
const ORDERS = Number(opt.orders);

const CUSTOMER = '7120002';
const EMAIL = 'bench-fsa-statements@example.com';
const LINES = 50;
const part = (k: number) => `BS-P${String(k).padStart(2, '0')}`;
const PRICES = { price7Days: 1_000, price30Days: 3_500, price90Days: 9_000, price1Year: 30_000 };
const TERM = { startDate: dayFromToday(-30), endDate: dayFromToday(400) };
const DURATIONS: FsaDuration[] = ['7', '30', '90', '365'];

function line(k: number, startOffset: number, count: number, duration: FsaDuration) {
  const startdate = dayFromToday(startOffset);
  const price = priceLine({
    prices: { ...PRICES, price60Days: null, price180Days: null },
    contract: TERM,
    today: dayFromToday(0),
    startDate: startdate,
    duration,
    count,
  });
  if (!price.ok) throw new Error(price.error);
  return { ansysbpn: part(k), ansyscount: count, startdate, duration, ansysprice: price.costCents };
}
const orderLines = (i: number) =>
  Array.from({ length: LINES }, (_, k) => line(k, (i + k) % 30, 1 + ((i + k) % 3), DURATIONS[k % 4]));

/** Every statement the driver sends, with its time, while `recording` is on. */
let recording = false;
const log: { text: string; ms: number }[] = [];
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0] as string | { text?: string };
  const text = typeof first === 'string' ? first : (first?.text ?? '?');
  const started = performance.now();
  const done = (failed: boolean) => {
    if (recording) log.push({ text: `${failed ? '(failed) ' : ''}${text}`, ms: performance.now() - started });
  };
  // pg.Pool's own query passes a callback (and gets no promise); drizzle's transactions await the promise.
  const last = args.length - 1;
  const callback = args[last];
  if (typeof callback === 'function')
    args[last] = (err: unknown, res: unknown) => {
      done(Boolean(err));
      callback(err, res);
    };
  const answer = query.apply(this, args);
  if (answer && typeof (answer as Promise<unknown>).then === 'function')
    (answer as Promise<unknown>).then(
      () => done(false),
      () => done(true),
    );
  return answer;
} as never;

async function main() {
  const bench = await openBenchDatabase(opt.engine === 'pglite' ? 'pglite' : 'postgres', 4);
  try {
    const db = bench.database.db;
    const pglite = (bench.database as { pglite?: Record<string, (...args: unknown[]) => Promise<unknown>> })
      .pglite;
    if (pglite)
      // PGlite: every protocol message and the flush to its files, timed as the driver's statements are.
      for (const method of ['execProtocolStream', 'syncToFs']) {
        const original = pglite[method].bind(pglite);
        pglite[method] = async (...args: unknown[]) => {
          const started = performance.now();
          try {
            return await original(...args);
          } finally {
            if (recording) log.push({ text: method, ms: performance.now() - started });
          }
        };
      }
    await db.insert(products).values(
      Array.from({ length: LINES }, (_, k) => ({
        partNumber: part(k),
        name: `Bench FSA product ${k}`,
        family: 'Bench',
        daemon: 'ansyslmd',
        featureName: `bs_feature_${k}`,
      })),
    );
    await buildAccount(db, { customerNumber: CUSTOMER, name: 'Bench FSA statements', orgType: 'Direct' });
    await addContact(db, CUSTOMER, EMAIL, contactRoles.admin);
    const c = await buildEntitlement(db, CUSTOMER, {
      activationId: 'BS-ORDER',
      kind: 'FSA',
      licenseModel: 'FSA',
      ...TERM,
      currency: 'USD',
      poNumber: 'PO-BS',
      priceCents: 1e12,
      busopsEmails: 'ops@bench.example',
    });
    await db.insert(fsaPrices).values(
      Array.from({ length: LINES }, (_, k) => ({
        contractId: c.id,
        partNumber: part(k),
        price7DaysCents: PRICES.price7Days,
        price30DaysCents: PRICES.price30Days,
        price90DaysCents: PRICES.price90Days,
        price1YearCents: PRICES.price1Year,
      })),
    );
    const { headers } = await signInAs(db, EMAIL);
    // NODE_ENV production: the server does not check its own answers against the contract, as in the bench.
    const app = await createTestApp(bench.database, { NODE_ENV: 'production' });
    const call = async (url: string, payload: object) => {
      const res = await app.inject({ method: 'POST', url, headers, payload });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    };
    const order = (i: number) =>
      call(fsaApi.order.path, {
        customerNumber: CUSTOMER,
        fsaID: 'BS-ORDER',
        products: orderLines(i),
        orderKey: randomBytes(16).toString('hex'),
      });
    const bare = () => call(licenseServersApi.list.path, { customerNumber: CUSTOMER });
    const measure = async (what: string, run: (i: number) => Promise<void>) => {
      for (let i = 0; i < 3; i++) await run(i);
      const totals: number[] = [];
      const inSql: number[] = [];
      const each: number[][] = [];
      let statements: string[] = [];
      for (let i = 0; i < ORDERS; i++) {
        log.length = 0;
        recording = true;
        const started = performance.now();
        await run(i + 3);
        totals.push(performance.now() - started);
        recording = false;
        inSql.push(log.reduce((s, q) => s + q.ms, 0));
        statements = log.map((q) => q.text.replace(/\s+/g, ' ').slice(0, 140));
        log.forEach((q, k) => {
          each[k] = [...(each[k] ?? []), q.ms];
        });
      }
      const median = (xs: number[]) => xs.toSorted((a, b) => a - b)[Math.floor(xs.length / 2)];
      const total = median(totals);
      const sqlMs = median(inSql);
      console.log(
        `${what}: ${statements.length} statements; median ${total.toFixed(1)} ms, of which ${sqlMs.toFixed(1)} ms waiting on the driver, ${(total - sqlMs).toFixed(1)} ms outside it (n=${ORDERS})`,
      );
      if (opt.print)
        statements.forEach((s, k) => {
          console.log(`    ${median(each[k]).toFixed(2).padStart(6)} ms  ${s}`);
        });
    };
    // The account's first leases come with its first order: the bare call's gate (activations) needs them.
    await order(1000);
    await measure('bare call (POST /api/fulfillments/servers)', bare);
    await measure(`order of ${LINES} lines (POST /api/entitlements)`, order);
    await app.close();
  } finally {
    await bench.cleanup();
  }
}

await main();
