import type { AuditActionOf } from '@lp/contract/audit/actions';
import type { ContactDto } from '@lp/contract/portal-access/schemas';
import {
  checkContacts,
  contactMessages,
  firstContactProblem,
  normaliseEmail,
  sameContactSet,
} from '@lp/domain/contacts';
import { isFreeMail } from '@lp/domain/free-mail';
import { contactRoles } from '@lp/domain/policy';
import type { Db } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import type { Principal } from '../../platform/principal.ts';
import { authorizeAccount } from '../accounts/policy.ts';
import { type AuditActor, type AuditChange, auditActor, recordAudit } from '../audit/service.ts';
import { deleteContactEverywhere, listContacts, lockAccount, replaceContacts } from './repository.ts';

const roleOrder: string[] = [contactRoles.coordinator, contactRoles.admin, contactRoles.viewer];
const rank = (role: string) => {
  const i = roleOrder.indexOf(role);
  return i < 0 ? roleOrder.length : i;
};

/** Coordinator first, then administrators, then viewers; by e-mail within a role. */
function ordered(contacts: ContactDto[]): ContactDto[] {
  return [...contacts].sort((a, b) => rank(a.role) - rank(b.role) || a.email.localeCompare(b.email));
}

export async function getPortalAccess(ctx: AppContext, principal: Principal, customerNumber: string) {
  await authorizeAccount(ctx, principal, customerNumber, 'read');
  return ordered(await listContacts(ctx.db, customerNumber));
}

/**
 * Replaces the contact list in one transaction. The stored list must still be the one the form started
 * from (`oldContacts`, compared as a set): otherwise someone else saved in between and the save is refused
 * with 409 instead of silently overwriting their change.
 */
export async function setPortalAccess(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; newContacts: ContactDto[]; oldContacts: ContactDto[] },
): Promise<ContactDto[]> {
  const { customerNumber } = request;
  // Contacts are an account write like any other: view-only users (support staff included) are refused.
  await authorizeAccount(ctx, principal, customerNumber, 'edit');

  return ctx.db.transaction(async (tx) => {
    await lockAccount(tx, customerNumber);
    const stored = await listContacts(tx, customerNumber);
    const old = request.oldContacts.map((c) => ({ email: normaliseEmail(c.email), role: c.role }));
    if (!sameContactSet(stored, old)) throw new AppError('CONFLICT', contactMessages.conflict);
    const check = checkContacts(request.newContacts, stored, isFreeMail);
    const problem = firstContactProblem(check);
    if (problem) throw badRequest(problem);
    await replaceContacts(tx, customerNumber, check.normalised);
    await auditContacts(tx, auditActor(principal), customerNumber, stored, check.normalised);
    return ordered(check.normalised);
  });
}

/** One entry per contact added, removed or given another role (a contact left as it was writes none). */
async function auditContacts(
  tx: Db,
  actor: AuditActor,
  customerNumber: string,
  before: ContactDto[],
  after: ContactDto[],
) {
  const roleBefore = new Map(before.map((c) => [normaliseEmail(c.email), c.role]));
  const roleAfter = new Map(after.map((c) => [c.email, c.role]));
  const changes: AuditChange[] = [];
  const record = (
    email: string,
    action: AuditActionOf<'portal-access.contact.'>,
    change: { before?: Record<string, string>; after?: Record<string, string> },
  ) => changes.push({ customerNumber, action, object: { type: 'contact', id: email }, ...change });
  for (const [email, role] of roleBefore) {
    if (!roleAfter.has(email)) record(email, 'portal-access.contact.removed', { before: { role } });
  }
  for (const [email, role] of roleAfter) {
    const old = roleBefore.get(email);
    if (old === undefined) record(email, 'portal-access.contact.added', { after: { role } });
    else if (old !== role)
      record(email, 'portal-access.contact.changed', { before: { role: old }, after: { role } });
  }
  await recordAudit(tx, actor, changes);
}

/**
 * An operator removed the person (issue 20 §3): their contact entry goes from every account, one audit entry per
 * account, in the caller's transaction, so an identity provider that still knows them brings back no access.
 */
export async function removeContactEverywhere(tx: Db, actor: AuditActor, email: string): Promise<string[]> {
  const removed = await deleteContactEverywhere(tx, normaliseEmail(email));
  await recordAudit(
    tx,
    actor,
    removed.map(({ customerNumber, role }) => ({
      customerNumber,
      action: 'portal-access.contact.removed' as const,
      object: { type: 'contact', id: normaliseEmail(email) },
      before: { role },
    })),
  );
  return removed.map((r) => r.customerNumber);
}
