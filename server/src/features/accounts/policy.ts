import type { AccountInfo, Customer } from '@lp/contract/accounts/schemas';
import { messages } from '@lp/contract/common/errors';
import {
  contactFlags,
  isVendorStaff,
  mayViewLeases,
  type Permissions,
  permissionsFor,
} from '@lp/domain/policy';
import type { AppContext } from '../../platform/context.ts';
import { AppError, forbidden } from '../../platform/errors.ts';
import type { Principal } from '../../platform/principal.ts';
import { entitlementCounts, findAccount, findContactRole } from './repository.ts';

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

/** The account as `principal` sees it, or null when it does not exist or is not theirs. */
async function findAccountAccess(
  ctx: AppContext,
  principal: Principal,
  customerNumber: string,
): Promise<AccountAccess | null> {
  const account = await findAccount(ctx.db, customerNumber);
  const staff = isVendorStaff(principal.vendorRoles);
  const role = staff ? undefined : await findContactRole(ctx.db, customerNumber, principal.email);
  if (!account || (!staff && !role)) return null;
  const counts = await entitlementCounts(ctx.db, customerNumber);
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
  return {
    customer: { customerNumber: account.customerNumber, customerName: account.name, info },
    permissions: permissionsFor(principal.vendorRoles, info),
  };
}

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

function permit(access: AccountAccess, action: AccountAction): AccountAccess {
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
