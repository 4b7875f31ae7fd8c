import { randomUUID } from 'node:crypto';
import { messages } from '@lp/contract/common/errors';
import type { OpenWebSession, WebCheckoutResult, WebLeaseState } from '@lp/contract/web-sessions/schemas';
import { isExportBlocked } from '@lp/domain/policy';
import { chooseSharedSeat, type DenialReason, denialReasons } from '@lp/domain/web-seats';
import type { Db } from '../../db/database.ts';
import { claimKeyInsert, keyOutcomeUpdate, requestHashOf, storedOutcome } from '../../db/operation-keys.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, forbidden, notFound } from '../../platform/errors.ts';
import type { Job } from '../../platform/jobs.ts';
import type { Principal } from '../../platform/principal.ts';
import { authorizeAccount } from '../accounts/policy.ts';
import { auditActor, recordAudit } from '../audit/service.ts';
import { defaultPolicy, webPoolFromJson, webPoolJson, webPoolLockCall } from '../web-seats/service.ts';
import {
  checkoutState,
  claimCheckout,
  endLease,
  endLeasesOfUsers,
  lockLease,
  lockLeaseOfAccount,
  openLeasesOf,
  pruneSweepRuns,
  recordCheckout,
  renewLease,
  type StoredLease,
  sweepLeases,
} from './repository.ts';
import { authenticateWebProduct, type WebProduct } from './web-credentials.ts';

// The product credentials, for the features that issue or use them in-process (the demo world and its simulator).
export { issueWebCredential, listWebCredentials, type WebProduct } from './web-credentials.ts';

export const noSuchLease = 'No such lease.';
export const noSuchAccount = 'No such account.';
export const partNotCovered = (partNumber: string) =>
  `This credential is not issued for part number ${partNumber}.`;

/**
 * Ends the open leases of these people (decision 071: suspending or removing a person ends their sessions in the
 * same transaction). web-directory calls it inside its own transaction; answers how many leases ended.
 */
export async function endUserLeases(
  tx: Db,
  customerNumber: string,
  userIds: string[],
  outcome: 'user-removed' | 'admin-released',
): Promise<number> {
  return endLeasesOfUsers(tx, customerNumber, userIds, outcome);
}

/** The vendor product behind a request's bearer token (401 alike for missing, unknown and revoked). */
export async function requireWebProduct(
  ctx: AppContext,
  authorization: string | undefined,
): Promise<WebProduct> {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  const product = token ? await authenticateWebProduct(ctx.db, token) : null;
  if (!product) throw new AppError('UNAUTHENTICATED', messages.notSignedIn);
  return product;
}

/** A product may act only on the part numbers its credential is issued for. */
function requireCovered(product: WebProduct, partNumber: string): void {
  if (!product.partNumbers.includes(partNumber)) throw forbidden(partNotCovered(partNumber));
}

/** How often a product should send heartbeats: a third of the window, so one lost heartbeat does not end it. */
const heartbeatSecondsOf = (windowSeconds: number) => Math.floor(windowSeconds / 3);
const deadline = (from: Date | string, seconds: number) =>
  new Date(new Date(from).getTime() + seconds * 1000).toISOString();

/**
 * Checks out a seat (decision 071 "Checkout"): in one transaction under the pool's lock, the person, the pool and
 * the counts are read and the grant or the denial recorded, so exactly the free seats are granted however many
 * checkouts race. A retry with the same operation key answers the first outcome without a second lease. Three
 * statements in the transaction (the claim with the account and the lock, the read, the write; decision 071's
 * "As built"), each a round trip that waits on the database under load.
 */
export async function checkout(
  ctx: AppContext,
  product: WebProduct,
  request: {
    customerNumber: string;
    email: string;
    partNumber: string;
    client: string;
    operationKey?: string;
  },
  now = new Date(),
): Promise<WebCheckoutResult> {
  const { customerNumber, partNumber } = request;
  requireCovered(product, partNumber);
  const email = request.email.toLowerCase();
  const key = request.operationKey
    ? {
        key: request.operationKey,
        operation: 'webCheckout',
        userEmail: `web-credential:${product.credentialId}`,
        requestHash: requestHashOf({ ...request, email }),
      }
    : undefined;
  return ctx.db.transaction(async (tx) => {
    const { account, claimed } = await claimCheckout(
      tx,
      customerNumber,
      key && claimKeyInsert(key),
      webPoolLockCall(customerNumber, partNumber),
    );
    // The account is refused before a stored outcome is answered; the refusal rolls the claim back.
    if (!account) throw notFound(noSuchAccount);
    if (isExportBlocked(account.exportControlStatus)) throw forbidden(messages.exportDenied);
    if (account.disabled) throw forbidden();
    if (key && !claimed) return storedOutcome<WebCheckoutResult>(tx, key, key.requestHash);

    const state = await checkoutState(
      tx,
      customerNumber,
      partNumber,
      email,
      webPoolJson(customerNumber, partNumber),
    );
    const pool = webPoolFromJson(state.pool);
    const { person } = state;
    const lease = {
      leaseId: randomUUID(),
      customerNumber,
      partNumber,
      poolKind: pool?.kind ?? null,
      userId: person?.id ?? null,
      email,
      credentialId: product.credentialId,
      product: product.product,
      client: request.client,
      at: now,
    };
    // The answer is stored with the key in the statement that records the lease: the lease id is made here.
    const answer = async (
      result: WebCheckoutResult,
      groupId: string | null,
      denialReason: DenialReason | null,
    ): Promise<WebCheckoutResult> => {
      await recordCheckout(
        tx,
        { ...lease, groupId, denialReason },
        key && keyOutcomeUpdate(key.key, key.requestHash, result),
      );
      return result;
    };
    const deny = (reason: DenialReason) =>
      answer({ granted: false, reason, message: denialReasons[reason] }, null, reason);
    if (!person) return deny('unknown-user');
    if (person.state === 'suspended' || person.state === 'removed') return deny('suspended-user');
    if (!pool) return deny('no-pool');
    if (pool.kind === 'named' && !state.holdsNamedSeat) return deny('no-seat-assigned');
    if (state.sessions >= pool.policy.sessionsPerUser) return deny('session-limit');
    let group: { id: string; name: string } | undefined;
    if (pool.kind === 'shared') {
      const verdict = chooseSharedSeat(
        { seats: pool.seats, open: state.open, terms: state.terms },
        state.personGroupIds,
      );
      if (!verdict.granted) return deny(verdict.reason);
      const terms = state.terms.find((t) => t.groupId === verdict.groupId);
      if (terms) group = { id: terms.groupId, name: terms.groupName };
    }
    const window = pool.policy.heartbeatWindowSeconds;
    return answer(
      {
        granted: true,
        leaseId: lease.leaseId,
        expiresAt: deadline(now, window),
        heartbeatSeconds: heartbeatSecondsOf(window),
        seat: pool.kind,
        ...(group && { group }),
      },
      group?.id ?? null,
      null,
    );
  });
}

/** A lease the product may act on: one of a part number its credential covers (else unknown, as no lease). */
async function productLease(tx: Db, product: WebProduct, leaseId: string): Promise<StoredLease> {
  const lease = await lockLease(tx, leaseId, defaultPolicy);
  if (!lease || !product.partNumbers.includes(lease.partNumber)) throw notFound(noSuchLease);
  return lease;
}

/**
 * The deadline an open lease has passed at `now`, as the outcome it ends with; null while it lives. A heartbeat that
 * reports activity had some since the last heartbeat, within the window, so it is never idle.
 */
function lapsed(lease: StoredLease, now: Date, active: boolean): 'heartbeat-lost' | 'idle-timeout' | null {
  if (
    lease.lastHeartbeatAt &&
    deadline(lease.lastHeartbeatAt, lease.heartbeatWindowSeconds) < now.toISOString()
  )
    return 'heartbeat-lost';
  if (
    !active &&
    lease.lastActivityAt &&
    deadline(lease.lastActivityAt, lease.idleTimeoutSeconds) < now.toISOString()
  )
    return 'idle-timeout';
  return null;
}

const gone = (outcome: string, endedAt: string | null) =>
  new AppError(
    'GONE',
    `This lease has ended (${outcome}${endedAt ? ` at ${endedAt}` : ''}); check out again.`,
  );

/**
 * Renews an open lease. One whose deadline passed before the sweep ended it ends now as the sweep would have, so
 * a late heartbeat never revives a seat another checkout may already count as free.
 */
export async function heartbeat(
  ctx: AppContext,
  product: WebProduct,
  request: { leaseId: string; active?: boolean },
  now = new Date(),
) {
  const outcome = await ctx.db.transaction(async (tx) => {
    const lease = await productLease(tx, product, request.leaseId);
    if (lease.outcome !== 'open') return { ended: lease.outcome, endedAt: lease.endedAt };
    const late = lapsed(lease, now, request.active === true);
    if (late) return { ended: late, endedAt: await endLease(tx, lease.leaseId, late, now) };
    await renewLease(tx, lease.leaseId, now, request.active === true);
    return { lease };
  });
  // The transaction commits the lapsed lease's end before the refusal is answered.
  if (!outcome.lease) throw gone(outcome.ended, outcome.endedAt ?? null);
  const window = outcome.lease.heartbeatWindowSeconds;
  return {
    leaseId: outcome.lease.leaseId,
    expiresAt: deadline(now, window),
    heartbeatSeconds: heartbeatSecondsOf(window),
  };
}

/** Ends a lease `released`; a lease that already ended is answered as it ended (releasing twice is no error). */
export async function release(
  ctx: AppContext,
  product: WebProduct,
  request: { leaseId: string },
  now = new Date(),
): Promise<WebLeaseState> {
  return ctx.db.transaction(async (tx) => {
    const lease = await productLease(tx, product, request.leaseId);
    if (lease.outcome !== 'open')
      return {
        leaseId: lease.leaseId,
        outcome: lease.outcome as WebLeaseState['outcome'],
        endedAt: lease.endedAt,
      };
    const endedAt = (await endLease(tx, lease.leaseId, 'released', now)) ?? null;
    return { leaseId: lease.leaseId, outcome: 'released', endedAt };
  });
}

/** The Users page: the account's open sessions, of one person when given. */
export async function listOpenWebSessions(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; userId?: string },
): Promise<OpenWebSession[]> {
  await authorizeAccount(ctx, principal, request.customerNumber, 'read');
  return openLeasesOf(ctx.db, request.customerNumber, request.userId);
}

/** An administrator ends a session (admin-released), audited; one already ended is answered as it ended. */
export async function releaseWebSession(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; leaseId: string },
  now = new Date(),
): Promise<WebLeaseState> {
  const { customerNumber, leaseId } = request;
  await authorizeAccount(ctx, principal, customerNumber, 'edit');
  return ctx.db.transaction(async (tx) => {
    const lease = await lockLeaseOfAccount(tx, customerNumber, leaseId);
    if (!lease) throw notFound(noSuchLease);
    if (lease.outcome !== 'open')
      return { leaseId, outcome: lease.outcome as WebLeaseState['outcome'], endedAt: lease.endedAt };
    const endedAt = (await endLease(tx, leaseId, 'admin-released', now)) ?? null;
    await recordAudit(tx, auditActor(principal), [
      {
        customerNumber,
        action: 'web-sessions.lease.released',
        object: { type: 'web-lease', id: leaseId },
        before: { outcome: 'open', email: lease.email, partNumber: lease.partNumber },
        after: { outcome: 'admin-released', email: lease.email, partNumber: lease.partNumber },
      },
    ]);
    return { leaseId, outcome: 'admin-released', endedAt };
  });
}

/** The run key of a once-a-minute job: the UTC minute. */
const utcMinute = (now: Date) => now.toISOString().slice(0, 16);

/**
 * Once a minute across the nodes (decision 040's runner): leases past their pool's heartbeat window end
 * heartbeat-lost, those idle past the idle timeout end idle-timeout. Safe to repeat: only open leases change.
 */
export const webSessionsSweepJob: Job = {
  name: 'web-sessions-sweep',
  runKeyOf: utcMinute,
  run: async (ctx, _minute, now) => {
    await sweepLeases(ctx.db, now, defaultPolicy);
    await pruneSweepRuns(ctx.db, 'web-sessions-sweep', now);
  },
};
