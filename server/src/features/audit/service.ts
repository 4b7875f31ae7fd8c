import type { AuditAction } from '@lp/contract/audit/actions';
import { AUTOMATED_ACTION } from '@lp/domain/entitlements';
import type { Db } from '../../db/database.ts';
import type { Principal } from '../../platform/principal.ts';
import { type AuditActorKind, GLOBAL_CHAIN } from './chain.ts';
import { type AppendedEntry, appendEntries } from './repository.ts';

/**
 * The audit log's write side (issue 13 §1, decision 039). Every feature records its changes with `recordAudit`
 * inside the transaction that makes the change, so a change and its entries commit or roll back together; one
 * call per transaction, with all of its changes, is the cheap way (decision 062).
 */

/** Who made a change, and from where when it came through a request. */
export interface AuditActor {
  kind: AuditActorKind;
  /** User id, API token id or credential id; null for automated actions */
  id: string | null;
  /** E-mail, credential name, or 'Automated Action' */
  name: string;
  /** The server's id of the request */
  requestId: string | null;
  /** The X-Request-Id the client sent, kept as the client's (never as the request id) */
  clientRequestId?: string | null;
  clientIp: string | null;
}

/** The signed-in user (cookie session) or their API token behind a request. */
export function auditActor(principal: Principal): AuditActor {
  const byToken = principal.via === 'token';
  return {
    kind: byToken ? 'api-token' : 'user',
    id: byToken ? (principal.tokenId ?? principal.userId) : principal.userId,
    name: principal.email,
    requestId: principal.origin?.requestId ?? null,
    clientRequestId: principal.origin?.clientRequestId ?? null,
    clientIp: principal.origin?.clientIp ?? null,
  };
}

/** Jobs and housekeeping. */
export const automatedActor: AuditActor = {
  kind: 'automated',
  id: null,
  name: AUTOMATED_ACTION,
  requestId: null,
  clientIp: null,
};

/** Stands for a secret's value in before/after (a PIN is never recorded). */
export const REDACTED = '[redacted]';

export interface AuditChange {
  /** The account the change belongs to; null for vendor-wide changes (feature flags, alerts, sign-ins) */
  customerNumber: string | null;
  /** From the catalogue (`@lp/contract/audit/actions`): 'ip-rules.changed', 'fsa.ordered', … */
  action: AuditAction;
  object: { type: string; id: string };
  /** The changed fields before and after; with both, only the fields that differ are kept */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Keeps the fields whose values differ; null when nothing differs. */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } | null {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (k) => !same(before[k], after[k]),
  );
  if (keys.length === 0) return null;
  const pick = (o: Record<string, unknown>) =>
    Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]]));
  return { before: pick(before), after: pick(after) };
}

/**
 * Records a transaction's changes, in order, after the change's own row locks (the chains' heads are locked last,
 * in one fixed order: decision 062). With both before and after, only the differing fields are kept, and a change
 * that changes nothing is not recorded. Answers the entries recorded.
 */
export async function recordAudit(
  tx: Db,
  actor: AuditActor,
  changes: readonly AuditChange[],
): Promise<AppendedEntry[]> {
  // Whole milliseconds, so the stored instant hashes the same when read back; one instant for the batch.
  const at = new Date(Date.now());
  const entries = changes.flatMap((change) => {
    let before = change.before ?? null;
    let after = change.after ?? null;
    if (before && after) {
      const diff = changedFields(before, after);
      if (!diff) return [];
      ({ before, after } = diff);
    }
    return [
      {
        chain: change.customerNumber ?? GLOBAL_CHAIN,
        at,
        customerNumber: change.customerNumber,
        actorKind: actor.kind,
        actorId: actor.id,
        actorName: actor.name,
        action: change.action,
        objectType: change.object.type,
        objectId: change.object.id,
        before,
        after,
        requestId: actor.requestId,
        clientRequestId: actor.clientRequestId ?? null,
        clientIp: actor.clientIp,
      },
    ];
  });
  return appendEntries(tx, entries);
}

/** What other features' tests check their entries with: the chains verify (decision 039). */
export { verifyAudit } from './verify-service.ts';
