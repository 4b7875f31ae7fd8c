import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { activationsApi } from '@lp/contract/activations/api';
import { messages } from '@lp/contract/common/errors';
import { fsaApi } from '@lp/contract/fsa/api';
import { FSA_MANUAL_DRAWDOWN_PART } from '@lp/domain/entitlements';
import { priceLine } from '@lp/domain/fsa-pricing';
import { contactRoles } from '@lp/domain/policy';
import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { runCli } from '../../../../tools/test/run-cli.ts';
import {
  addContact,
  buildAccount,
  buildEntitlement,
  dayFromToday as day,
} from '../../../harness/factories.ts';
import {
  buildFsaContract,
  type FsaOrder,
  type FsaOrderLine,
  fsaLine,
} from '../../../harness/fsa-factories.ts';
import { acme, apiTest, type Caller, other } from '../../../test/api-fixture.ts';
import { type Db, migrateDatabase, openPglite } from '../../db/database.ts';
import { emails, entitlements, products } from '../../db/schema.ts';
import { reconcileFsa } from './service.ts';

const CN = acme.customerNumber;
const OTHER = other.customerNumber;
const SOLVER = 'FSA-T-SOLVER';
const WEB = 'FSA-T-WEB';
const PRICES = {
  price7Days: 1_000,
  price30Days: 3_500,
  price60Days: null,
  price90Days: 9_000,
  price180Days: null,
};
const YEAR = 30_000;

/** An FSA contract of `customerNumber` with `budgetCents`, offering SOLVER and WEB (unless told otherwise). */
const contract = (
  db: Db,
  customerNumber: string,
  activationId: string,
  budgetCents: number,
  over: { startDate?: string; endDate?: string; products?: string[]; busopsEmails?: string | null } = {},
) =>
  buildFsaContract(
    db,
    customerNumber,
    activationId,
    budgetCents,
    Object.fromEntries(
      (over.products ?? [SOLVER, WEB]).map((partNumber) => [
        partNumber,
        {
          price7DaysCents: PRICES.price7Days,
          price30DaysCents: PRICES.price30Days,
          price90DaysCents: PRICES.price90Days,
          price1YearCents: YEAR,
        },
      ]),
    ),
    {
      poNumber: `PO-${activationId}`,
      busopsEmails:
        over.busopsEmails === undefined ? 'ops@acme.example; finance@acme.example' : over.busopsEmails,
      ...(over.startDate && { startDate: over.startDate }),
      ...(over.endDate && { endDate: over.endDate }),
    },
  );

const line = (over: Partial<FsaOrderLine> = {}) => fsaLine(SOLVER, over);

const priceOf = (startDate: string, duration: '7' | '30' | '90' | '365' | 'remainder', count: number) =>
  priceLine({
    prices: { ...PRICES, price1Year: YEAR },
    contract: { startDate: day(-30), endDate: day(400) },
    today: day(0),
    startDate,
    duration,
    count,
  });

const it = apiTest
  /** The catalogue and the main contract of the cast's account. */
  .extend('main', { scope: 'file' }, async ({ database, cast: _accounts }) => {
    await database.db.insert(products).values([
      { partNumber: SOLVER, name: 'Solver', family: 'Platform', daemon: 'simlmd', featureName: 'solver' },
      {
        partNumber: WEB,
        name: 'Solver - Shared Web',
        family: 'Platform',
        daemon: 'simlmd',
        featureName: 'web',
      },
    ]);
    // No manual drawdown product (FSA0030216) in this catalogue: ordering a manual line must add it, not fail.
    return contract(database.db, CN, 'FSA-MAIN', 1_000_000);
  })
  .extend('fsa', { scope: 'file' }, async ({ api, database }) => ({
    /** Orders the lines on the account's contract `fsaID`: the answer has one outcome per line. */
    order: (who: Caller, fsaID: string, lines: FsaOrderLine[], over: Partial<FsaOrder> = {}) =>
      api.ok(who, fsaApi.order, { customerNumber: CN, fsaID, products: lines, ...over }),
    /** The same order, refused as a whole with `status`. */
    refuse: (
      who: Caller,
      fsaID: string,
      lines: FsaOrderLine[],
      status: number,
      over: Partial<FsaOrder> = {},
    ) => api.refused(who, fsaApi.order, { customerNumber: CN, fsaID, products: lines, ...over }, status),
    view: async (who: Caller, id: string) =>
      (await api.ok(who, fsaApi.contracts, { customerNumber: CN })).data.find((c) => c.entitlementId === id)!,
    linesOf: (contractId: number) =>
      database.db.select().from(entitlements).where(eq(entitlements.fsaContractId, contractId)),
    /** The account's recorded e-mails about one contract's orders. */
    mailsOf: async (contractId: string) =>
      (await database.db.select().from(emails).where(eq(emails.customerNumber, CN))).filter((m) =>
        m.subject.startsWith(`FSA order on ${contractId}:`),
      ),
  }));

it.beforeAll(async ({ database, main: _main }) => {
  await contract(database.db, CN, 'FSA-ENDED', 100_000, { startDate: day(-400), endDate: day(-1) });
  await contract(database.db, CN, 'FSA-LATER', 100_000, { startDate: day(10), endDate: day(300) });
  await contract(database.db, CN, 'FSA-BARE', 100_000, { products: [] });
  await contract(database.db, OTHER, 'FSA-OTHER', 100_000);
});

describe('who may read and order', () => {
  it('answers an outsider 403 on every call and orders nothing', async ({
    api,
    cast: { outsider },
    main,
    fsa: { linesOf },
  }) => {
    for (const [operation, body] of [
      [fsaApi.contracts, { customerNumber: CN }],
      [fsaApi.products, { customerNumber: CN, entitlementId: 'FSA-MAIN' }],
      [fsaApi.history, { customerNumber: CN }],
      [fsaApi.order, { customerNumber: CN, fsaID: 'FSA-MAIN', products: [line()] }],
    ] as const) {
      const refusal = await api.refused(outsider, operation, body, 403);
      expect(JSON.stringify(refusal), operation.operationId).not.toContain('FSA-MAIN');
    }
    expect(await linesOf(main.id)).toEqual([]);
  });

  it('lets a view-only user read but not order (403 with the spec text)', async ({
    api,
    cast: { reader },
    main,
    fsa: { refuse, linesOf },
  }) => {
    await api.ok(reader, fsaApi.contracts, { customerNumber: CN });
    const refusal = await refuse(reader, 'FSA-MAIN', [line()], 403);
    expect(refusal.err).toBe(messages.noPermission);
    expect(await linesOf(main.id)).toEqual([]);
  });

  it("refuses an export-denied account's FSA reads with the export text", async ({
    api,
    database,
    cast: { boss },
  }) => {
    const blocked = '4200001';
    await buildAccount(database.db, {
      customerNumber: blocked,
      name: 'Blocked',
      exportControlStatus: 'Denied',
    });
    await addContact(database.db, blocked, boss.email, contactRoles.admin);
    await contract(database.db, blocked, 'FSA-BLOCKED', 100_000);
    for (const operation of [fsaApi.contracts, fsaApi.history]) {
      const refusal = await api.refused(boss, operation, { customerNumber: blocked }, 403);
      expect(refusal.err, operation.operationId).toBe(messages.exportDenied);
      expect(JSON.stringify(refusal), operation.operationId).not.toContain('FSA-BLOCKED');
    }
  });

  it("answers 404 for products of another account's contract", async ({
    api,
    cast: { boss },
    fsa: { refuse },
  }) => {
    await api.refused(boss, fsaApi.products, { customerNumber: CN, entitlementId: 'FSA-OTHER' }, 404);
    await refuse(boss, 'FSA-OTHER', [line()], 404);
  });

  it('refuses manual entries and edited end dates or unit costs from anyone but business operations', async ({
    cast: { boss },
    main,
    fsa: { refuse, linesOf },
  }) => {
    const manual = line({
      ansysbpn: undefined,
      manualentry: true,
      manualProductName: 'Custom - Named User',
      enddate: day(30),
      unitCents: 5_000,
    });
    for (const l of [manual, line({ ansysbpn: WEB }), line({ enddate: day(10) }), line({ unitCents: 1 })]) {
      const refusal = await refuse(boss, 'FSA-MAIN', [line({ ansyscount: 3 }), l], 403);
      expect(refusal, JSON.stringify(l)).toMatchObject({ status: 'FAILURE' });
    }
    expect(await linesOf(main.id)).toEqual([]);
  });
});

describe('contracts and products', () => {
  it('lists the contracts with the ledger balance and the FSA classification', async ({
    api,
    cast: { boss },
    fsa: { view },
  }) => {
    const m = await view(boss, 'FSA-MAIN');
    expect(m).toMatchObject({
      budgetCents: 1_000_000,
      usedCents: 0,
      remainingCents: 1_000_000,
      active: true,
    });
    expect(m.hasProducts).toBe(true);
    expect(m.busopsEmails).toEqual(['ops@acme.example', 'finance@acme.example']);
    expect(await view(boss, 'FSA-ENDED')).toMatchObject({ remainingdays: 'EXPIRED', active: false });
    expect(await view(boss, 'FSA-LATER')).toMatchObject({
      remainingdays: 'NOT STARTED',
      active: true,
    });
    expect((await view(boss, 'FSA-BARE')).hasProducts).toBe(false);
    const all = await api.ok(boss, fsaApi.contracts, { customerNumber: CN });
    expect(JSON.stringify(all)).not.toContain('FSA-OTHER');
  });

  it("lists a contract's products with prices in cents and the manual flag", async ({
    api,
    cast: { boss },
  }) => {
    const res = await api.ok(boss, fsaApi.products, { customerNumber: CN, entitlementId: 'FSA-MAIN' });
    expect(res.data).toEqual([
      { partNumber: SOLVER, name: 'Solver', ...PRICES, price1Year: YEAR, manual: false },
      { partNumber: WEB, name: 'Solver - Shared Web', ...PRICES, price1Year: YEAR, manual: true },
    ]);
  });

  it('shows a contract used exactly 100 % as inactive', async ({
    database,
    cast: { boss },
    fsa: { order, view },
  }) => {
    await contract(database.db, CN, 'FSA-FULL', 2_000);
    const res = await order(boss, 'FSA-FULL', [line({ ansyscount: 2 })]);
    expect(res.data[0]!.status).toBe('SUCCESS');
    expect(await view(boss, 'FSA-FULL')).toMatchObject({
      usedPercentage: 100,
      remainingCents: 0,
      active: false,
    });
  });
});

describe('ordering', () => {
  it('prices a line on the server, draws it and creates a lease of the account', async ({
    api,
    database,
    cast: { boss },
    main,
    fsa: { order, view },
  }) => {
    const expected = priceOf(day(0), '7', 3);
    expect(expected).toMatchObject({ ok: true, costCents: 3 * 1_000, endDate: day(6) });
    const res = await order(boss, 'FSA-MAIN', [line({ ansyscount: 3, ansysprice: 3_000 })]);
    const [result] = res.data;
    expect(result).toMatchObject({
      status: 'SUCCESS',
      ansysbpn: SOLVER,
      startdate: day(0),
      enddate: day(6),
      ansysquantity: 3,
      ansysprice: 3_000,
      err: '',
    });
    const [lease] = await database.db
      .select()
      .from(entitlements)
      .where(eq(entitlements.activationId, result!.entitlementId!));
    expect(lease).toMatchObject({
      customerNumber: CN,
      kind: 'SSL',
      licenseModel: 'Lease',
      partNumber: SOLVER,
      quantity: 3,
      priceCents: 3_000,
      fsaContractId: main.id,
      orderedBy: 'boss@acme.example',
    });
    const m = await view(boss, 'FSA-MAIN');
    expect(m).toMatchObject({ usedCents: 3_000, remainingCents: 997_000 });
    expect(m.lastOrderedAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const available = await api.ok(boss, activationsApi.allEntitlements, { customerNumber: CN });
    expect(JSON.stringify(available)).toContain(result!.entitlementId);
  });

  it("checks the client's price and never draws a line whose price differs", async ({
    cast: { boss },
    fsa: { order, view },
  }) => {
    const before = (await view(boss, 'FSA-MAIN')).remainingCents;
    const remainder = priceOf(day(1), 'remainder', 2);
    expect(remainder.ok).toBe(true);
    const res = await order(boss, 'FSA-MAIN', [
      line({ ansysprice: 1 }),
      line({ startdate: day(1), duration: 'remainder', ansyscount: 2 }),
    ]);
    const [cheap, rest] = res.data;
    expect(cheap!.status).toBe('FAILURE');
    expect(cheap!.err).toContain('10.00');
    expect(rest).toMatchObject({ status: 'SUCCESS', ansysprice: remainder.ok ? remainder.costCents : -1 });
    expect((await view(boss, 'FSA-MAIN')).remainingCents).toBe(
      before - (remainder.ok ? remainder.costCents : 0),
    );
  });

  it('fails a line over the balance alone and leaves nothing of it', async ({
    database,
    cast: { boss },
    fsa: { order, view, linesOf },
  }) => {
    const c = await contract(database.db, CN, 'FSA-SMALL', 5_000);
    const res = await order(boss, 'FSA-SMALL', [
      line({ ansyscount: 2 }),
      line({ duration: '30' }),
      line({ ansyscount: 3 }),
    ]);
    expect(res.data.map((r) => [r.status, r.err])).toEqual([
      ['SUCCESS', ''],
      ['FAILURE', messages.fsaBalanceProduct],
      ['SUCCESS', ''],
    ]);
    expect((await linesOf(c.id)).map((l) => l.priceCents).sort()).toEqual([2_000, 3_000]);
    expect(await view(boss, 'FSA-SMALL')).toMatchObject({ remainingCents: 0 });
  });

  it('refuses duplicate lines and dates outside the contract, line by line', async ({
    database,
    cast: { boss },
    fsa: { order, linesOf },
  }) => {
    const c = await contract(database.db, CN, 'FSA-DUP', 100_000);
    const res = await order(boss, 'FSA-DUP', [
      line(),
      line(),
      line({ startdate: day(-1) }),
      line({ startdate: day(399), duration: '30' }),
      line({ startdate: '2026-02-30' }),
      line({ ansyscount: 0 }),
    ]);
    expect(res.data.map((r) => r.err)).toEqual([
      '',
      messages.fsaDuplicateLine,
      messages.fsaStartDateInvalid,
      messages.fsaEndDateInvalid,
      messages.fsaStartDateInvalid,
      messages.fsaCountPositive,
    ]);
    expect(await linesOf(c.id)).toHaveLength(1);
  });

  it('sells 1 Year with 364 days left, capped at the contract end at the year rate; refuses a day that is no day (issue 21)', async ({
    database,
    cast: { busops },
    fsa: { order, linesOf },
  }) => {
    const c = await contract(database.db, CN, 'FSA-YEAR', 1_000_000);
    const capped = Math.round((364 * YEAR) / 365);
    const res = await order(busops, 'FSA-YEAR', [
      line({ startdate: day(37), duration: '365', ansyscount: 2, ansysprice: 2 * capped }),
      line({
        ansysbpn: undefined,
        manualentry: true,
        manualProductName: 'Custom - Named User',
        enddate: '2027-02-30',
        unitCents: 100,
      }),
      line({ startdate: '2027-13-01' }),
    ]);
    expect(res.data.map((r) => [r.err, r.enddate])).toEqual([
      ['', day(400)],
      [messages.fsaEndDateInvalid, '2027-02-30'],
      [messages.fsaStartDateInvalid, ''],
    ]);
    expect((await linesOf(c.id)).map((l) => l.priceCents)).toEqual([2 * capped]);
  });

  it('refuses an order against an ended contract', async ({ cast: { busops }, fsa: { refuse } }) => {
    await refuse(busops, 'FSA-ENDED', [line({ startdate: day(-10) })], 400);
  });

  it('lets business operations order manual entries, hidden from others in the history', async ({
    api,
    cast: { boss, busops },
    fsa: { order },
  }) => {
    const res = await order(busops, 'FSA-MAIN', [
      line({
        ansysbpn: undefined,
        manualentry: true,
        manualProductName: 'Custom Fluids - Named User',
        enddate: day(30),
        unitCents: 1_250,
        ansyscount: 4,
        ansysprice: 5_000,
      }),
    ]);
    const [manual] = res.data;
    expect(manual).toMatchObject({
      status: 'SUCCESS',
      ansysbpn: FSA_MANUAL_DRAWDOWN_PART,
      ansysprice: 5_000,
    });
    const history = async (who: Caller) => (await api.ok(who, fsaApi.history, { customerNumber: CN })).data;
    const staff = await history(busops);
    expect(staff.find((r) => r.entitlementId === manual!.entitlementId)).toMatchObject({
      ansysproduct: 'Custom Fluids - Named User',
      fsaId: 'FSA-MAIN',
      requester: 'busops@vendor.example',
    });
    const customer = await history(boss);
    expect(customer.length).toBe(staff.length - 1);
    expect(customer.map((r) => r.entitlementId)).not.toContain(manual!.entitlementId);
  });

  it('orders the cost business operations typed to the cent: 1,000.00 for 3 debits exactly 1,000.00 (decision 050)', async ({
    database,
    cast: { boss, busops },
    fsa: { order, refuse, view, linesOf },
  }) => {
    const c = await contract(database.db, CN, 'FSA-TYPED', 100_000_000);
    const typed = (count: number, costCents: number, over: Partial<FsaOrderLine> = {}) =>
      line({ ansyscount: count, costCents, ansysprice: costCents, ...over });
    const res = await order(busops, 'FSA-TYPED', [
      typed(3, 100_000, {
        ansysbpn: undefined,
        manualentry: true,
        manualProductName: 'Custom - Named User',
        enddate: day(30),
      }),
      typed(3, 20_000_000, { duration: '30' }),
    ]);
    expect(res.data.map((r) => [r.status, r.ansysprice])).toEqual([
      ['SUCCESS', 100_000],
      ['SUCCESS', 20_000_000],
    ]);
    expect((await linesOf(c.id)).map((l) => l.priceCents).sort()).toEqual([100_000, 20_000_000].sort());
    expect(await view(busops, 'FSA-TYPED')).toMatchObject({
      usedCents: 20_100_000,
      remainingCents: 100_000_000 - 20_100_000,
    });
    // A typed cost is a busops edit like a typed unit cost.
    await refuse(boss, 'FSA-TYPED', [typed(3, 100_000, { duration: '30' })], 403);
  });

  it('answers a retried order with the first outcome and draws once', async ({
    database,
    cast: { boss },
    fsa: { order, refuse, linesOf },
  }) => {
    const c = await contract(database.db, CN, 'FSA-RETRY', 100_000);
    const body = [line({ ansyscount: 5 })];
    const first = await order(boss, 'FSA-RETRY', body, { orderKey: 'order-retry-0001' });
    const again = await order(boss, 'FSA-RETRY', body, { orderKey: 'order-retry-0001' });
    expect(first.replayed).toBe(false);
    expect(again).toEqual({ ...first, replayed: true });
    expect(await linesOf(c.id)).toHaveLength(1);
    await refuse(boss, 'FSA-RETRY', [line({ ansyscount: 6 })], 409, { orderKey: 'order-retry-0001' });
    expect(await linesOf(c.id)).toHaveLength(1);
  });

  it('never overdraws: 50 parallel orders against room for 10 lines, exactly 10 succeed', async ({
    database,
    cast: { boss },
    fsa: { order, view, linesOf },
  }) => {
    const c = await contract(database.db, CN, 'FSA-RACE', 10 * 1_000);
    // Each answer is a 200 (order checks it) with the line's outcome.
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        order(boss, 'FSA-RACE', [line()], { orderKey: `race-order-${i}` }),
      ),
    );
    expect(answers).toHaveLength(50);
    const statuses = answers.map((a) => a.data[0]!.status);
    expect(statuses.filter((s) => s === 'SUCCESS')).toHaveLength(10);
    expect(statuses.filter((s) => s === 'FAILURE')).toHaveLength(40);
    expect(await linesOf(c.id)).toHaveLength(10);
    expect(await view(boss, 'FSA-RACE')).toMatchObject({ remainingCents: 0, usedCents: 10_000 });
    expect((await reconcileFsa(database.db)).every((r) => r.balanced)).toBe(true);
  }, 120_000);
});

describe('order confirmation e-mail (issue 12 §4)', () => {
  it("sends the contract's busops list the drawn lines, the total and the balance left, escaped", async ({
    database,
    cast: { boss, busops },
    fsa: { order, view, mailsOf },
  }) => {
    await contract(database.db, CN, 'FSA-MAIL', 1_234_567, {
      busopsEmails: 'desk@vendor.example, finance@acme.example',
    });
    const res = await order(busops, 'FSA-MAIL', [
      line({ ansyscount: 2 }),
      line({
        ansysbpn: undefined,
        manualentry: true,
        manualProductName: 'Fluids <b>Beta</b> & Co - Named User',
        enddate: day(30),
        unitCents: 1_000_000,
      }),
      line({ ansyscount: 0 }),
    ]);
    expect(res.data.map((r) => r.status)).toEqual(['SUCCESS', 'SUCCESS', 'FAILURE']);
    const [mail, ...more] = await mailsOf('FSA-MAIL');
    expect(more).toEqual([]);
    expect(mail).toMatchObject({
      to: 'desk@vendor.example, finance@acme.example',
      subject: 'FSA order on FSA-MAIL: 2 line(s)',
    });
    expect(mail!.body).toContain(`Solver (${SOLVER})`);
    expect(mail!.body).toContain('Fluids &lt;b&gt;Beta&lt;/b&gt; &amp; Co - Named User');
    expect(mail!.body).not.toContain('<b>Beta');
    expect(mail!.body).toContain(day(6));
    expect(mail!.body).toContain(day(30));
    expect(mail!.body).toContain('20.00 USD');
    expect(mail!.body).toContain('10,000.00 USD');
    expect(mail!.body).toContain('Total: 10,020.00 USD');
    expect(mail!.body).toContain('Remaining balance: 2,325.67 USD');
    expect((await view(boss, 'FSA-MAIL')).remainingCents).toBe(232_567);
  });

  it('sends nothing again for a replayed order', async ({
    database,
    cast: { boss },
    fsa: { order, mailsOf },
  }) => {
    await contract(database.db, CN, 'FSA-MAIL-RETRY', 100_000);
    const body = [line()];
    const first = await order(boss, 'FSA-MAIL-RETRY', body, { orderKey: 'order-mail-retry-1' });
    const again = await order(boss, 'FSA-MAIL-RETRY', body, { orderKey: 'order-mail-retry-1' });
    expect(again).toEqual({ ...first, replayed: true });
    const mails = await mailsOf('FSA-MAIL-RETRY');
    expect(mails.map((m) => [m.to, m.subject])).toEqual([
      ['ops@acme.example, finance@acme.example', 'FSA order on FSA-MAIL-RETRY: 1 line(s)'],
    ]);
  });

  it('sends nothing for an order whose lines all fail or that is refused', async ({
    database,
    cast: { boss },
    fsa: { order, refuse, linesOf, mailsOf },
  }) => {
    const c = await contract(database.db, CN, 'FSA-MAIL-FAIL', 1_500);
    const res = await order(boss, 'FSA-MAIL-FAIL', [line({ ansyscount: 2 }), line({ ansyscount: 0 })]);
    expect(res.data.map((r) => r.status)).toEqual(['FAILURE', 'FAILURE']);
    await refuse(boss, 'FSA-MAIL-FAIL', [line(), line({ ansysbpn: WEB })], 403);
    expect(await linesOf(c.id)).toEqual([]);
    expect(await mailsOf('FSA-MAIL-FAIL')).toEqual([]);
  });

  it('sends nothing for a contract without a busops list, and the order still goes through', async ({
    database,
    cast: { boss },
    fsa: { order, linesOf, mailsOf },
  }) => {
    const c = await contract(database.db, CN, 'FSA-MAIL-NONE', 100_000, { busopsEmails: null });
    const res = await order(boss, 'FSA-MAIL-NONE', [line()]);
    expect(res.data[0]!.status).toBe('SUCCESS');
    expect(await linesOf(c.id)).toHaveLength(1);
    expect(await mailsOf('FSA-MAIL-NONE')).toEqual([]);
  });
});

describe('npm run cli -- fsa reconcile', () => {
  it('exits 0 while every contract balances and 1 naming an overdrawn one', async ({ database }) => {
    // The CLI opens the database itself: the test's PostgreSQL database, or a PGlite folder of its own.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-fsa-cli-'));
    let db = database.db;
    let closeOwn: (() => Promise<void>) | undefined;
    if (!database.url) {
      const own = await openPglite(path.join(dataDir, 'pglite'));
      await migrateDatabase(own);
      await own.db.insert(products).values({
        partNumber: SOLVER,
        name: 'Solver',
        family: 'Platform',
        daemon: 'simlmd',
        featureName: 'solver',
      });
      await buildAccount(own.db, { customerNumber: CN, name: 'Acme' });
      await contract(own.db, CN, 'FSA-MAIN', 100_000, { products: [SOLVER] });
      db = own.db;
      closeOwn = () => own.close();
    }
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    delete env.DATABASE_URL;
    if (database.url) env.DATABASE_URL = database.url;
    try {
      const bad = await contract(db, CN, 'FSA-OVERDRAWN', 1_000, { products: [SOLVER] });
      await buildEntitlement(db, CN, {
        activationId: 'FSA-OVERDRAWN-LINE',
        partNumber: SOLVER,
        priceCents: 1_500,
        fsaContractId: bad.id,
      });
      await closeOwn?.();
      const overdrawn = await runCli(['fsa', 'reconcile'], { env });
      expect(overdrawn.code).toBe(1);
      expect(overdrawn.stdout).toMatch(/FSA-OVERDRAWN .*NO\n/);
      expect(overdrawn.stdout).toMatch(/1 of \d+ contracts do not balance\.\n$/);

      if (closeOwn) {
        const own = await openPglite(path.join(dataDir, 'pglite'));
        db = own.db;
        closeOwn = () => own.close();
      }
      await db.delete(entitlements).where(eq(entitlements.activationId, 'FSA-OVERDRAWN-LINE'));
      await closeOwn?.();
      closeOwn = undefined;
      const ok = await runCli(['fsa', 'reconcile', '--json'], { env });
      expect(ok.stderr).toBe('');
      expect(ok.code).toBe(0);
      const rows = JSON.parse(ok.stdout) as { contract: string; remainingCents: number; balanced: boolean }[];
      expect(rows.find((r) => r.contract === 'FSA-OVERDRAWN')).toMatchObject({
        remainingCents: 1_000,
        balanced: true,
      });
    } finally {
      await closeOwn?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
