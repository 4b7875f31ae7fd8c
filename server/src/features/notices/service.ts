import type { NoticeChoicesBody } from '@lp/contract/notices/schemas';
import {
  ALL_NOTICES,
  type Budget,
  budgetFindings,
  EXPIRY_THRESHOLDS,
  endingFinding,
  type Finding,
  NOTICE_TYPES,
  type NoticeType,
  RUN_OUT_WINDOW_DAYS,
  wanted,
} from '@lp/domain/notices';
import { shiftDay } from '@lp/domain/spend-forecast';
import type { Db } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { type Job, utcDay } from '../../platform/jobs.ts';
import { sendAccountEmail } from '../../platform/mail/mailer.ts';
import type { Principal } from '../../platform/principal.ts';
import { authorizeAccount } from '../accounts/policy.ts';
import { accountAdministrators } from '../accounts/service.ts';
import { auditActor, recordAudit } from '../audit/service.ts';
import { fsaEntitlements, noticeFacts } from '../entitlements/service.ts';
import { busopsList } from '../fsa/service.ts';
import { dailyUsage } from '../ledger/service.ts';
import { inactiveSeatFindings } from '../web-reporting/service.ts';
import { noticeDigest } from './digest.ts';
import {
  findChoices,
  findDisabledTypes,
  insertNewNotices,
  listChoices,
  listDisabledTypes,
  listRecentNotices,
  saveChoices,
  saveDisabledTypes,
} from './repository.ts';

/**
 * The daily notices job (issue 13 §2, decision 041): every account's expiry, usage and run-out findings of the
 * day, each recorded once per threshold, and a digest of the new ones e-mailed through the outbox in the same
 * transaction — to the account's administrators who chose them, and for FSA contracts to the contract's busops
 * list. Run by the database job runner, so once a day however many API nodes run.
 */

interface AccountFinding extends Finding {
  /** FSA findings: the contract's business-operations list also receives them */
  busops: string[];
}

async function gatherFindings(db: Db, today: string): Promise<Map<string, AccountFinding[]>> {
  const byAccount = new Map<string, AccountFinding[]>();
  const add = (customerNumber: string, f: Finding | null, busops: string[] = []) => {
    if (!f) return;
    byAccount.set(customerNumber, [...(byAccount.get(customerNumber) ?? []), { ...f, busops }]);
  };
  const lastDay = shiftDay(today, EXPIRY_THRESHOLDS[0]);
  for (const e of await noticeFacts.endings(db, today, lastDay))
    add(
      e.customer_number,
      endingFinding(
        { type: e.type, objectId: e.activation_id, product: e.product, endDay: e.end_day },
        today,
      ),
    );

  const windowStart = shiftDay(today, 1 - RUN_OUT_WINDOW_DAYS);
  const usage = new Map<number, { day: string; cents: number }[]>();
  for (const u of await dailyUsage(db, windowStart))
    usage.set(u.entitlementId, [...(usage.get(u.entitlementId) ?? []), { day: u.day, cents: u.cents }]);
  for (const e of await noticeFacts.elasticBudgets(db, today)) {
    const budget: Budget = {
      type: 'elastic',
      objectId: e.activation_id,
      name: `${e.product} (${e.activation_id})`,
      budgetCents: Number(e.quantity) * 100,
      usedCents: Number(e.used_cents),
      currency: 'units',
      endDay: e.end_date,
      spend: usage.get(Number(e.id)) ?? [],
    };
    for (const f of budgetFindings(budget, today)) add(e.customer_number, f);
  }

  const contracts = (await fsaEntitlements.contracts(db)).filter(
    (c) => c.endDate === null || c.endDate >= today,
  );
  const spend = new Map<number, { day: string; cents: number }[]>();
  for (const s of await fsaEntitlements.dailySpend(
    db,
    contracts.map((c) => c.id),
  ))
    spend.set(s.contractId, [...(spend.get(s.contractId) ?? []), { day: s.day, cents: s.cents }]);
  for (const c of contracts) {
    const budget: Budget = {
      type: 'fsa',
      objectId: c.activationId,
      name: `FSA contract ${c.activationId}`,
      budgetCents: c.budgetCents,
      usedCents: c.linesCents,
      currency: c.currency ?? '',
      endDay: c.endDate,
      spend: spend.get(c.id) ?? [],
    };
    for (const f of budgetFindings(budget, today)) add(c.customerNumber, f, busopsList(c));
  }
  // Web licensing's reclaim digest: named seats nobody used for 30 days, once a week.
  for (const [customerNumber, f] of await inactiveSeatFindings(db, today)) add(customerNumber, f);
  return byAccount;
}

export interface NoticesRun {
  accounts: number;
  findings: number;
  recorded: number;
  emails: number;
}

/** One day's notices for every account. Safe to repeat: a finding already recorded is neither recorded nor sent. */
export async function runNotices(ctx: AppContext, today: string): Promise<NoticesRun> {
  const [findings, disabled, choices, admins] = await Promise.all([
    gatherFindings(ctx.db, today),
    listDisabledTypes(ctx.db),
    listChoices(ctx.db),
    accountAdministrators(ctx.db),
  ]);
  const run: NoticesRun = { accounts: findings.size, findings: 0, recorded: 0, emails: 0 };
  for (const [customerNumber, all] of findings) {
    const off = (disabled.get(customerNumber) ?? []) as NoticeType[];
    const found = all.filter((f) => !off.includes(f.type));
    run.findings += found.length;
    if (found.length === 0) continue;
    await ctx.db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const recorded = await insertNewNotices(
        tx,
        found.map((f) => ({
          customerNumber,
          type: f.type,
          objectId: f.objectId,
          threshold: f.threshold,
          text: f.text,
          foundOn: today,
        })),
      );
      run.recorded += recorded.length;
      const fresh = found.filter((f) =>
        recorded.some((r) => r.type === f.type && r.objectId === f.objectId && r.threshold === f.threshold),
      );
      // One digest per set of lines: administrators who chose the same findings share an e-mail.
      const digests = new Map<string, { to: Set<string>; lines: string[] }>();
      const send = (to: string, lines: string[]) => {
        if (lines.length === 0) return;
        const key = lines.join('\n');
        const digest = digests.get(key) ?? { to: new Set<string>(), lines };
        digest.to.add(to);
        digests.set(key, digest);
      };
      const users = choices.get(customerNumber);
      for (const admin of admins.get(customerNumber) ?? [])
        send(
          admin,
          fresh.filter((f) => wanted(f, users?.get(admin.toLowerCase()) ?? ALL_NOTICES)).map((f) => f.text),
        );
      const busops = new Map<string, string[]>();
      for (const f of fresh) for (const to of f.busops) busops.set(to, [...(busops.get(to) ?? []), f.text]);
      for (const [to, lines] of busops) send(to, lines);
      for (const { to, lines } of digests.values()) {
        await sendAccountEmail(
          ctx,
          { customerNumber, to: [...to], ...noticeDigest(customerNumber, lines, ctx.config.publicUrl) },
          tx,
        );
        run.emails += 1;
      }
    });
  }
  ctx.log.info({ today, ...run }, 'notices job finished');
  return run;
}

export const noticesJob: Job = {
  name: 'notices',
  runKeyOf: utcDay,
  run: async (ctx, runKey) => {
    await runNotices(ctx, runKey);
  },
};

/** The panel shows the notices of the last 30 days (older ones were mailed and are history). */
const PANEL_DAYS = 30;

const choicesOf = (row: { expiryDays: number[]; usagePercents: number[]; runOut: boolean } | undefined) =>
  (row
    ? { expiryDays: row.expiryDays, usagePercents: row.usagePercents, runOut: row.runOut }
    : ALL_NOTICES) as NoticeChoicesBody;

/** The account's recent notices this user receives, their choices and the account's switched-off types. */
export async function listNotices(
  ctx: AppContext,
  principal: Principal,
  customerNumber: string,
  now = new Date(),
) {
  const access = await authorizeAccount(ctx, principal, customerNumber, 'read');
  const [rows, row, disabled] = await Promise.all([
    listRecentNotices(ctx.db, customerNumber, shiftDay(utcDay(now), 1 - PANEL_DAYS)),
    findChoices(ctx.db, principal.email, customerNumber),
    findDisabledTypes(ctx.db, customerNumber),
  ]);
  const choices = choicesOf(row);
  const disabledTypes = disabled as NoticeType[];
  return {
    notices: rows
      .filter((n) => wanted({ type: n.type as NoticeType, threshold: n.threshold }, choices, disabledTypes))
      .map((n) => ({
        id: n.id,
        type: n.type as NoticeType,
        objectId: n.objectId,
        threshold: n.threshold,
        text: n.text,
        foundOn: n.foundOn,
      })),
    choices,
    disabledTypes,
    canChangeTypes: !access.permissions.viewOnly,
  };
}

/** Saves which thresholds this user receives for the account (anyone who can read it chooses for themselves). */
export async function setNoticeChoices(
  ctx: AppContext,
  principal: Principal,
  body: NoticeChoicesBody & { customerNumber: string },
) {
  await authorizeAccount(ctx, principal, body.customerNumber, 'read');
  const after = {
    expiryDays: [...new Set(body.expiryDays)],
    usagePercents: [...new Set(body.usagePercents)],
    runOut: body.runOut,
  };
  // Audited like the account's types (issue 21): one entry in the save's transaction, before = what applied.
  await ctx.db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const before = choicesOf(await findChoices(tx, principal.email, body.customerNumber));
    await saveChoices(tx, { userEmail: principal.email, customerNumber: body.customerNumber, ...after });
    await recordAudit(tx, auditActor(principal), [
      {
        customerNumber: body.customerNumber,
        action: 'notices.choices.changed',
        object: { type: 'notice-choices', id: principal.email.toLowerCase() },
        before: { ...before },
        after,
      },
    ]);
  });
}

/** Switches notice types off for the account: its administrators and vendor staff (not view-only users). */
export async function setNoticeTypes(
  ctx: AppContext,
  principal: Principal,
  body: { customerNumber: string; disabledTypes: NoticeType[] },
) {
  await authorizeAccount(ctx, principal, body.customerNumber, 'edit');
  const disabledTypes = NOTICE_TYPES.filter((t) => body.disabledTypes.includes(t));
  await ctx.db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const before = await findDisabledTypes(tx, body.customerNumber);
    await saveDisabledTypes(tx, body.customerNumber, disabledTypes);
    await recordAudit(tx, auditActor(principal), [
      {
        customerNumber: body.customerNumber,
        action: 'notices.types.changed',
        object: { type: 'notice-settings', id: body.customerNumber },
        before: { disabledTypes: before },
        after: { disabledTypes },
      },
    ]);
  });
}
