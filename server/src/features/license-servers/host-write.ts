import type { Db } from '../../db/database.ts';
import { onceForKey } from '../../db/operation-keys.ts';
import type { AppContext } from '../../platform/context.ts';
import type { Principal } from '../../platform/principal.ts';
import { accessOf, permitAccount, permits } from '../accounts/policy.ts';
import { type AuditChange, auditActor, recordAudit } from '../audit/service.ts';
import { type HostRow, updateHost } from './repository.ts';

/** What a host write's command works with, inside the write's one transaction (decision 063). */
export interface HostUnit {
  tx: Db;
  /** The accounts on the locked hosts (and the write's own account) that the user may act for */
  editors: ReadonlySet<string>;
  /** The write's audit changes: recorded in one batch after the command and the hosts' settled states */
  audit: AuditChange[];
  /**
   * The state `host` ends the write in, applied once after the command with its audit entry in `customerNumber`'s
   * log; `quiet` for a host this write added (its passing Unknown state is not a change).
   */
  settle(host: HostRow, state: 'Active' | 'Inactive', customerNumber: string, quiet?: boolean): void;
}

export interface HostWrite<L extends { members: readonly string[] }, T> {
  /** The operation key's operation, e.g. 'create' */
  operation: string;
  /** The account the write is for: the gate's 'activate' decides, with the same 403s as every account call */
  customerNumber: string;
  key: string | undefined;
  /**
   * The request's fields the command reads. The operation key covers these only, so a retry that differs in fields
   * the server never reads (the client's `time`, `action`, `customerName`) is replayed, not refused.
   */
  fields: object;
  /** Locks the existing hosts the write changes (host lock first: decision 029's order) and names their accounts */
  lock(tx: Db): Promise<L>;
  run(unit: HostUnit, locked: L): Promise<T>;
}

const stateChange = (host: HostRow, state: string, customerNumber: string): AuditChange => ({
  customerNumber,
  action: state === 'Active' ? 'license-servers.activated' : 'license-servers.deactivated',
  object: { type: 'license-server', id: host.hostIdentity },
  before: { state: host.state },
  after: { state },
});

/**
 * One host unit of work (issue 23 §2, decision 063), in one transaction: lock the hosts; check the write's
 * account and every account on those hosts with one query of the account gate (inside the transaction, so a
 * membership revoked a moment ago counts); claim the operation key over the fields the command reads (a replay
 * answers the first outcome, behind the same gate); run the command; settle each host's state once; record the
 * audit entries in one batch, last (lock order: hosts, entitlements, fulfillments, audit chains).
 */
export async function withHostWrite<L extends { members: readonly string[] }, T>(
  ctx: AppContext,
  principal: Principal,
  write: HostWrite<L, T>,
): Promise<{ result: T; replayed: boolean }> {
  return ctx.db.transaction(async (tx) => {
    const locked = await write.lock(tx);
    const access = await accessOf(tx, principal, [write.customerNumber, ...locked.members]);
    permitAccount(access, write.customerNumber, 'activate');
    const editors = new Set([...access].filter(([, a]) => permits(a, 'activate')).map(([cn]) => cn));
    return onceForKey(
      tx,
      { key: write.key, operation: write.operation, userEmail: principal.email, request: write.fields },
      async () => {
        const audit: AuditChange[] = [];
        const settled = new Map<
          number,
          { host: HostRow; state: string; customerNumber: string; quiet: boolean }
        >();
        const result = await write.run(
          {
            tx,
            editors,
            audit,
            settle: (host, state, customerNumber, quiet = false) =>
              settled.set(host.id, { host, state, customerNumber, quiet }),
          },
          locked,
        );
        for (const { host, state, customerNumber, quiet } of settled.values()) {
          if (host.state === state) continue;
          await updateHost(tx, host.id, { state });
          if (!quiet) audit.push(stateChange(host, state, customerNumber));
        }
        await recordAudit(tx, auditActor(principal), audit);
        return result;
      },
    );
  });
}
