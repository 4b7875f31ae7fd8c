import { formatDate } from '@lp/domain/dates';
import { allocate, centsToUnits, unitsToCents } from '@lp/domain/elastic-rating';
import type { Db } from '../../db/database.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { type AuditActor, recordAudit } from '../audit/service.ts';
import { type LedgerEntitlement, ledgerEntitlementStore } from '../entitlements/service.ts';
import {
  addToRollups,
  dailyUsageSince,
  insertLedgerRows,
  type LedgerRow,
  lockAccountLedger,
  type ReconcileRow,
  type RollupRow,
  reconcileTotals,
} from './repository.ts';

export type { LedgerEntitlement } from '../entitlements/service.ts';

/** Usage drawn per elastic entitlement and UTC day since `fromDay`, every account (the notices' burn rate). */
export async function dailyUsage(db: Db, fromDay: string) {
  return (await dailyUsageSince(db, fromDay)).map((r) => ({
    entitlementId: Number(r.entitlement_id),
    day: r.day,
    cents: Number(r.cents),
  }));
}

/**
 * Takes the account's ledger lock (held until the transaction ends) and reads its elastic entitlements with
 * their balances under it: what postCharges needs. Call it inside the transaction that posts.
 */
export async function lockLedgerEntitlements(tx: Db, customerNumber: string): Promise<LedgerEntitlement[]> {
  await lockAccountLedger(tx, customerNumber);
  return ledgerEntitlementStore.list(tx, customerNumber);
}

/** The account's elastic entitlements with their balances, without the lock (a read that posts nothing). */
export async function ledgerEntitlements(db: Db, customerNumber: string): Promise<LedgerEntitlement[]> {
  return ledgerEntitlementStore.list(db, customerNumber);
}

/** Rollup row key for usage that no entitlement covered. */
export const UNCOVERED = 0;

export interface Charge {
  product: string;
  /** hundredths of a unit, ≥ 0 */
  cents: number;
  /** when the usage happened */
  at: Date;
}

export interface PostedCharge extends Charge {
  /** the first entitlement that paid (null: all overage) */
  entitlementId: number | null;
}

/**
 * Posts charges of one account to the ledger in the given order: each draws down the entitlements valid on its
 * day (earliest expiry first, never below zero), the rest is overage. The ledger gets one row per entitlement
 * (or overage), product and UTC day of the posting, summed over its charges and dated by the latest of them
 * (decision 078): a batch of a thousand events writes a few rows, not one per session. Ledger rows, daily
 * rollups and the entitlements' Used move together in the caller's transaction; the caller must hold the account
 * lock and pass the entitlements it read under it (lockLedgerEntitlements).
 */
export async function postCharges(
  tx: Db,
  customerNumber: string,
  entitlements: LedgerEntitlement[],
  charges: readonly Charge[],
): Promise<PostedCharge[]> {
  // One ledger row per entitlement (or overage), day and product; its rollup row has the same key and amount.
  const ledger = new Map<string, { row: LedgerRow; day: string }>();
  const used = new Map<number, number>();
  const posted: PostedCharge[] = [];
  const post = (entitlementId: number | null, day: string, product: string, cents: number, at: string) => {
    const key = `${entitlementId ?? UNCOVERED}|${day}|${product}`;
    const entry = ledger.get(key);
    if (entry) {
      entry.row.amount_cents += cents;
      if (at > entry.row.at) entry.row.at = at;
    } else
      ledger.set(key, {
        row: {
          customer_number: customerNumber,
          entitlement_id: entitlementId,
          kind: entitlementId === null ? 'overage' : 'usage',
          product,
          amount_cents: cents,
          at,
        },
        day,
      });
  };
  for (const charge of charges) {
    if (charge.cents <= 0) {
      posted.push({ ...charge, entitlementId: null });
      continue;
    }
    const day = formatDate(charge.at);
    const at = charge.at.toISOString();
    const { draws, overageCents } = allocate(entitlements, day, charge.cents);
    for (const draw of draws) {
      post(draw.entitlementId, day, charge.product, draw.cents, at);
      used.set(draw.entitlementId, (used.get(draw.entitlementId) ?? 0) + draw.cents);
    }
    if (overageCents > 0) post(null, day, charge.product, overageCents, at);
    posted.push({ ...charge, entitlementId: draws[0]?.entitlementId ?? null });
  }
  const entries = [...ledger.values()];
  await insertLedgerRows(
    tx,
    entries.map((e) => e.row),
  );
  await addToRollups(
    tx,
    entries.map(
      ({ row, day }): RollupRow => ({
        customer_number: customerNumber,
        entitlement_id: row.entitlement_id ?? UNCOVERED,
        day,
        product: row.product,
        amount_cents: row.amount_cents,
      }),
    ),
  );
  await ledgerEntitlementStore.addUsed(
    tx,
    [...used].map(([id, cents]) => ({ id, cents })),
  );
  return posted;
}

export interface AdjustmentInput {
  customerNumber: string;
  activationId: string;
  /** units; positive = debit (consumes balance), negative = credit (gives balance back) */
  amount: number;
  product: string;
  note: string;
  day: string;
  createdBy: string;
}

/**
 * A staff adjustment against one entitlement. A debit may not exceed the remaining balance and a credit may not
 * give back more than was used, so the entitlement stays within [0, quantity].
 */
export async function postAdjustment(tx: Db, input: AdjustmentInput) {
  const entitlements = await lockLedgerEntitlements(tx, input.customerNumber);
  const target = entitlements.find((e) => e.activationId === input.activationId);
  if (!target) throw notFound('Entitlement not found');
  const cents = unitsToCents(input.amount);
  if (cents === 0) throw badRequest('Adjustment amount must not be zero');
  if (cents > target.quantityCents - target.usedCents)
    throw badRequest("Adjustment exceeds the entitlement's remaining balance");
  if (-cents > target.usedCents) throw badRequest("Credit exceeds the entitlement's used amount");
  await insertLedgerRows(tx, [
    {
      customer_number: input.customerNumber,
      entitlement_id: target.id,
      kind: 'adjustment',
      product: input.product,
      amount_cents: cents,
      at: new Date(`${input.day}T12:00:00Z`).toISOString(),
      created_by: input.createdBy,
      note: input.note,
    },
  ]);
  await addToRollups(tx, [
    {
      customer_number: input.customerNumber,
      entitlement_id: target.id,
      day: input.day,
      product: input.product,
      amount_cents: cents,
    },
  ]);
  await ledgerEntitlementStore.addUsed(tx, [{ id: target.id, cents }]);
  return { activationId: target.activationId, used: centsToUnits(target.usedCents + cents) };
}

/** A staff adjustment in its own transaction, recorded in the audit log with the entitlement's Used before and after. */
export async function adjustBalance(db: Db, actor: AuditActor, input: AdjustmentInput) {
  return db.transaction(async (tx) => {
    const result = await postAdjustment(tx, input);
    await recordAudit(tx, actor, [
      {
        customerNumber: input.customerNumber,
        action: 'ledger.adjustment.posted',
        object: { type: 'entitlement', id: input.activationId },
        before: { used: centsToUnits(unitsToCents(result.used) - unitsToCents(input.amount)) },
        after: {
          used: result.used,
          amount: input.amount,
          product: input.product,
          note: input.note,
          day: input.day,
        },
      },
    ]);
    return result;
  });
}

export interface Reconciliation {
  customerNumber: string;
  sessions: number;
  drawn: number;
  overage: number;
  adjustments: number;
  entitlementUsed: number;
  rollups: number;
  balanced: boolean;
}

/**
 * Checks the ledger's invariants per account: session charges = usage draws + overage; entitlements' Used =
 * usage draws + adjustments; rollups = everything in the ledger.
 */
export async function reconcile(db: Db, customerNumber?: string): Promise<Reconciliation[]> {
  const rows = await reconcileTotals(db, customerNumber);
  const usedByAccount = await ledgerEntitlementStore.usedByAccount(db, customerNumber);
  // Accounts with entitlements but no ledger activity yet reconcile too (nothing used, nothing drawn).
  const known = new Set(rows.map((r) => r.customer_number));
  const all: ReconcileRow[] = [
    ...rows,
    ...[...usedByAccount.keys()]
      .filter((cn) => !known.has(cn))
      .map((cn) => ({
        customer_number: cn,
        session_cents: 0,
        usage_cents: 0,
        overage_cents: 0,
        adjustment_cents: 0,
        rollup_cents: 0,
      })),
  ].sort((a, b) => a.customer_number.localeCompare(b.customer_number));
  return all.map((r: ReconcileRow) => {
    const [sessions, usage, overage, adjustments, rollups] = [
      r.session_cents,
      r.usage_cents,
      r.overage_cents,
      r.adjustment_cents,
      r.rollup_cents,
    ].map(Number);
    const used = usedByAccount.get(r.customer_number) ?? 0;
    return {
      customerNumber: r.customer_number,
      sessions: centsToUnits(sessions),
      drawn: centsToUnits(usage),
      overage: centsToUnits(overage),
      adjustments: centsToUnits(adjustments),
      entitlementUsed: centsToUnits(used),
      rollups: centsToUnits(rollups),
      balanced:
        sessions === usage + overage &&
        used === usage + adjustments &&
        rollups === usage + overage + adjustments,
    };
  });
}
