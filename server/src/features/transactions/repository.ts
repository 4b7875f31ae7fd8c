import type { FilterRule } from '@lp/contract/query/schemas';
import { type FilterTest, parseFilter } from '@lp/domain/filter-rules';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/database.ts';
import { filterKindOf } from '../../platform/query/compile.ts';
import { accountScope, usageSessionsResource } from './resource.ts';

/** One side of a StartTime window: an instant (ms) and whether it is included. */
interface Bound {
  ms: number;
  inclusive: boolean;
}

/** A window of session starts; an absent side is open. */
export interface StartWindow {
  from?: Bound;
  to?: Bound;
}

const DAY_MS = 86_400_000;
// Outside these the day arithmetic below is not worth trusting: such filters count the raw rows.
const EARLIEST = Date.UTC(1900, 0, 1);
const LATEST = Date.UTC(9000, 0, 1);

function boundOf(test: FilterTest): { side: 'from' | 'to'; bound: Bound } | null {
  if (test.op !== 'compare' || test.operand.kind !== 'timestamp') return null;
  const { ms } = test.operand;
  if (ms < EARLIEST || ms > LATEST) return null;
  const inclusive = test.cmp === '>=' || test.cmp === '<=';
  return { side: test.cmp.startsWith('>') ? 'from' : 'to', bound: { ms, inclusive } };
}

/**
 * The window of a filter that names nothing but one StartTime range or comparison (DATERANGE, DAYRANGE, BEFORE,
 * AFTER, BEFOREDAY, AFTERDAY), or none at all; null for any other filter, an invalid one included (the engine
 * then counts, and refuses it in its own words).
 */
export function startTimeWindow(filter: FilterRule | undefined): StartWindow | null {
  let parsed: ReturnType<typeof parseFilter>;
  try {
    parsed = parseFilter(filterKindOf(usageSessionsResource), filter);
  } catch {
    return null;
  }
  if (!parsed) return {};
  if (parsed.criteria.length !== 1) return null;
  const [c] = parsed.criteria;
  if (c.name !== 'StartTime' || c.negate || c.tostring) return null;
  const window: StartWindow = {};
  for (const test of c.test.op === 'range' ? [c.test.from, c.test.to] : [c.test]) {
    const side = boundOf(test);
    if (!side || window[side.side]) return null;
    window[side.side] = side.bound;
  }
  return window;
}

const instant = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;
const day = (ms: number) => sql`${new Date(ms).toISOString().slice(0, 10)}::date`;
const and = (conditions: (SQL | undefined)[]) =>
  sql.join(
    conditions.filter((c): c is SQL => c !== undefined),
    sql` and `,
  );

/** The conditions on usage_sessions u of a window's own bounds, each as inclusive or exclusive as the filter says. */
const boundsOf = ({ from, to }: StartWindow) => ({
  lower: from && sql`u.start_time ${from.inclusive ? sql`>=` : sql`>`} ${instant(from.ms)}`,
  upper: to && sql`u.start_time ${to.inclusive ? sql`<=` : sql`<`} ${instant(to.ms)}`,
});

/**
 * A window cut at UTC midnights: the whole days inside it (a condition on usage_daily_counts c), and the conditions
 * on usage_sessions u of its partial days before and after them; `days` is null when no whole day is inside.
 */
function cutAtMidnights(
  customerNumber: string,
  elasticServerId: string | null | undefined,
  window: StartWindow,
) {
  const { from, to } = window;
  // The first whole day starts at the first midnight at or after the lower bound (after it, if excluded) …
  let first = from ? Math.ceil(from.ms / DAY_MS) * DAY_MS : undefined;
  if (from && !from.inclusive && first === from.ms) first = from.ms + DAY_MS;
  // … and the last one ends at the last midnight at or before the upper bound.
  const end = to ? Math.floor(to.ms / DAY_MS) * DAY_MS : undefined;
  const scope = accountScope(customerNumber, elasticServerId);
  const { lower, upper } = boundsOf(window);
  if (first !== undefined && end !== undefined && first >= end)
    return { days: null, whole: and([scope, lower, upper]), before: null, after: null };
  return {
    days: and([
      sql`c.customer_number = ${customerNumber}`,
      elasticServerId ? sql`c.server_id = ${elasticServerId}` : undefined,
      first !== undefined ? sql`c.day >= ${day(first)}` : undefined,
      end !== undefined ? sql`c.day < ${day(end)}` : undefined,
    ]),
    whole: null,
    before: first !== undefined ? and([scope, lower, sql`u.start_time < ${instant(first)}`]) : null,
    after: end !== undefined ? and([scope, sql`u.start_time >= ${instant(end)}`, upper]) : null,
  };
}

/**
 * The account's sessions (or its license server's) that started in `window` (decision 076): the whole UTC days
 * inside it from usage_daily_counts, the raw rows of the partial days at its edges, in one statement (one snapshot).
 */
export async function countStartsIn(
  db: Db,
  customerNumber: string,
  elasticServerId: string | null | undefined,
  window: StartWindow,
): Promise<number> {
  const cut = cutAtMidnights(customerNumber, elasticServerId, window);
  const rawCount = (where: SQL | null) =>
    where ? sql`(select count(*) from usage_sessions u where ${where})` : sql`0`;
  const query = cut.days
    ? sql`select (select coalesce(sum(c.sessions), 0) from usage_daily_counts c where ${cut.days})
        + ${rawCount(cut.before)} + ${rawCount(cut.after)} as n`
    : sql`select ${rawCount(cut.whole)} as n`;
  const [row] = await queryRows<{ n: string | number }>(db, query);
  return Number(row.n);
}

/**
 * The first `rows` products, in the engine's order, of the sessions that started in `window` (decision 077): the
 * whole days' from usage_daily_counts, the edge days' from the raw rows.
 */
export function productsStartedIn(
  customerNumber: string,
  elasticServerId: string | null | undefined,
  window: StartWindow,
  rows: number,
): SQL {
  const cut = cutAtMidnights(customerNumber, elasticServerId, window);
  const raw = (where: SQL) => sql`select u.product as v from usage_sessions u where ${where}`;
  const parts = cut.days
    ? [
        sql`select c.product as v from usage_daily_counts c where ${cut.days}`,
        ...[cut.before, cut.after].filter((w): w is SQL => w !== null).map(raw),
      ]
    : [raw(cut.whole)];
  return sql`select distinct v from (${sql.join(parts, sql` union all `)}) lp_d order by 1 limit ${sql.raw(String(rows))}`;
}

/**
 * The first `rows` users, in the engine's order, of the account's sessions that started in `window` (decision 077):
 * a loose index scan over usage_sessions_customer_user_idx, one probe per user rather than a read of every session.
 */
export function usersStartedIn(customerNumber: string, window: StartWindow, rows: number): SQL {
  const { lower, upper } = boundsOf(window);
  const inWindow = and([sql`u.customer_number = ${customerNumber}`, lower, upper]);
  // A recursive query runs only as far as its reader asks: the limit ends the probes.
  return sql`with recursive lp_d(v) as (
      select (select u.username from usage_sessions u where ${inWindow} order by u.username limit 1)
      union all
      select (select u.username from usage_sessions u where ${inWindow} and u.username > lp_d.v
        order by u.username limit 1)
      from lp_d where lp_d.v is not null)
    select v from lp_d where v is not null limit ${sql.raw(String(rows))}`;
}
