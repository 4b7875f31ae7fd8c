import type { AccountInfo } from '@lp/contract/accounts/schemas';
import { type UserRole, vendorRoles } from '@lp/contract/user/schemas';

/** Spec 000 §4.2: non-empty and not "approved" (any case) blocks every data call for the account. */
export function isExportBlocked(status: string | null | undefined): boolean {
  const s = (status ?? '').trim();
  return s !== '' && s.toLowerCase() !== 'approved';
}

const has = (roles: readonly string[], role: UserRole) => roles.includes(role);
/** Vendor admin is treated as business operations (see docs/decisions/006-roles.md). */
export const isBusops = (roles: readonly string[]) => has(roles, 'busops') || has(roles, 'admin');

export const isVendorStaff = (roles: readonly string[]) => vendorRoles.some((role) => has(roles, role));

/** Business operations and support issue and revoke elastic license-server credentials (decision 014). */
export const mayManageServerCredentials = (roles: readonly string[]) =>
  isBusops(roles) || has(roles, 'support');

/** The same staff may remove a stored e-mail record (no UI offers it; spec 000 §2.8). */
export const mayRemoveEmails = mayManageServerCredentials;

/** Vendor staff who read audit logs, each account's and across accounts: business operations and support. */
export const mayReadAllAuditLogs = (roles: readonly string[]) => isBusops(roles) || has(roles, 'support');

/**
 * An account's audit log (issue 13 §1): its administrators and support coordinators, and the vendor staff
 * above; viewers and everyone else are refused.
 */
export const mayReadAuditLog = (
  roles: readonly string[],
  info: Pick<AccountInfo, 'isPortalEdit' | 'isAsc'> | null | undefined,
) => mayReadAllAuditLogs(roles) || !!info?.isPortalEdit || !!info?.isAsc;

/**
 * Personal API tokens (issue 20 §3): business operations and support see and revoke every token; an account's
 * administrators and support coordinators the tokens of the account's contacts (the tokens that can act on it).
 */
export const mayManageAllTokens = mayReadAllAuditLogs;
export const mayManageAccountTokens = mayReadAuditLog;

export interface Permissions {
  viewOnly: boolean;
  sslAllowed: boolean;
  selfServe: boolean;
  activationsAllowed: boolean;
  fsaActivation: boolean;
  elasticAllowed: boolean;
  customerTypeAllowed: boolean;
  emailsAllowed: boolean;
  exportBlocked: boolean;
}

/** The permission model of spec 000 §6 and 002 §6, as pure functions of roles and account info. */
export function permissionsFor(roles: readonly string[], info: AccountInfo): Permissions {
  const busops = isBusops(roles);
  const viewOnly = !(busops || info.isAsc || info.isPortalEdit || info.isFNPLicenseGenerator);
  const sslAllowed =
    (!info.isAccessDisabled && !info.isFNPLicenseGenerator) ||
    (info.isAccessDisabled && info.isFNPLicenseGenerator && !info.isAsc && !info.isPortalEdit);
  const selfServe = isVendorStaff(roles) || sslAllowed;
  return {
    viewOnly,
    sslAllowed,
    selfServe,
    activationsAllowed: selfServe && info.hasSSL > 0,
    fsaActivation: selfServe,
    elasticAllowed: true,
    customerTypeAllowed:
      info.orgType === 'Channel' || info.orgType === 'Direct' || info.orgType === 'Indirect',
    emailsAllowed: info.orgType === 'Channel' || info.orgType === 'Direct',
    exportBlocked: isExportBlocked(info.exportControlStatus),
  };
}

/**
 * Leases/Perpetuals (/ssl, spec 002 §6): a Channel, Direct or Indirect customer whose self-serve licensing is
 * allowed. The one rule of the menu entry, the page's route guard and the server's leases calls (issue 21).
 */
export const mayViewLeases = (p: Pick<Permissions, 'customerTypeAllowed' | 'sslAllowed'>) =>
  p.customerTypeAllowed && p.sslAllowed;

/** The role label of the user menu (spec 000 §6); `productName` fills "{product} Support Coordinator". */
export function roleLabel(
  roles: readonly string[],
  info: AccountInfo | null | undefined,
  productName: string,
): string {
  if (isBusops(roles)) return 'Business Operations Role';
  if (has(roles, 'support') && !info?.isFNPLicenseGenerator) return 'Support Role';
  if (!info) return '';
  if (info.isAsc) return `(${productName} Support Coordinator)`;
  if (info.isPortalEdit) return '(Portal Administrator Role)';
  if (info.isFNPLicenseGenerator) return '(FNP License Generator)';
  if (info.isPortalView) return '(Portal Viewer Role)';
  if (info.isSales) return '(Sales Role)';
  if (info.isSalesAccess) return '(Sales Access Role)';
  return '';
}

/** Portal-access contact roles (spec 000 §6). The coordinator role is never selectable in the form. */
export const contactRoles = {
  admin: 'Licensing Portal Administrator',
  viewer: 'Licensing Portal Viewer',
  coordinator: 'Support Coordinator (Administrator)',
} as const;
export type ContactRole = (typeof contactRoles)[keyof typeof contactRoles];

/** Flags a contact role gives its holder on that account. */
export function contactFlags(role: string | null | undefined) {
  return {
    isPortalEdit: role === contactRoles.admin,
    isPortalView: role === contactRoles.viewer,
    isAsc: role === contactRoles.coordinator,
  };
}
