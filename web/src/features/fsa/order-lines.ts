import { messages } from '@lp/contract/common/errors';
import type { FsaOrderResult, fsaOrderRequestSchema } from '@lp/contract/fsa/schemas';
import { parseDay } from '@lp/domain/dates';
import { FSA_MANUAL_DRAWDOWN_PART } from '@lp/domain/entitlements';
import {
  checkManualLine,
  duplicateLines,
  earliestStart,
  FSA_DURATIONS,
  type FsaDuration,
  type FsaPriceList,
  type FsaTerm,
  formatMoney,
  type LinePrice,
  offeredDurations,
  priceLine,
  type TypedAmount,
  withTypedAmount,
} from '@lp/domain/fsa-pricing';
import type { z } from 'zod';

/**
 * The FSA "Order Products" lines form as pure state (spec 002 §2 "FSA order creation screen", §4 "FSA entitlements
 * and order page", §5 "FSA order lines"; issue 12 §3). The page holds `OrderLinesState` in a reducer; every rule the
 * form shows (durations, end date, cost, errors, balance, enable rules) is derived by `orderView` with the same
 * pricing module the server uses, so what the form shows is what the server draws.
 */

/** The field the user changed last on a line: picks which balance text the line shows (spec 002 §5). */
export type EditedField = 'product' | 'count' | 'startDate' | 'duration' | 'cost';

/** A field a line requires (spec 002 §5 "Required on a line"); the count is never missing (empty = 1). */
export type LineField = 'product' | 'duration' | 'startDate' | 'endDate' | 'unitCost' | 'cost' | 'currency';

export interface OrderLine {
  /** Stable React key */
  rowId: string;
  /** 'product_{index}': the line's position in the form */
  productId: string;
  partNumber: string;
  product: string;
  manualEntry: boolean;
  /** Raw count input; '' prices as 1 */
  count: string;
  startDate: string;
  /** Standard lines; '' = not chosen */
  duration: FsaDuration | '';
  /** Manual lines' end date input (business operations); standard lines' end date is derived (`LineView`) */
  endDate: string;
  /** Raw unit cost typed by business operations; '' on a standard line = the price list's */
  unitCost: string;
  /** Raw cost typed by business operations ('' = count × unit cost); when typed it is the cost ordered (decision 050) */
  cost: string;
  currency: string;
  edited: EditedField | null;
  /** The server's err after a partial failure; cleared by any edit of the line */
  serverError: string | null;
}

export interface OrderProduct {
  partNumber: string;
  name: string;
  prices: FsaPriceList;
  /** '- Shared Web' / '- Named User' products are ordered as manual entries */
  manual: boolean;
}

export interface OrderContext {
  contract: FsaTerm & { entitlementId: string; currency: string; remainingCents: number };
  products: OrderProduct[];
  /** 'YYYY-MM-DD' */
  today: string;
  busops: boolean;
}

export interface OrderLinesState {
  lines: OrderLine[];
  nextRow: number;
  /** The line edited last: where the balance error goes */
  lastEditedRow: string | null;
}

export const emptyOrderLines: OrderLinesState = { lines: [], nextRow: 1, lastEditedRow: null };

/** The request schema's limits (contract/src/fsa/schemas.ts): beyond them a line cannot be ordered. */
const MAX_COUNT = 1_000_000;
const MAX_UNIT_CENTS = 1_000_000_000;

const renumber = (lines: OrderLine[]) => lines.map((l, i) => ({ ...l, productId: `product_${i}` }));

function addLine(state: OrderLinesState, ctx: OrderContext, manualEntry: boolean): OrderLinesState {
  const line: OrderLine = {
    rowId: `row_${state.nextRow}`,
    productId: '',
    partNumber: manualEntry ? FSA_MANUAL_DRAWDOWN_PART : '',
    product: '',
    manualEntry,
    count: '1',
    startDate: earliestStart(ctx.contract, ctx.today),
    duration: '',
    endDate: '',
    unitCost: '',
    cost: '',
    currency: ctx.contract.currency,
    edited: null,
    serverError: null,
  };
  return { ...state, lines: renumber([...state.lines, line]), nextRow: state.nextRow + 1 };
}

/** Add product → Standard product. Ignored while `canAddLine` is false. */
export function addStandardLine(state: OrderLinesState, ctx: OrderContext): OrderLinesState {
  return orderView(state, ctx).canAddLine ? addLine(state, ctx, false) : state;
}

/** Add product → Manual entry (business operations only; part number FSA0030216 until a product is named). */
export function addManualLine(state: OrderLinesState, ctx: OrderContext): OrderLinesState {
  return ctx.busops && orderView(state, ctx).canAddLine ? addLine(state, ctx, true) : state;
}

export function removeLine(state: OrderLinesState, rowId: string): OrderLinesState {
  return { ...state, lines: renumber(state.lines.filter((l) => l.rowId !== rowId)) };
}

export function removeAllLines(state: OrderLinesState): OrderLinesState {
  return { ...state, lines: [] };
}

function edit(
  state: OrderLinesState,
  rowId: string,
  edited: EditedField,
  change: (line: OrderLine) => Partial<OrderLine>,
): OrderLinesState {
  const line = state.lines.find((l) => l.rowId === rowId);
  if (!line) return state;
  const next = { ...line, ...change(line), edited, serverError: null };
  return {
    ...state,
    lines: state.lines.map((l) => (l.rowId === rowId ? next : l)),
    lastEditedRow: rowId,
  };
}

/** Products the product autocomplete offers: manual-entry products only to business operations. */
export function productOptions(ctx: OrderContext): OrderProduct[] {
  return ctx.busops ? ctx.products : ctx.products.filter((p) => !p.manual);
}

/** Keeps the chosen duration only while it is still offered (the select cannot show one that is not). */
function keptDuration(
  line: OrderLine,
  product: OrderProduct | undefined,
  ctx: OrderContext,
  startDate: string,
) {
  if (!product || line.duration === '') return '';
  return offeredDurations(product.prices, ctx.contract, startDate).includes(line.duration)
    ? line.duration
    : '';
}

/**
 * The product: a standard line takes an offered product by part number (a manual-entry product turns the line
 * into a manual entry, spec 002 §9); a manual line takes free text, with the matching product's part number.
 */
export function setProduct(state: OrderLinesState, ctx: OrderContext, rowId: string, value: string) {
  return edit(state, rowId, 'product', (line) => {
    if (line.manualEntry) {
      const named = productOptions(ctx).find((p) => p.name === value);
      return { product: value, partNumber: named?.partNumber ?? FSA_MANUAL_DRAWDOWN_PART };
    }
    const product = productOptions(ctx).find((p) => p.partNumber === value);
    if (!product) return { product: '', partNumber: '', duration: '', unitCost: '', cost: '' };
    return {
      product: product.name,
      partNumber: product.partNumber,
      manualEntry: product.manual,
      duration: product.manual ? '' : keptDuration(line, product, ctx, line.startDate),
      unitCost: '',
      cost: '',
    };
  });
}

export function setCount(state: OrderLinesState, rowId: string, count: string): OrderLinesState {
  // A typed cost stays the line's cost (decision 050); a typed unit cost is multiplied by the new count.
  return edit(state, rowId, 'count', () => ({ count }));
}

/**
 * The start date as typed, also when it is not a real day or is out of range (its error shows on the line). The
 * chosen duration stays: one that no longer fits shows 'End date is invalid.' instead of vanishing (issue 21).
 */
export function setStartDate(state: OrderLinesState, rowId: string, startDate: string) {
  return edit(state, rowId, 'startDate', () => ({ startDate }));
}

export function setDuration(
  state: OrderLinesState,
  rowId: string,
  duration: FsaDuration | '',
): OrderLinesState {
  return edit(state, rowId, 'duration', () => ({ duration }));
}

const isBusopsManual = (state: OrderLinesState, ctx: OrderContext, rowId: string) =>
  ctx.busops && state.lines.some((l) => l.rowId === rowId && l.manualEntry);

/** Business operations, manual lines: the end date is the line's duration, so its balance text is the duration's. */
export function setEndDate(state: OrderLinesState, ctx: OrderContext, rowId: string, endDate: string) {
  return isBusopsManual(state, ctx, rowId) ? edit(state, rowId, 'duration', () => ({ endDate })) : state;
}

/** Business operations: the unit cost (manual lines, or overriding a standard line's price). */
export function setUnitCost(state: OrderLinesState, ctx: OrderContext, rowId: string, unitCost: string) {
  return ctx.busops ? edit(state, rowId, 'cost', () => ({ unitCost, cost: '' })) : state;
}

/**
 * Business operations: the line's cost. It is what is ordered, to the cent (decision 050); the unit cost shown is
 * derived from it (cost ÷ count, half-up), so a typed unit cost gives way.
 */
export function setCost(state: OrderLinesState, ctx: OrderContext, rowId: string, cost: string) {
  return ctx.busops ? edit(state, rowId, 'cost', () => ({ cost, unitCost: '' })) : state;
}

/** A typed amount as shown on leaving the input: 2 decimals and separators; '' and unreadable text stay as typed. */
export function formatTypedMoney(text: string): string {
  const cents = parseMoney(text);
  return cents === null ? text : formatMoney(cents);
}

/** An amount as typed ('1,234.5'): commas removed (spec 002 §5), at most 2 decimals; null if not one. */
function parseMoney(text: string): number | null {
  const match = /^(\d+)(?:\.(\d{0,2}))?$/.exec(text.replaceAll(',', '').trim());
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return cents <= MAX_UNIT_CENTS ? cents : null;
}

/** The count input: '' = 1 (spec 002 §5); anything but digits is not a count (NaN fails the positive check). */
function parseCount(text: string): number {
  const trimmed = text.trim();
  if (trimmed === '') return 1;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

function productOf(line: OrderLine, ctx: OrderContext): OrderProduct | undefined {
  return ctx.products.find((p) => p.partNumber === line.partNumber);
}

export interface LineView {
  line: OrderLine;
  offeredDurations: FsaDuration[];
  /** The end date shown: priced for standard lines, the input for manual ones */
  endDate: string;
  /** The unit cost in effect, '1,234.50', or '' */
  unitCost: string;
  /** count × unit cost, '1,234.50', or '' when the line is not priced */
  cost: string;
  costCents: number | null;
  /** What the line shows: the first failing rule (server error, line checks, duplicate, balance) */
  error: string | null;
  /** The balance text, only on the edited line while the total exceeds the balance */
  balanceError: string | null;
  missing: LineField[];
  /** No error and nothing missing */
  valid: boolean;
}

export interface OrderView {
  lines: LineView[];
  totalCents: number;
  availableCents: number;
  /** Total Cost and Available as shown, '1,234.50' */
  total: string;
  available: string;
  overBalance: boolean;
  canOrder: boolean;
  canAddLine: boolean;
}

interface Checked {
  offered: FsaDuration[];
  endDate: string;
  price: LinePrice | null;
  missing: LineField[];
}

const countError = (count: number): LinePrice | null =>
  Number.isSafeInteger(count) && count > 0 && count <= MAX_COUNT
    ? null
    : { ok: false, field: 'count', error: messages.fsaCountPositive };

/** The start date rule alone, for a line that cannot be priced yet (its own error shows as soon as it is typed). */
function startError(ctx: OrderContext, startDate: string): LinePrice | null {
  const ok =
    startDate === '' ||
    (parseDay(startDate) !== null &&
      startDate >= earliestStart(ctx.contract, ctx.today) &&
      startDate <= ctx.contract.endDate);
  return ok ? null : { ok: false, field: 'startDate', error: messages.fsaStartDateInvalid };
}

/** The amount busops typed: the cost wins over the unit cost; undefined = none typed, null = unreadable. */
function typedAmount(line: OrderLine): TypedAmount | null | undefined {
  if (line.cost !== '') {
    const costCents = parseMoney(line.cost);
    return costCents === null ? null : { costCents };
  }
  if (line.unitCost !== '') {
    const unitCents = parseMoney(line.unitCost);
    return unitCents === null ? null : { unitCents };
  }
  return undefined;
}

function checkStandard(line: OrderLine, ctx: OrderContext): Checked {
  const product = productOf(line, ctx);
  const fitting = product ? offeredDurations(product.prices, ctx.contract, line.startDate) : [];
  // The chosen duration stays selectable (shown) while it does not fit; its line shows why.
  const offered =
    line.duration === '' || fitting.includes(line.duration)
      ? fitting
      : FSA_DURATIONS.filter((d) => d === line.duration || fitting.includes(d));
  const missing: LineField[] = [];
  if (!product) missing.push('product');
  if (line.duration === '') missing.push('duration');
  if (line.startDate === '') missing.push('startDate');
  const override = typedAmount(line);
  if (override === null) missing.push('unitCost', 'cost');
  const count = parseCount(line.count);
  const early = countError(count) ?? startError(ctx, line.startDate);
  if (early || !product || line.duration === '' || line.startDate === '')
    return { offered, endDate: '', price: early, missing };
  const priced = priceLine({
    ...ctx,
    prices: product.prices,
    startDate: line.startDate,
    duration: line.duration,
    count,
  });
  if (!priced.ok) missing.push('endDate', 'unitCost', 'cost');
  const endDate = priced.ok ? priced.endDate : '';
  // An unreadable unit cost leaves the line unpriced (missing), not priced at the list price.
  if (override === null) return { offered, endDate, price: priced.ok ? null : priced, missing };
  return {
    offered,
    endDate,
    price: override === undefined ? priced : withTypedAmount(priced, override, count),
    missing,
  };
}

function checkManual(line: OrderLine, ctx: OrderContext): Checked {
  const missing: LineField[] = [];
  if (line.product.trim() === '') missing.push('product');
  if (line.startDate === '') missing.push('startDate');
  if (line.endDate === '') missing.push('endDate');
  const typed = typedAmount(line);
  if (!typed) missing.push('cost');
  const count = parseCount(line.count);
  const early = countError(count) ?? startError(ctx, line.startDate);
  if (early || line.startDate === '' || line.endDate === '')
    return { offered: [], endDate: line.endDate, price: early, missing };
  const price = checkManualLine({
    ...ctx,
    startDate: line.startDate,
    endDate: line.endDate,
    count,
    ...(typed ?? { unitCents: 0 }),
  });
  return {
    offered: [],
    endDate: line.endDate,
    price: price.ok && !typed ? null : price,
    missing,
  };
}

const balanceMessages: Record<EditedField, string> = {
  product: messages.fsaBalanceProduct,
  count: messages.fsaBalanceCount,
  startDate: messages.fsaBalanceStartDate,
  duration: messages.fsaBalanceDuration,
  cost: messages.fsaBalanceCost,
};

/** Everything the form shows and enables, derived from the lines and the contract. */
export function orderView(state: OrderLinesState, ctx: OrderContext): OrderView {
  const checked = state.lines.map((line) =>
    line.manualEntry ? checkManual(line, ctx) : checkStandard(line, ctx),
  );
  const costs = checked.map((c) => (c.price?.ok ? c.price.costCents : null));
  const totalCents = costs.reduce<number>((sum, c) => sum + (c ?? 0), 0);
  const availableCents = ctx.contract.remainingCents - totalCents;
  const overBalance = availableCents < 0;

  // Only complete, correct lines can repeat one another; a manual line's product is its name.
  const comparable = state.lines
    .map((line, i) => ({ line, i, c: checked[i] as Checked }))
    .filter(({ c }) => c.price?.ok && c.missing.length === 0);
  const duplicates = new Set(
    duplicateLines(
      comparable.map(({ line, c }) => ({
        partNumber: line.manualEntry ? `${line.partNumber}\n${line.product.trim()}` : line.partNumber,
        count: parseCount(line.count),
        startDate: line.startDate,
        duration: line.duration,
        endDate: c.endDate,
      })),
    ).map((k) => comparable[k]?.i),
  );

  const balanceRow = overBalance
    ? (state.lines.find((l) => l.rowId === state.lastEditedRow) ?? state.lines.at(-1))
    : undefined;

  const lines = state.lines.map((line, i): LineView => {
    const c = checked[i] as Checked;
    const balanceError = line === balanceRow ? balanceMessages[line.edited ?? 'product'] : null;
    const ownError =
      line.serverError ??
      (c.price && !c.price.ok ? c.price.error : null) ??
      (duplicates.has(i) ? messages.fsaDuplicateLine : null);
    const missing = line.currency === '' ? [...c.missing, 'currency' as const] : c.missing;
    const error = ownError ?? balanceError;
    const costCents = costs[i] ?? null;
    return {
      line,
      offeredDurations: c.offered,
      endDate: c.endDate,
      unitCost: c.price?.ok ? formatMoney(c.price.unitCents) : '',
      cost: costCents === null ? '' : formatMoney(costCents),
      costCents,
      error,
      balanceError,
      missing,
      valid: error === null && missing.length === 0,
    };
  });

  const last = lines.at(-1);
  return {
    lines,
    totalCents,
    availableCents,
    total: formatMoney(totalCents),
    available: formatMoney(availableCents),
    overBalance,
    canOrder: lines.length > 0 && lines.every((l) => l.valid) && !overBalance,
    // Spec 002 §4: adding a line disables saving (and adding) until that line is valid.
    canAddLine: !overBalance && (last === undefined || last.valid),
  };
}

/** What the order needs besides the lines (spec 002 §3 "Order request"). */
export interface OrderDetails {
  /** Idempotency key: the same for a retry of the same order */
  orderKey: string;
  customerNumber: string;
  customerName: string;
  /** The contract's order id and PO number */
  orderId: string;
  poNumber: string | null;
  busopsEmails: string[];
}

/**
 * POST /api/entitlements body (spec 002 §3 "Order request"; contract/src/fsa/schemas.ts): money in integer cents
 * (decision 036), `duration` lets the server price a standard line, `unitCents` or `costCents` (decision 050) carries a manual or edited unit
 * cost. The daemon is the server's configuration, so the form leaves it out.
 */
export type FsaOrderBody = z.input<typeof fsaOrderRequestSchema>;

/** The order request for the form's lines; null unless `canOrder`. */
export function orderRequest(
  state: OrderLinesState,
  ctx: OrderContext,
  details: OrderDetails,
): FsaOrderBody | null {
  const view = orderView(state, ctx);
  if (!view.canOrder) return null;
  const { currency, entitlementId } = ctx.contract;
  return {
    ansyshasfsa: true,
    customerNumber: details.customerNumber,
    orderid: details.orderId,
    fsaID: entitlementId,
    ansyscurrency: currency,
    ansysbusopsemails: details.busopsEmails,
    orderKey: details.orderKey,
    products: view.lines.map(({ line, endDate, costCents }) => {
      const count = parseCount(line.count);
      const cost = costCents as number;
      const typed = typedAmount(line) ?? undefined;
      return {
        ansysbpn: line.partNumber,
        ansyscount: count,
        ...(details.poNumber ? { ansysponum: details.poNumber } : {}),
        ansysprice: cost,
        ...(currency === 'USD' ? { ansyspriceusd: cost } : {}),
        ansysproduct: line.product,
        ansysquantity: count,
        ansystype: 'Lease',
        ansyscurrency: line.currency,
        customerNumber: details.customerNumber,
        customerName: details.customerName,
        enddate: endDate,
        orderid: details.orderId,
        startdate: line.startDate,
        manualentry: line.manualEntry,
        ...(line.manualEntry
          ? { manualProductName: line.product }
          : { duration: line.duration as FsaDuration }),
        ...typed,
        productitemnumber: line.productId,
      };
    }),
  };
}

/** One answer per request line, in the request's order (spec 002 §7). */
export type OrderLineResult = Pick<FsaOrderResult, 'status' | 'ansysprice' | 'err'>;

/**
 * After an order (spec 002 §4): successful lines leave the form, failed ones stay with their server error, and the
 * balance drops by what was drawn. `results` answer `state.lines` in order.
 */
export function afterOrder(
  state: OrderLinesState,
  ctx: OrderContext,
  results: OrderLineResult[],
): { state: OrderLinesState; remainingCents: number } {
  const drawn = results.reduce((sum, r) => sum + (r.status === 'SUCCESS' ? r.ansysprice : 0), 0);
  const failed = state.lines.flatMap((line, i) => {
    const result = results[i];
    // A line the server did not answer stays, so nothing is lost or ordered twice on retry (same orderKey).
    if (result?.status === 'SUCCESS') return [];
    return [{ ...line, serverError: result?.err ?? null, edited: null }];
  });
  return {
    state: { ...state, lines: renumber(failed), lastEditedRow: null },
    remainingCents: ctx.contract.remainingCents - drawn,
  };
}
