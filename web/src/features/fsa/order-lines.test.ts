import { messages } from '@lp/contract/common/errors';
import { fsaOrderRequestSchema } from '@lp/contract/fsa/schemas';
import type { FsaDuration, FsaPriceList } from '@lp/domain/fsa-pricing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addManualLine,
  addStandardLine,
  afterOrder,
  type EditedField,
  emptyOrderLines,
  formatTypedMoney,
  type OrderContext,
  type OrderLine,
  type OrderLinesState,
  orderRequest,
  orderView,
  productOptions,
  removeAllLines,
  removeLine,
  setCost,
  setCount,
  setDuration,
  setEndDate,
  setProduct,
  setStartDate,
  setUnitCost,
} from './order-lines.ts';

// Decision 035's fixture: today 2026-11-24, contract A 2026-01-01..2027-12-31, the "full" price list.
const full: FsaPriceList = {
  price7Days: 10_000,
  price30Days: 35_000,
  price60Days: 65_000,
  price90Days: 90_000,
  price180Days: 170_000,
  price1Year: 300_000,
};
const ctx: OrderContext = {
  contract: {
    entitlementId: 'FSA-1',
    currency: 'USD',
    remainingCents: 1_000_000,
    startDate: '2026-01-01',
    endDate: '2027-12-31',
  },
  products: [
    { partNumber: 'P-FLU', name: 'Fluent', prices: full, manual: false },
    {
      partNumber: 'P-MECH',
      name: 'Mechanical',
      prices: Object.fromEntries(
        Object.entries(full).map(([k, v]) => [k, v * 10]),
      ) as unknown as FsaPriceList,
      manual: false,
    },
    { partNumber: 'P-SW', name: 'CFD - Shared Web', prices: full, manual: true },
  ],
  today: '2026-11-24',
  busops: false,
};
const busops: OrderContext = { ...ctx, busops: true };
const withRemaining = (remainingCents: number): OrderContext => ({
  ...busops,
  contract: { ...ctx.contract, remainingCents },
});

const rowOf = (state: OrderLinesState, i: number) => (state.lines[i] as OrderLine).rowId;
const lineView = (state: OrderLinesState, c: OrderContext, i: number) => {
  const view = orderView(state, c).lines[i];
  if (!view) throw new Error(`no line ${i}`);
  return view;
};

/** A standard line: product, start, duration, count, in the order a user fills them. */
function standard(
  state: OrderLinesState,
  c: OrderContext,
  line: { part: string; start: string; duration: FsaDuration; count: string },
) {
  let s = addStandardLine(state, c);
  const row = rowOf(s, s.lines.length - 1);
  s = setProduct(s, c, row, line.part);
  s = setStartDate(s, row, line.start);
  s = setDuration(s, row, line.duration);
  return setCount(s, row, line.count);
}

describe('FSA order lines: standard lines (spec 002 §5)', () => {
  it('a new line starts at the later of today and the contract start, count 1, product and duration missing', () => {
    const s = addStandardLine(emptyOrderLines, ctx);
    expect(s.lines[0]).toMatchObject({
      productId: 'product_0',
      startDate: '2026-11-24',
      count: '1',
      currency: 'USD',
    });
    expect(lineView(s, ctx, 0)).toMatchObject({
      error: null,
      missing: ['product', 'duration'],
      valid: false,
    });
    const later = { ...ctx, contract: { ...ctx.contract, startDate: '2027-01-01' } };
    expect(addStandardLine(emptyOrderLines, later).lines[0]?.startDate).toBe('2027-01-01');
  });

  it('prices a line with the pricing module: 30 Days × 2 from 2026-12-01 (decision 035 example 1)', () => {
    const s = standard(emptyOrderLines, ctx, {
      part: 'P-FLU',
      start: '2026-12-01',
      duration: '30',
      count: '2',
    });
    expect(lineView(s, ctx, 0)).toMatchObject({
      endDate: '2026-12-30',
      unitCost: '350.00',
      cost: '700.00',
      error: null,
      valid: true,
    });
    expect(orderView(s, ctx)).toMatchObject({
      total: '700.00',
      available: '9,300.00',
      canOrder: true,
      canAddLine: true,
    });
  });

  it('prorates Remainder with thousands separators (example 10)', () => {
    const s = standard(emptyOrderLines, ctx, {
      part: 'P-FLU',
      start: '2027-07-01',
      duration: 'remainder',
      count: '3',
    });
    expect(lineView(s, ctx, 0)).toMatchObject({
      endDate: '2027-12-31',
      unitCost: '1,737.78',
      cost: '5,213.34',
    });
  });

  it('an empty count prices as 1; zero, fractions, negatives and text are not counts', () => {
    const s = standard(emptyOrderLines, ctx, {
      part: 'P-FLU',
      start: '2026-12-01',
      duration: '30',
      count: '',
    });
    expect(lineView(s, ctx, 0)).toMatchObject({ cost: '350.00', error: null });
    for (const count of ['0', '1.5', '-1', 'two', '1000001']) {
      const bad = setCount(s, rowOf(s, 0), count);
      expect(lineView(bad, ctx, 0)).toMatchObject({ error: messages.fsaCountPositive, cost: '' });
      expect(orderView(bad, ctx).canOrder).toBe(false);
    }
  });

  it('a start date before today, after the contract end or not a calendar day is invalid, even before pricing', () => {
    const s = addStandardLine(emptyOrderLines, ctx);
    for (const day of ['2026-11-23', '2028-01-01', '2027-02-29', '24/11/2026']) {
      expect(lineView(setStartDate(s, rowOf(s, 0), day), ctx, 0).error).toBe(messages.fsaStartDateInvalid);
    }
  });

  it('offers the priced periods that fit and 1 Year capped; a duration that no longer fits stays with its error', () => {
    const s = standard(emptyOrderLines, ctx, {
      part: 'P-FLU',
      start: '2027-01-01',
      duration: '180',
      count: '1',
    });
    expect(lineView(s, ctx, 0).offeredDurations).toEqual(['7', '30', '60', '90', '180', '365', 'remainder']);
    const late = setStartDate(s, rowOf(s, 0), '2027-12-01');
    expect(lineView(late, ctx, 0)).toMatchObject({
      offeredDurations: ['7', '30', '180', '365', 'remainder'],
      error: messages.fsaEndDateInvalid,
      valid: false,
    });
    expect(orderView(late, ctx).canOrder).toBe(false);
    // Issue 21: 1 Year with 364 days left is offered, priced at the year's rate and capped at the contract end.
    const year = setDuration(setStartDate(s, rowOf(s, 0), '2027-01-02'), rowOf(s, 0), '365');
    expect(lineView(year, ctx, 0)).toMatchObject({ endDate: '2027-12-31', cost: '2,991.78', valid: true });
    // A start that is not a day, or out of range, says so and keeps the chosen 1 Year.
    for (const typed of ['2027-02-30', '2028-01-05', '2026-1'])
      expect(lineView(setStartDate(year, rowOf(s, 0), typed), ctx, 0)).toMatchObject({
        error: messages.fsaStartDateInvalid,
        line: { duration: '365' },
      });
  });

  it('regular users are offered no manual-entry product; business operations are, and it makes the line manual', () => {
    expect(productOptions(ctx).map((p) => p.partNumber)).toEqual(['P-FLU', 'P-MECH']);
    const s = addStandardLine(emptyOrderLines, ctx);
    expect(setProduct(s, ctx, rowOf(s, 0), 'P-SW').lines[0]).toMatchObject({ partNumber: '', product: '' });
    expect(setProduct(s, busops, rowOf(s, 0), 'P-SW').lines[0]).toMatchObject({
      partNumber: 'P-SW',
      product: 'CFD - Shared Web',
      manualEntry: true,
    });
  });

  it('business operations may override the unit cost; an unreadable one leaves the line unpriced', () => {
    const s = standard(emptyOrderLines, busops, {
      part: 'P-FLU',
      start: '2026-12-01',
      duration: '30',
      count: '2',
    });
    const edited = setUnitCost(s, busops, rowOf(s, 0), '1,300');
    expect(lineView(edited, busops, 0)).toMatchObject({
      unitCost: '1,300.00',
      cost: '2,600.00',
      valid: true,
    });
    const bad = setUnitCost(s, busops, rowOf(s, 0), '3.456');
    expect(lineView(bad, busops, 0)).toMatchObject({ cost: '', missing: ['unitCost', 'cost'], valid: false });
    expect(setUnitCost(s, ctx, rowOf(s, 0), '1')).toBe(s);
    expect(setCost(s, ctx, rowOf(s, 0), '1')).toBe(s);
  });

  it('removing a line renumbers product_{index}', () => {
    let s = standard(emptyOrderLines, ctx, {
      part: 'P-FLU',
      start: '2026-12-01',
      duration: '30',
      count: '1',
    });
    s = standard(s, ctx, { part: 'P-MECH', start: '2026-12-01', duration: '30', count: '1' });
    const rest = removeLine(s, rowOf(s, 0));
    expect(rest.lines.map((l) => [l.productId, l.partNumber])).toEqual([['product_0', 'P-MECH']]);
    expect(orderView(removeAllLines(s), ctx)).toMatchObject({ lines: [], total: '0.00', canOrder: false });
  });
});

describe('FSA order lines: manual entries (business operations)', () => {
  it('only business operations add them; the part number defaults to FSA0030216', () => {
    expect(addManualLine(emptyOrderLines, ctx)).toBe(emptyOrderLines);
    const s = addManualLine(emptyOrderLines, busops);
    expect(s.lines[0]).toMatchObject({ manualEntry: true, partNumber: 'FSA0030216' });
    expect(lineView(s, busops, 0).missing).toEqual(['product', 'endDate', 'cost']);
  });

  function manual(c: OrderContext, end: string) {
    let s = addManualLine(emptyOrderLines, c);
    const row = rowOf(s, 0);
    s = setProduct(s, c, row, 'Custom HPC - Named User');
    s = setCount(s, row, '3');
    s = setStartDate(s, row, '2026-12-01');
    s = setEndDate(s, c, row, end);
    return setUnitCost(s, c, row, '1,234.50');
  }

  it('cost = count × unit cost, commas removed, 2 decimals and separators (example M1)', () => {
    const s = manual(busops, '2027-05-31');
    expect(lineView(s, busops, 0)).toMatchObject({ endDate: '2027-05-31', cost: '3,703.50', valid: true });
    expect(s.lines[0]?.partNumber).toBe('FSA0030216');
  });

  it('end on or before the start, or after the contract end (examples M2 to M4)', () => {
    expect(lineView(manual(busops, '2026-12-01'), busops, 0).error).toBe(messages.fsaEndNotAfterStart);
    expect(lineView(manual(busops, '2026-11-30'), busops, 0).error).toBe(messages.fsaEndNotAfterStart);
    expect(lineView(manual(busops, '2028-01-31'), busops, 0).error).toBe(messages.fsaEndDateInvalid);
  });

  it('the cost typed is the cost ordered; the unit cost shown is cost ÷ count (issue 21, decision 050)', () => {
    const s = manual(busops, '2027-05-31');
    const row = rowOf(s, 0);
    const edited = setCost(s, busops, row, '1000');
    expect(lineView(edited, busops, 0)).toMatchObject({
      unitCost: '333.33',
      cost: '1,000.00',
      costCents: 100_000,
    });
    expect(orderView(edited, busops).total).toBe('1,000.00');
    const details = {
      orderKey: 'k',
      customerNumber: '1',
      customerName: 'A',
      orderId: 'O',
      poNumber: null,
      busopsEmails: [],
    };
    const line = orderRequest(edited, withRemaining(1_000_000), details)?.products[0];
    expect(line).toMatchObject({ costCents: 100_000, ansysprice: 100_000 });
    expect(line).not.toHaveProperty('unitCents');
    expect(formatTypedMoney('200000')).toBe('200,000.00');
    const big = setCost(edited, busops, row, '200000');
    expect(orderView(big, withRemaining(50_000_000)).total).toBe('200,000.00');
    // A new count keeps the typed cost; a typed unit cost takes over again.
    expect(lineView(setCount(big, row, '7'), busops, 0)).toMatchObject({
      cost: '200,000.00',
      unitCost: '28,571.43',
    });
    expect(lineView(setUnitCost(big, busops, row, '10'), busops, 0)).toMatchObject({ cost: '30.00' });
  });

  it('only business operations edit a manual end date, and never a standard one', () => {
    const s = standard(emptyOrderLines, busops, {
      part: 'P-FLU',
      start: '2026-12-01',
      duration: '30',
      count: '1',
    });
    expect(setEndDate(s, busops, rowOf(s, 0), '2027-01-31')).toBe(s);
    const m = addManualLine(emptyOrderLines, busops);
    expect(setEndDate(m, ctx, rowOf(m, 0), '2027-01-31')).toBe(m);
  });
});

describe('FSA order lines: duplicates, balance and enable rules (spec 002 §4, §5)', () => {
  it('a repeated line is the duplicate; the first stays valid', () => {
    let s = standard(emptyOrderLines, ctx, {
      part: 'P-FLU',
      start: '2026-12-01',
      duration: '30',
      count: '2',
    });
    s = standard(s, ctx, { part: 'P-FLU', start: '2026-12-01', duration: '30', count: '2' });
    const view = orderView(s, ctx);
    expect(view.lines.map((l) => l.error)).toEqual([null, messages.fsaDuplicateLine]);
    expect(view.canOrder).toBe(false);
    expect(lineView(setCount(s, rowOf(s, 1), '3'), ctx, 1).error).toBeNull();
  });

  it('a new line disables ordering and adding until it is valid', () => {
    const s = standard(emptyOrderLines, ctx, {
      part: 'P-FLU',
      start: '2026-12-01',
      duration: '30',
      count: '2',
    });
    const added = addStandardLine(s, ctx);
    expect(orderView(added, ctx)).toMatchObject({ canOrder: false, canAddLine: false });
    expect(addStandardLine(added, ctx)).toBe(added);
    expect(orderView(emptyOrderLines, ctx)).toMatchObject({ canOrder: false, canAddLine: true });
  });

  // Budget 1,000.00: Fluent 30 Days (350.00) on line 1 and Fluent 7 Days from 2027-06-15 (100.00) on line 2; each
  // edit of line 2 takes the total over.
  const edits: [EditedField, (s: OrderLinesState, row: string) => OrderLinesState, string][] = [
    ['product', (s, row) => setProduct(s, busops, row, 'P-MECH'), messages.fsaBalanceProduct],
    ['count', (s, row) => setCount(s, row, '7'), messages.fsaBalanceCount],
    [
      'startDate',
      // Remainder from 2027-12-25 is 7 days (100.00); from 2027-06-15 it is 200 days (1,888.89).
      (s, row) => {
        const late = setDuration(setStartDate(s, row, '2027-12-25'), row, 'remainder');
        expect(orderView(late, withRemaining(100_000)).total).toBe('450.00');
        return setStartDate(late, row, '2027-06-15');
      },
      messages.fsaBalanceStartDate,
    ],
    ['duration', (s, row) => setDuration(s, row, '90'), messages.fsaBalanceDuration],
    ['cost', (s, row) => setUnitCost(s, busops, row, '700'), messages.fsaBalanceCost],
  ];
  it.each(edits)(
    'over the balance after a %s edit: its text on the edited line only, gone when back within',
    (field, change, text) => {
      const c = withRemaining(100_000);
      let s = standard(emptyOrderLines, c, {
        part: 'P-FLU',
        start: '2026-12-01',
        duration: '30',
        count: '1',
      });
      s = standard(s, c, { part: 'P-FLU', start: '2027-06-15', duration: '7', count: '1' });
      expect(orderView(s, c)).toMatchObject({ total: '450.00', overBalance: false });
      const over = change(s, rowOf(s, 1));
      expect(over.lines[1]?.edited).toBe(field);
      const view = orderView(over, c);
      expect(view).toMatchObject({ overBalance: true, canOrder: false, canAddLine: false });
      expect(view.lines.map((l) => l.error)).toEqual([null, text]);
      expect(view.availableCents).toBe(100_000 - view.totalCents);
      expect(view.available.startsWith('-')).toBe(true);
      expect(addStandardLine(over, c)).toBe(over);
      const back = removeLine(over, rowOf(over, 1));
      expect(orderView(back, c)).toMatchObject({ overBalance: false, canOrder: true });
      expect(orderView(back, c).lines.map((l) => l.error)).toEqual([null]);
    },
  );

  it('the balance error follows the line edited last', () => {
    const c = withRemaining(100_000);
    let s = standard(emptyOrderLines, c, { part: 'P-FLU', start: '2026-12-01', duration: '7', count: '1' });
    s = standard(s, c, { part: 'P-FLU', start: '2026-12-15', duration: '30', count: '1' });
    s = setCount(s, rowOf(s, 0), '7');
    expect(orderView(s, c).lines.map((l) => l.error)).toEqual([messages.fsaBalanceCount, null]);
    s = setCount(s, rowOf(s, 0), '1');
    expect(orderView(s, c).lines.map((l) => l.error)).toEqual([null, null]);
    s = setCount(s, rowOf(s, 1), '3');
    expect(orderView(s, c).lines.map((l) => l.error)).toEqual([null, messages.fsaBalanceCount]);
  });
});

describe('FSA order request and results (spec 002 §3, §7)', () => {
  const details = {
    orderKey: 'order-key-1',
    customerNumber: '1000123',
    customerName: 'Acme Aerospace Inc.',
    orderId: 'ORD-9',
    poNumber: 'PO-77',
    busopsEmails: ['ops@example.com'],
  };
  let s = standard(emptyOrderLines, busops, {
    part: 'P-FLU',
    start: '2026-12-01',
    duration: '30',
    count: '2',
  });
  s = addManualLine(s, busops);
  const row = rowOf(s, 1);
  s = setProduct(s, busops, row, 'Custom HPC - Named User');
  s = setEndDate(s, busops, row, '2027-05-31');
  s = setUnitCost(s, busops, row, '1,234.50');

  it('builds the order request in the spec shape, money in cents', () => {
    const body = orderRequest(s, busops, details);
    expect(fsaOrderRequestSchema.parse(body)).toEqual(body);
    expect(body).toEqual({
      ansyshasfsa: true,
      customerNumber: '1000123',
      orderid: 'ORD-9',
      fsaID: 'FSA-1',
      ansyscurrency: 'USD',
      ansysbusopsemails: ['ops@example.com'],
      orderKey: 'order-key-1',
      products: [
        {
          ansysbpn: 'P-FLU',
          ansyscount: 2,
          ansysponum: 'PO-77',
          ansysprice: 70_000,
          ansyspriceusd: 70_000,
          ansysproduct: 'Fluent',
          ansysquantity: 2,
          ansystype: 'Lease',
          ansyscurrency: 'USD',
          customerNumber: '1000123',
          customerName: 'Acme Aerospace Inc.',
          enddate: '2026-12-30',
          orderid: 'ORD-9',
          startdate: '2026-12-01',
          manualentry: false,
          duration: '30',
          productitemnumber: 'product_0',
        },
        {
          ansysbpn: 'FSA0030216',
          ansyscount: 1,
          ansysponum: 'PO-77',
          ansysprice: 123_450,
          ansyspriceusd: 123_450,
          ansysproduct: 'Custom HPC - Named User',
          ansysquantity: 1,
          ansystype: 'Lease',
          ansyscurrency: 'USD',
          customerNumber: '1000123',
          customerName: 'Acme Aerospace Inc.',
          enddate: '2027-05-31',
          orderid: 'ORD-9',
          startdate: '2026-11-24',
          manualentry: true,
          manualProductName: 'Custom HPC - Named User',
          unitCents: 123_450,
          productitemnumber: 'product_1',
        },
      ],
    });
    expect(orderRequest(addStandardLine(s, busops), busops, details)).toBeNull();
  });

  it('after a partial failure keeps the failed lines with their server error and lowers the balance', () => {
    const { state, remainingCents } = afterOrder(s, busops, [
      { status: 'SUCCESS', ansysprice: 70_000, err: '' },
      { status: 'FAILURE', ansysprice: 123_450, err: 'Host refused' },
    ]);
    expect(remainingCents).toBe(1_000_000 - 70_000);
    const c = withRemaining(remainingCents);
    expect(state.lines.map((l) => [l.productId, l.product])).toEqual([
      ['product_0', 'Custom HPC - Named User'],
    ]);
    expect(orderView(state, c)).toMatchObject({ available: '8,065.50', canOrder: false });
    expect(lineView(state, c, 0).error).toBe('Host refused');
    expect(
      afterOrder(s, busops, [{ status: 'SUCCESS', ansysprice: 70_000, err: '' }]).state.lines,
    ).toHaveLength(1);
    const retried = setCount(state, rowOf(state, 0), '1');
    expect(orderView(retried, c)).toMatchObject({ canOrder: true });
  });
});

describe('FSA order lines: properties', () => {
  // Mostly orderable values, so that valid lines, duplicates and totals over the balance all occur.
  const mostly = <T>(good: T[], bad: T[]) =>
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...good) },
      { weight: 1, arbitrary: fc.constantFrom(...bad) },
    );
  const lineArb = fc.record({
    manualEntry: fc.boolean(),
    part: mostly(['P-FLU', 'P-MECH'], ['']),
    name: mostly(['A - Named User', 'B'], ['']),
    count: mostly(['1', '2', ''], ['0', 'x']),
    startDate: mostly(['2026-12-01', '2027-06-15', '2027-12-20'], ['2026-11-23', '']),
    endDate: mostly(['2027-12-31'], ['2027-06-15', '2028-01-02', '']),
    duration: mostly<FsaDuration | ''>(['7', 'remainder'], ['365', '']),
    unitCost: mostly(['100', '1,234.56'], ['', '9.999']),
    cost: mostly(['', '', '1000', '200,000'], ['1.234']),
    edited: fc.constantFrom<EditedField | null>('product', 'count', 'startDate', 'duration', 'cost', null),
  });
  // Lines drawn from a small pool repeat one another.
  const specsArb = fc
    .array(lineArb, { minLength: 1, maxLength: 2 })
    .chain((pool) => fc.array(fc.constantFrom(...pool), { maxLength: 6 }));
  const stateArb = fc
    .record({ specs: specsArb, last: fc.nat(), remainingCents: fc.nat(2_000_000) })
    .map(({ specs, last, remainingCents }) => {
      const lines = specs.map(
        (l, i): OrderLine => ({
          rowId: `row_${i}`,
          productId: `product_${i}`,
          partNumber: l.manualEntry ? 'FSA0030216' : l.part,
          product: l.manualEntry ? l.name : (ctx.products.find((p) => p.partNumber === l.part)?.name ?? ''),
          manualEntry: l.manualEntry,
          count: l.count,
          startDate: l.startDate,
          duration: l.manualEntry ? '' : l.duration,
          endDate: l.manualEntry ? l.endDate : '',
          unitCost: l.manualEntry ? l.unitCost : '',
          cost: l.manualEntry ? l.cost : '',
          currency: 'USD',
          edited: l.edited,
          serverError: null,
        }),
      );
      const state: OrderLinesState = {
        lines,
        nextRow: lines.length,
        lastEditedRow: lines.length ? `row_${last % lines.length}` : null,
      };
      return { state, c: withRemaining(remainingCents) };
    });

  it('total = sum of line costs, available = remaining − total, cost = the cost typed or count × unit cost', () => {
    fc.assert(
      fc.property(stateArb, ({ state, c }) => {
        const view = orderView(state, c);
        const sum = view.lines.reduce((t, l) => t + (l.costCents ?? 0), 0);
        expect(view.totalCents).toBe(sum);
        expect(view.availableCents).toBe(c.contract.remainingCents - sum);
        for (const l of view.lines) {
          if (l.costCents === null) continue;
          const count = l.line.count === '' ? 1 : Number(l.line.count);
          const cents = (text: string) => Number(text.replaceAll(',', '').replace('.', ''));
          expect(cents(l.cost)).toBe(l.costCents);
          if (l.line.cost !== '') expect(l.cost).toBe(formatTypedMoney(l.line.cost));
          else expect(cents(l.unitCost) * count).toBe(l.costCents);
        }
      }),
    );
  });

  it('canOrder is false whenever a line has an error, and true only when every line is valid within the balance', () => {
    fc.assert(
      fc.property(stateArb, ({ state, c }) => {
        const view = orderView(state, c);
        if (view.lines.some((l) => l.error !== null)) expect(view.canOrder).toBe(false);
        expect(view.canOrder).toBe(
          view.lines.length > 0 && view.lines.every((l) => l.valid) && !view.overBalance,
        );
      }),
    );
  });

  it('the balance error is on exactly the edited line when over the balance, on none otherwise', () => {
    fc.assert(
      fc.property(stateArb, ({ state, c }) => {
        const view = orderView(state, c);
        const carriers = view.lines.filter((l) => l.balanceError !== null);
        if (view.overBalance) {
          expect(carriers.map((l) => l.line.rowId)).toEqual([state.lastEditedRow]);
          expect(view.canAddLine).toBe(false);
        } else expect(carriers).toEqual([]);
      }),
    );
  });

  it('how many lines are duplicates does not depend on their order', () => {
    fc.assert(
      fc.property(
        stateArb.chain(({ state, c }) =>
          fc.tuple(
            fc.constant(state),
            fc.constant(c),
            fc.shuffledSubarray(state.lines, { minLength: state.lines.length }),
          ),
        ),
        ([state, c, shuffled]) => {
          const count = (s: OrderLinesState) =>
            orderView(s, c).lines.filter((l) => l.error === messages.fsaDuplicateLine).length;
          expect(count({ ...state, lines: shuffled })).toBe(count(state));
        },
      ),
    );
  });
});
