import type { AccountInfo, Customer } from '@lp/contract/accounts/schemas';
import { messages } from '@lp/contract/common/errors';
import {
  contactFlags,
  isVendorStaff,
  mayViewLeases,
  type Permissions,
  permissionsFor,
} from '@lp/domain/policy';
import type { Db } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, forbidden } from '../../platform/errors.ts';
import type { Principal } from '../../platform/principal.ts';
import { accessRows } from './repository.ts';

/**
 * What a route wants to do with an account. Every account-scoped route asks `authorizeAccount` with one
 * of these; the rules themselves live in @lp/domain/policy so the browser mirrors the same answers.
 */
export type AccountAction =
  | 'info' // see the account's info flags (needed to show the export-compliance notice)
  | 'read' // any data call
  | 'edit' // any write (view-only users are refused)
  | 'emails'
  | 'ssl'
  | 'activations' // read hosts and activations (the /activations screens)
  | 'activate'
  | 'fsaOrder';

export interface AccountAccess {
  customer: Customer;
  permissions: Permissions;
}

/**
 * The accounts among `customerNumbers` as `principal` sees them, answered by one query on `db` (decision 063), which
 * may be the caller's transaction: a write checks every account on a host inside the transaction that changes it.
 * Accounts that do not exist or are not the principal's are absent from the map.
 */
export async function accessOf(
  db: Db,
  principal: Principal,
  customerNumbers: readonly string[],
): Promise<Map<string, AccountAccess>> {
  const staff = isVendorStaff(principal.vendorRoles);
  const access = new Map<string, AccountAccess>();
  for (const { account, role: contactRole, ...counts } of await accessRows(
    db,
    customerNumbers,
    principal.email,
  )) {
    const role = staff ? undefined : (contactRole ?? undefined);
    if (!staff && !role) continue;
    const info: AccountInfo = {
      ...contactFlags(role),
      isFNPLicenseGenerator: account.isFnpLicenseGenerator,
      isAccessDisabled: account.isAccessDisabled,
      isSales: principal.vendorRoles.includes('sales'),
      isSalesAccess: principal.vendorRoles.includes('salesaccess'),
      hasSSL: counts.ssl,
      hasSharedLicense: counts.shared,
      hasNamedLicense: counts.named,
      hasFSA: counts.fsa,
      hasElastic: counts.elastic,
      orgType: (['Direct', 'Channel', 'Indirect'].includes(account.orgType)
        ? account.orgType
        : 'Undefined') as AccountInfo['orgType'],
      supportEmail: account.supportEmail,
      exportControlStatus: account.exportControlStatus,
    };
    access.set(account.customerNumber, {
      customer: { customerNumber: account.customerNumber, customerName: account.name, info },
      permissions: permissionsFor(principal.vendorRoles, info),
    });
  }
  return access;
}

/** The account as `principal` sees it, or null when it does not exist or is not theirs. */
const findAccountAccess = async (ctx: AppContext, principal: Principal, customerNumber: string) =>
  (await accessOf(ctx.db, principal, [customerNumber])).get(customerNumber) ?? null;

/** Loads the account as `principal` sees it; outsiders and unknown numbers get the same 403. */
export async function loadAccountAccess(
  ctx: AppContext,
  principal: Principal,
  customerNumber: string,
): Promise<AccountAccess> {
  const access = await findAccountAccess(ctx, principal, customerNumber);
  // Same answer whether the account does not exist or belongs to someone else.
  if (!access) throw forbidden(messages.noPermissionPage);
  return access;
}

/** The one gate for account-scoped calls: returns the access or throws 403 with the spec's words. */
export async function authorizeAccount(
  ctx: AppContext,
  principal: Principal,
  customerNumber: string,
  action: AccountAction,
): Promise<AccountAccess> {
  return permit(await loadAccountAccess(ctx, principal, customerNumber), action);
}

/**
 * The gate for the lists of an account's rows (spec 002 §4 "Unapproved customers get empty lists"): an
 * export-blocked account the user may otherwise use for `action` answers null (the caller answers empty lists),
 * so a tab of such an account shows the notice without an error; outsiders get the usual 403.
 */
export async function authorizeAccountList(
  ctx: AppContext,
  principal: Principal,
  customerNumber: string,
  action: Exclude<AccountAction, 'info'>,
): Promise<AccountAccess | null> {
  const access = await loadAccountAccess(ctx, principal, customerNumber);
  permitAction(access, action);
  return access.permissions.exportBlocked ? null : access;
}

/**
 * The same gate for calls that name an object by its id (an e-mail, a license-server credential) rather
 * than by its account: `owner` is the object's account, looked up by the caller first (undefined when the
 * id is unknown). An object of an account the user cannot see is answered with `unknown`, exactly as an
 * id that does not exist, so ids reveal nothing; otherwise the account's rules apply as for any call
 * (export-controlled accounts: 403 with the export text).
 */
export async function authorizeAccountOf(
  ctx: AppContext,
  principal: Principal,
  owner: string | undefined,
  action: AccountAction,
  unknown: AppError,
): Promise<AccountAccess> {
  const access = owner === undefined ? null : await findAccountAccess(ctx, principal, owner);
  if (!access) throw unknown;
  return permit(access, action);
}

/** The gate over accesses read by `accessOf`: the account's access for `action`, or the same 403s as `authorizeAccount`. */
export function permitAccount(
  access: ReadonlyMap<string, AccountAccess>,
  customerNumber: string,
  action: AccountAction,
): AccountAccess {
  const found = access.get(customerNumber);
  if (!found) throw forbidden(messages.noPermissionPage);
  return permit(found, action);
}

/** Whether the access allows `action`, as the gate would answer (for a check over several accounts). */
export function permits(access: AccountAccess | undefined, action: AccountAction): access is AccountAccess {
  if (!access) return false;
  try {
    permit(access, action);
    return true;
  } catch (e) {
    if (e instanceof AppError) return false;
    throw e;
  }
}

/** The gate's answer for an access already read (`accessOf`): the access, or 403 with the spec's words. */
export function permit(access: AccountAccess, action: AccountAction): AccountAccess {
  if (action === 'info') return access;
  if (access.permissions.exportBlocked) throw forbidden(messages.exportDenied);
  return permitAction(access, action);
}

/** The action's own rule, export control aside. */
function permitAction(access: AccountAccess, action: Exclude<AccountAction, 'info'>): AccountAccess {
  const p = access.permissions;
  const allowed: Record<Exclude<AccountAction, 'info'>, boolean> = {
    read: true,
    edit: !p.viewOnly,
    emails: p.emailsAllowed,
    ssl: mayViewLeases(p),
    activations: p.activationsAllowed,
    activate: !p.viewOnly && p.activationsAllowed,
    fsaOrder: !p.viewOnly && p.fsaActivation,
  };
  if (!allowed[action]) throw new AppError('FORBIDDEN', messages.noPermission);
  return access;
}
