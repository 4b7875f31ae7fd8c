/**
 * Elastic accounts and realistic license-server traffic, for the benches that post usage (bench/elastic.ts,
 * bench/scale.ts).
 */
import type { UsageEventInput } from '@lp/contract/cls/schemas';
import { formatDate } from '@lp/domain/dates';
import type { Database } from '@lp/server/db/database';
import type { ElasticServer } from '@lp/server/features/cls-api/ingest';
import { projects, usernames } from '@lp/server/features/demo/catalogue';
import { Rng } from '@lp/server/features/demo/prng';
import {
  buildElasticEntitlement,
  buildElasticServer,
  type UsageSpec,
  usageEvents,
} from '@lp/server/harness/elastic-factories';
import { buildAccount } from '@lp/server/harness/factories';

export const DAY = 86_400_000;
/** Events per batch a license server posts. */
export const BATCH = 1000;
export const RATE_TABLE = '2025.1.0';
export const RATES = { Fluent: 2, Mechanical: 1.5, CFX: 2, HFSS: 3, 'LS-DYNA': 2.5, Maxwell: 1 };
const PRODUCTS = Object.keys(RATES);
export const day = (offsetDays: number) => formatDate(Date.now() + offsetDays * DAY);

/** An account with its elastic license server and three purchase orders over the last 13 months. */
export async function elasticAccount(db: Database['db'], customerNumber: string): Promise<ElasticServer> {
  await buildAccount(db, { customerNumber, name: `Bench ${customerNumber}` });
  return elasticServerOf(db, customerNumber);
}

/** An existing account's elastic license server and its three purchase orders over the last 13 months. */
export async function elasticServerOf(db: Database['db'], customerNumber: string): Promise<ElasticServer> {
  const elasticServerId = await buildElasticServer(db, customerNumber, `CLS-${customerNumber}`);
  const orders = [
    { quantity: 1_000_000, startDate: day(-400), endDate: day(-150) },
    { quantity: 2_000_000, startDate: day(-200), endDate: day(165) },
    { quantity: 2_000_000, startDate: day(-60), endDate: day(305) },
  ];
  for (const o of orders)
    await buildElasticEntitlement(db, customerNumber, { ...o, rateTableVersion: RATE_TABLE });
  return { customerNumber, elasticServerId };
}

/** Sessions starting evenly over [fromMs, toMs): 1-4 seats, exponential length (mean 2 h, at most 2 days). */
export function sessionSpecs(
  rng: Rng,
  prefix: string,
  first: number,
  count: number,
  total: number,
  fromMs: number,
  toMs: number,
) {
  return Array.from({ length: count }, (_, k): UsageSpec => {
    const i = first + k;
    const start = fromMs + ((i + rng.float()) / total) * (toMs - fromMs);
    const length = 30_000 + Math.min(-Math.log(1 - rng.float()) * 7_200_000, 2 * DAY);
    return {
      sessionId: `${prefix}-${i}`,
      product: rng.pick(PRODUCTS),
      count: rng.weighted([
        [1, 75],
        [2, 17],
        [4, 8],
      ]),
      start: new Date(start).toISOString(),
      end: new Date(start + length).toISOString(),
      user: rng.pick(usernames),
      host: `ws-${String(rng.int(1, 40)).padStart(3, '0')}`,
      project: rng.pick(projects),
    };
  });
}

/**
 * A license server's stream of batches: each batch carries the starts of the next sessions and the ends of
 * those started in the previous batch, as a server that reports every few seconds would send them.
 */
export function* eventBatches(
  seed: number,
  prefix: string,
  sessions: number,
  fromMs: number,
  toMs: number,
  size = BATCH,
) {
  const rng = new Rng(seed);
  let ends: UsageEventInput[] = [];
  for (let first = 0; first < sessions; first += size / 2) {
    const events = usageEvents(
      sessionSpecs(rng, prefix, first, Math.min(size / 2, sessions - first), sessions, fromMs, toMs),
    );
    yield [...events.filter((e) => e.type === 'start'), ...ends];
    ends = events.filter((e) => e.type === 'end');
  }
  if (ends.length) yield ends;
}
