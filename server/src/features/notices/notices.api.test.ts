import os from 'node:os';
import { noticesApi } from '@lp/contract/notices/api';
import { contactRoles } from '@lp/domain/policy';
import { shiftDay } from '@lp/domain/spend-forecast';
import { and, asc, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { addContact, buildEntitlement } from '../../../harness/factories.ts';
import { acme, apiTest, type Caller, other } from '../../../test/api-fixture.ts';
import { auditEntries, emails, noticeChoices, noticeSettings, notices } from '../../db/schema.ts';
import { loadConfig } from '../../platform/config.ts';
import type { AppContext } from '../../platform/context.ts';
import { runDueJobs } from '../../platform/jobs.ts';
import { noticesJob, runNotices } from './service.ts';

/*
 * The daily notices job (issue 13 §2, decision 041): findings of leases, maintenance, evaluations, elastic and FSA
 * budgets, recorded once per threshold, e-mailed to the administrators who chose them and to an FSA contract's
 * busops list; the same day again (restarts, several nodes) sends nothing new; a switched-off type sends nothing.
 */

const CN = acme.customerNumber;
const OTHER = other.customerNumber;
const TODAY = '2030-01-15';
const day = (n: number) => shiftDay(TODAY, n);

/** The digest's lines as text (the body escapes them as HTML). */
const linesOf = (body: string) =>
  [...body.matchAll(/<li>(.*?)<\/li>/g)].map((m) =>
    (m[1] ?? '').replaceAll('&#39;', "'").replaceAll('&amp;', '&'),
  );

const it = apiTest
  /** What the job's run is given: the app's database and log. */
  .extend(
    'ctx',
    { scope: 'file' },
    async ({ app, database }): Promise<AppContext> => ({
      config: loadConfig({ NODE_ENV: 'test', DATA_DIR: os.tmpdir() }),
      database,
      db: database.db,
      secret: Buffer.alloc(32),
      log: app.log,
    }),
  )
  .extend('found', { scope: 'file' }, async ({ database }) => ({
    noticeKeys: async (customerNumber: string) =>
      (
        await database.db
          .select()
          .from(notices)
          .where(eq(notices.customerNumber, customerNumber))
          .orderBy(asc(notices.id))
      ).map((n) => `${n.type} ${n.objectId} ${n.threshold}`),
    mails: async (customerNumber: string) =>
      database.db
        .select({ to: emails.to, subject: emails.subject, body: emails.body })
        .from(emails)
        .where(eq(emails.customerNumber, customerNumber))
        .orderBy(asc(emails.id)),
  }))
  .extend('notice', { scope: 'file' }, async ({ api }) => {
    const list = async (who: Caller) => (await api.ok(who, noticesApi.list, { customerNumber: CN })).data;
    return {
      list,
      keys: (data: Awaited<ReturnType<typeof list>>) =>
        data.notices.map((n) => `${n.type} ${n.objectId} ${n.threshold}`).sort(),
    };
  });

// The cast comes first: its accounts own the entitlements.
it.beforeAll(async ({ database, cast: _accounts }) => {
  const db = database.db;
  await addContact(db, CN, 'coord@acme.example', contactRoles.coordinator);
  // The coordinator only wants the last week before an end.
  await db.insert(noticeChoices).values({
    userEmail: 'coord@acme.example',
    customerNumber: CN,
    expiryDays: [7],
    usagePercents: [],
    runOut: false,
  });

  await buildEntitlement(db, CN, { activationId: 'L-25', productName: 'Solver', endDate: day(25) });
  await buildEntitlement(db, CN, { activationId: 'L-200', productName: 'Solver', endDate: day(200) });
  await buildEntitlement(db, CN, {
    activationId: 'P-5',
    productName: 'CFD',
    licenseModel: 'Perpetual',
    endDate: null,
    versionDate: day(5),
  });
  await buildEntitlement(db, CN, {
    activationId: 'E-60',
    productName: 'HF',
    isEvaluation: true,
    endDate: day(60),
  });
  await buildEntitlement(db, CN, {
    activationId: 'EL-1',
    productName: 'Elastic Units',
    kind: 'ELASTIC',
    licenseModel: 'Elastic',
    quantity: 100,
    usedCents: 9_600,
    endDate: day(300),
  });
  const contract = await buildEntitlement(db, CN, {
    activationId: 'FSA-N',
    kind: 'FSA',
    licenseModel: 'FSA',
    currency: 'USD',
    priceCents: 100_000,
    startDate: day(-60),
    endDate: day(300),
    busopsEmails: 'ops@vendor.example',
  });
  for (const id of ['FSA-N-1', 'FSA-N-2'])
    await buildEntitlement(db, CN, {
      activationId: id,
      productName: 'Solver',
      fsaContractId: contract?.id,
      priceCents: 42_500,
      startDate: TODAY,
      endDate: day(200),
      orderedAt: new Date(`${day(-3)}T10:00:00Z`),
    });

  // The other account switched lease notices off.
  await buildEntitlement(db, OTHER, { activationId: 'O-10', productName: 'Solver', endDate: day(10) });
  await db.insert(noticeSettings).values({ customerNumber: OTHER, disabledTypes: ['lease-ending'] });
});
describe('the daily notices job', () => {
  it('records each finding at its threshold and mails each administrator what they chose, busops the FSA lines', async ({
    ctx,
    found: { noticeKeys, mails },
  }) => {
    const run = await runNotices(ctx, TODAY);
    // Endings soonest first.
    expect(await noticeKeys(CN)).toEqual([
      'maintenance-ending P-5 7',
      'lease-ending L-25 30',
      'evaluation-ending E-60 90',
      'elastic-usage EL-1 95',
      'fsa-usage FSA-N 80',
      'fsa-run-out FSA-N 0',
    ]);
    const sent = await mails(CN);
    const to = (address: string) => sent.filter((m) => m.to.split(', ').includes(address));
    expect(to('boss@acme.example')).toHaveLength(1);
    expect(linesOf(to('boss@acme.example')[0]?.body ?? '')).toEqual([
      'Maintenance of CFD (P-5) ends on 2030-01-20: 6 days left.',
      'Lease Solver (L-25) ends on 2030-02-09: 26 days left.',
      'Evaluation license HF (E-60) ends on 2030-03-16: 61 days left.',
      'Elastic Units (EL-1): 96% of the budget is used (remaining 4.00 units).',
      'FSA contract FSA-N: 85% of the budget is used (remaining 150.00 USD).',
      // 85 000 in the last 90 days (the FSA page's window): 944.44 a day; 15 000 left lasts ⌈15 000 × 90 / 85 000⌉ = 16 days.
      "FSA contract FSA-N: at the last 90 days' rate of 9.44 USD a day, the balance runs out on 2030-01-31, before the term ends on 2030-11-11.",
    ]);
    expect(linesOf(to('coord@acme.example')[0]?.body ?? '')).toEqual([
      'Maintenance of CFD (P-5) ends on 2030-01-20: 6 days left.',
    ]);
    expect(linesOf(to('ops@vendor.example')[0]?.body ?? '')).toEqual([
      'FSA contract FSA-N: 85% of the budget is used (remaining 150.00 USD).',
      "FSA contract FSA-N: at the last 90 days' rate of 9.44 USD a day, the balance runs out on 2030-01-31, before the term ends on 2030-11-11.",
    ]);
    expect(to('reader@acme.example')).toEqual([]);
    expect(sent).toHaveLength(3);
    expect(sent[0]?.subject).toBe(`Licensing notices for account ${CN}: 6 new`);
    expect(await noticeKeys(OTHER)).toEqual([]);
    expect(await mails(OTHER)).toEqual([]);
    expect(run).toMatchObject({ recorded: 6, emails: 3 });
  });

  it('sends nothing new the same day, however many nodes run it and after restarts', async ({
    ctx,
    found: { noticeKeys, mails },
  }) => {
    const job = { ...noticesJob, runKeyOf: () => `${TODAY}-again` };
    const polls = await Promise.all(
      ['node-a', 'node-b', 'node-c'].map((node) =>
        runDueJobs(ctx, [{ ...job, run: (c) => runNotices(c, TODAY).then(() => undefined) }], { node }),
      ),
    );
    expect(polls.flat()).toHaveLength(1);
    expect((await runNotices(ctx, TODAY)).recorded).toBe(0);
    expect(await noticeKeys(CN)).toHaveLength(6);
    expect(await mails(CN)).toHaveLength(3);
  });

  it('notifies again when a tighter threshold is reached', async ({ ctx, found: { noticeKeys, mails } }) => {
    const later = day(19);
    const run = await runNotices(ctx, later);
    expect(run.recorded).toBe(1);
    expect((await noticeKeys(CN)).at(-1)).toBe('lease-ending L-25 7');
    const sent = await mails(CN);
    // Both administrators chose the 7-day notice: one e-mail to both.
    expect(sent).toHaveLength(4);
    expect(sent.slice(3).map((m) => [m.to, linesOf(m.body)])).toEqual([
      ['boss@acme.example, coord@acme.example', ['Lease Solver (L-25) ends on 2030-02-09: 7 days left.']],
    ]);
  });
});

describe('the notices calls', () => {
  it("lists the account's notices the user chose, newest first, and saves the user's choices", async ({
    api,
    cast: { boss, reader },
    notice: { list, keys },
  }) => {
    const all = await list(boss);
    expect(keys(all)).toEqual(
      [
        'elastic-usage EL-1 95',
        'evaluation-ending E-60 90',
        'fsa-run-out FSA-N 0',
        'fsa-usage FSA-N 80',
        'lease-ending L-25 30',
        'lease-ending L-25 7',
        'maintenance-ending P-5 7',
      ].sort(),
    );
    expect(all.notices[0]).toMatchObject({ type: 'lease-ending', threshold: 7 });
    expect(all).toMatchObject({
      choices: { expiryDays: [90, 30, 7], usagePercents: [80, 95], runOut: true },
      canChangeTypes: true,
    });

    await api.ok(reader, noticesApi.setChoices, {
      customerNumber: CN,
      expiryDays: [7],
      usagePercents: [95],
      runOut: false,
    });
    const mine = await list(reader);
    expect(keys(mine)).toEqual(['elastic-usage EL-1 95', 'lease-ending L-25 7', 'maintenance-ending P-5 7']);
    expect(mine).toMatchObject({
      choices: { expiryDays: [7], usagePercents: [95], runOut: false },
      canChangeTypes: false,
    });
    // The administrator's own choices are untouched.
    expect(keys(await list(boss))).toHaveLength(7);
  });

  it('lets administrators switch a type off for the account, recorded in the audit log; viewers and outsiders are refused', async ({
    api,
    database,
    cast: { boss, reader, outsider },
    notice: { list, keys },
  }) => {
    await api.refused(
      reader,
      noticesApi.setTypes,
      { customerNumber: CN, disabledTypes: ['fsa-run-out'] },
      403,
    );
    await api.refused(outsider, noticesApi.list, { customerNumber: CN }, 403);
    await api.ok(boss, noticesApi.setTypes, { customerNumber: CN, disabledTypes: ['fsa-run-out'] });
    const data = await list(boss);
    expect(data.disabledTypes).toEqual(['fsa-run-out']);
    expect(keys(data)).not.toContain('fsa-run-out FSA-N 0');
    const [entry] = await database.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.customerNumber, CN), eq(auditEntries.action, 'notices.types.changed')));
    expect(entry).toMatchObject({
      actorName: 'boss@acme.example',
      before: { disabledTypes: [] },
      after: { disabledTypes: ['fsa-run-out'] },
    });
  });

  it('refuses thresholds that do not exist and unknown types with 400', async ({ api, cast: { boss } }) => {
    await api.refused(
      boss,
      noticesApi.setChoices,
      { customerNumber: CN, expiryDays: [15], usagePercents: [], runOut: true },
      400,
    );
    await api.refused(boss, noticesApi.setTypes, { customerNumber: CN, disabledTypes: ['everything'] }, 400);
  });
});
