import { UTCDate } from '@date-fns/utc';
import { addDays } from 'date-fns/addDays';
import { subDays } from 'date-fns/subDays';
import { subMonths } from 'date-fns/subMonths';
import { type DayRange, formatDate, parseDay } from './dates.ts';

/*
 * The summary statement (spec 001 §2.2, §3, §4 "Statement export"): pure rules shared by the server (JSON and
 * PDF), the statement e-mails and the page. Amounts come in hundredths of a unit (the ledger's cents) and
 * leave as units, so every sum is exact before it is divided once.
 */

/** Spec 001 §4: negative product totals (credits) are shown under this name. */
export const BALANCE_ADJUSTMENT = 'Balance Adjustment';

/**
 * Usage no entitlement covered (rollup entitlement 0, the ledger's overage) is its own row of "Usage by
 * Purchase Order", labelled so nobody mistakes it for a purchase order.
 */
export const UNCOVERED_ENTITLEMENT_ID = 0;
export const UNCOVERED_PO = 'Overage';
export const UNCOVERED_ACTIVATION = 'Not covered by an entitlement';

export interface StatementProductTotal {
  product: string;
  total: number;
  currency: string;
}

export interface StatementEntitlement {
  id: number;
  activationId: string;
  poNumber: string | null;
  startDate: string;
  endDate: string | null;
  quantity: number;
  currency: string | null;
}

/** Rollup sums of one (entitlement, product): before the period and within it (hundredths of a unit). */
export interface UsageAggregate {
  entitlementId: number;
  product: string;
  beforeCents: number;
  withinCents: number;
}

export interface StatementRow {
  PONumber: string;
  ActivationId: string;
  StartDate: string;
  EndDate: string;
  BalanceBeforeStart: number;
  BalanceAtEnd: number;
  Used: number;
  Currency: string;
  LineItemQuantity: number;
  TotalUsed: number;
  Products: StatementProductTotal[];
}

export const centsToUnits = (cents: number) => Math.round(cents) / 100;
const unitsToCents = (units: number) => Math.round(units * 100);

const byTotalThenName = (a: StatementProductTotal, b: StatementProductTotal) =>
  b.total - a.total || a.product.localeCompare(b.product);

/** An entitlement belongs to the period when its dates overlap [from, to] (an open end never ends). */
export const overlapsPeriod = (e: Pick<StatementEntitlement, 'startDate' | 'endDate'>, period: DayRange) =>
  e.startDate <= period.to && (e.endDate === null || e.endDate >= period.from);

/**
 * Records and product totals of a statement. Balance on period start = quantity − usage before `from`;
 * at the end = quantity − usage through `to`; Used = usage within the period. An entitlement is listed when
 * it overlaps the period or has usage in it; the uncovered usage is listed when it has usage in the period.
 */
export function buildStatement(input: {
  period: DayRange;
  entitlements: readonly StatementEntitlement[];
  usage: readonly UsageAggregate[];
  /** Currency of the uncovered usage: the account's elastic currency. */
  defaultCurrency: string;
}): { records: StatementRow[]; products: StatementProductTotal[] } {
  const byEntitlement = new Map<number, UsageAggregate[]>();
  for (const u of input.usage) {
    const list = byEntitlement.get(u.entitlementId) ?? [];
    list.push(u);
    byEntitlement.set(u.entitlementId, list);
  }
  const row = (
    e: StatementEntitlement,
    label: { po: string; activation: string; start: string; end: string },
  ): StatementRow | null => {
    const usage = byEntitlement.get(e.id) ?? [];
    const before = usage.reduce((s, u) => s + u.beforeCents, 0);
    const within = usage.reduce((s, u) => s + u.withinCents, 0);
    const listed = e.id === UNCOVERED_ENTITLEMENT_ID ? within !== 0 : overlapsPeriod(e, input.period);
    if (!listed && within === 0) return null;
    const currency = e.currency ?? input.defaultCurrency;
    const quantity = unitsToCents(e.quantity);
    return {
      PONumber: label.po,
      ActivationId: label.activation,
      StartDate: label.start,
      EndDate: label.end,
      BalanceBeforeStart: centsToUnits(quantity - before),
      BalanceAtEnd: centsToUnits(quantity - before - within),
      Used: centsToUnits(within),
      Currency: currency,
      LineItemQuantity: e.quantity,
      TotalUsed: centsToUnits(before + within),
      Products: usage
        .filter((u) => u.withinCents !== 0)
        .map((u) => ({ product: u.product, total: centsToUnits(u.withinCents), currency }))
        .sort(byTotalThenName),
    };
  };

  const records: StatementRow[] = [];
  const sorted = [...input.entitlements].sort(
    (a, b) => a.startDate.localeCompare(b.startDate) || a.activationId.localeCompare(b.activationId),
  );
  for (const e of sorted) {
    const r = row(e, {
      po: e.poNumber ?? '',
      activation: e.activationId,
      start: e.startDate,
      end: e.endDate ?? '',
    });
    if (r) records.push(r);
  }
  const uncovered = row(
    {
      id: UNCOVERED_ENTITLEMENT_ID,
      activationId: UNCOVERED_ACTIVATION,
      poNumber: UNCOVERED_PO,
      startDate: input.period.from,
      endDate: input.period.to,
      quantity: 0,
      currency: null,
    },
    { po: UNCOVERED_PO, activation: UNCOVERED_ACTIVATION, start: input.period.from, end: input.period.to },
  );
  if (uncovered) records.push(uncovered);

  // Top-level totals per (product, currency) over every listed row, summed in cents.
  const totals = new Map<string, { product: string; currency: string; cents: number }>();
  for (const r of records) {
    for (const p of r.Products) {
      const key = JSON.stringify([p.product, p.currency]);
      const t = totals.get(key) ?? { product: p.product, currency: p.currency, cents: 0 };
      t.cents += unitsToCents(p.total);
      totals.set(key, t);
    }
  }
  const products = [...totals.values()]
    .filter((t) => t.cents !== 0)
    .map((t) => ({ product: t.product, total: centsToUnits(t.cents), currency: t.currency }))
    .sort(byTotalThenName);
  return { records, products };
}

/** Product totals as the grids show them: a negative total (a credit) reads "Balance Adjustment". */
export const displayProducts = (products: readonly StatementProductTotal[]): StatementProductTotal[] =>
  products.map((p) => (p.total < 0 ? { ...p, product: BALANCE_ADJUSTMENT } : p));

export interface PieSlice {
  name: string;
  value: number;
}

/** Pie data (spec 001 §4): negative totals are dropped; zero totals too, as they would draw no wedge. */
export const pieSlices = (products: readonly StatementProductTotal[]): PieSlice[] =>
  products.filter((p) => p.total > 0).map((p) => ({ name: p.product, value: p.total }));

export const statementPdfFileName = (customerNumber: string, period: DayRange) =>
  `ElasticLicensingSummaryStatement ${customerNumber} ${period.from} ${period.to}.pdf`;

/** Why a statement period is refused, or null when it is two real days with from ≤ to. */
export function statementPeriodProblem(period: DayRange): string | null {
  if (!parseDay(period.from) || !parseDay(period.to))
    return 'Invalid period: dates must be real days YYYY-MM-DD';
  if (period.from > period.to) return 'Invalid period: the start date is after the end date';
  return null;
}

export type StatementEmailKind = 'week' | 'month';

/**
 * The period of a statement e-mail ending on the day of `date` (UTC): the 7 days through that day, or
 * one month through that day (the day after the same date a month earlier; a month ending on the
 * last day of a month is that whole calendar month).
 */
export function statementEmailPeriod(kind: StatementEmailKind, date: Date): DayRange {
  const end = new UTCDate(date.getTime());
  const to = formatDate(end);
  if (kind === 'week') return { from: formatDate(subDays(end, 6)), to };
  // subMonths clamps (Apr 30 → Mar 30), so a month ending on a month's last day is taken as that whole month.
  const endsMonth = addDays(end, 1).getUTCDate() === 1;
  return { from: endsMonth ? `${to.slice(0, 8)}01` : formatDate(addDays(subMonths(end, 1), 1)), to };
}
