import type { AccountInfo } from '@lp/contract/accounts/schemas';
import { describe, expect, it } from 'vitest';
import { accountInfo } from './account-info-fixture.ts';
import {
  contactFlags,
  contactRoles,
  isExportBlocked,
  mayManageServerCredentials,
  mayReadAllAuditLogs,
  mayReadAuditLog,
  permissionsFor,
  roleLabel,
} from './policy.ts';

const base = accountInfo();
const info = (over: Partial<AccountInfo>) => ({ ...base, ...over });

describe('export control', () => {
  it('blocks any non-empty status other than approved, in any case', () => {
    expect(isExportBlocked('')).toBe(false);
    expect(isExportBlocked('Approved')).toBe(false);
    expect(isExportBlocked('APPROVED')).toBe(false);
    expect(isExportBlocked('Pending')).toBe(true);
    expect(isExportBlocked('denied')).toBe(true);
  });
});

describe('view only', () => {
  it('is true unless busops, or the customer is asc, portal edit or FNP generator', () => {
    expect(permissionsFor(['user'], info({ isPortalView: true })).viewOnly).toBe(true);
    expect(permissionsFor(['support'], base).viewOnly).toBe(true);
    expect(permissionsFor(['busops'], base).viewOnly).toBe(false);
    expect(permissionsFor(['user'], info({ isAsc: true })).viewOnly).toBe(false);
    expect(permissionsFor(['user'], info({ isPortalEdit: true })).viewOnly).toBe(false);
    expect(permissionsFor(['user'], info({ isFNPLicenseGenerator: true })).viewOnly).toBe(false);
  });
});

describe('ssl, self-serve and activations', () => {
  it('follows the access-disabled / FNP generator table', () => {
    expect(permissionsFor(['user'], base).sslAllowed).toBe(true);
    expect(permissionsFor(['user'], info({ isFNPLicenseGenerator: true })).sslAllowed).toBe(false);
    expect(permissionsFor(['user'], info({ isAccessDisabled: true })).sslAllowed).toBe(false);
    expect(
      permissionsFor(['user'], info({ isAccessDisabled: true, isFNPLicenseGenerator: true })).sslAllowed,
    ).toBe(true);
    expect(
      permissionsFor(
        ['user'],
        info({ isAccessDisabled: true, isFNPLicenseGenerator: true, isPortalEdit: true }),
      ).sslAllowed,
    ).toBe(false);
  });
  it('allows self-serve for vendor staff even when ssl is not allowed; activations need SSL entitlements', () => {
    const blocked = info({ isAccessDisabled: true });
    expect(permissionsFor(['user'], blocked).selfServe).toBe(false);
    expect(permissionsFor(['sales'], blocked).selfServe).toBe(true);
    expect(permissionsFor(['sales'], blocked).activationsAllowed).toBe(false);
    expect(permissionsFor(['sales'], info({ isAccessDisabled: true, hasSSL: 3 })).activationsAllowed).toBe(
      true,
    );
  });
  it('allows emails only for channel and direct customers', () => {
    expect(permissionsFor(['user'], info({ orgType: 'Indirect' })).emailsAllowed).toBe(false);
    expect(permissionsFor(['user'], info({ orgType: 'Indirect' })).customerTypeAllowed).toBe(true);
    expect(permissionsFor(['user'], info({ orgType: 'Undefined' })).customerTypeAllowed).toBe(false);
    expect(permissionsFor(['user'], info({ orgType: 'Channel' })).emailsAllowed).toBe(true);
  });
});

describe('role label', () => {
  it('uses the spec order', () => {
    expect(roleLabel(['busops'], base, 'Sim')).toBe('Business Operations Role');
    expect(roleLabel(['support'], base, 'Sim')).toBe('Support Role');
    expect(roleLabel(['support'], info({ isFNPLicenseGenerator: true }), 'Sim')).toBe(
      '(FNP License Generator)',
    );
    expect(roleLabel(['user'], info({ isAsc: true, isPortalEdit: true }), 'Sim')).toBe(
      '(Sim Support Coordinator)',
    );
    expect(roleLabel(['user'], info({ isPortalEdit: true }), 'Sim')).toBe('(Portal Administrator Role)');
    expect(roleLabel(['user'], info({ isPortalView: true }), 'Sim')).toBe('(Portal Viewer Role)');
    expect(roleLabel(['sales'], info({ isSales: true }), 'Sim')).toBe('(Sales Role)');
    expect(roleLabel(['salesaccess'], info({ isSalesAccess: true }), 'Sim')).toBe('(Sales Access Role)');
  });
  it('maps contact roles to flags', () => {
    expect(contactFlags(contactRoles.admin)).toEqual({
      isPortalEdit: true,
      isPortalView: false,
      isAsc: false,
    });
    expect(contactFlags(contactRoles.coordinator).isAsc).toBe(true);
    expect(contactFlags(undefined)).toEqual({ isPortalEdit: false, isPortalView: false, isAsc: false });
  });
});

describe('license-server credentials', () => {
  it('are managed by busops, vendor admin and support only', () => {
    expect(mayManageServerCredentials(['busops'])).toBe(true);
    expect(mayManageServerCredentials(['admin'])).toBe(true);
    expect(mayManageServerCredentials(['support'])).toBe(true);
    expect(mayManageServerCredentials(['sales'])).toBe(false);
    expect(mayManageServerCredentials(['salesaccess'])).toBe(false);
    expect(mayManageServerCredentials(['user'])).toBe(false);
    expect(mayManageServerCredentials([])).toBe(false);
  });
});

describe('audit log readers (issue 13 §1)', () => {
  it('lets account administrators, support coordinators, busops, admin and support read an account log', () => {
    const viewer = contactFlags(contactRoles.viewer);
    expect(mayReadAuditLog([], contactFlags(contactRoles.admin))).toBe(true);
    expect(mayReadAuditLog([], contactFlags(contactRoles.coordinator))).toBe(true);
    expect(mayReadAuditLog([], viewer)).toBe(false);
    expect(mayReadAuditLog([], null)).toBe(false);
    for (const role of ['busops', 'admin', 'support']) expect(mayReadAuditLog([role], viewer)).toBe(true);
    expect(mayReadAuditLog(['sales', 'salesaccess'], viewer)).toBe(false);
  });

  it('keeps the cross-account view to busops, admin and support', () => {
    expect(['busops', 'admin', 'support'].map((r) => mayReadAllAuditLogs([r]))).toEqual([true, true, true]);
    expect(mayReadAllAuditLogs(['sales'])).toBe(false);
    expect(mayReadAllAuditLogs([])).toBe(false);
  });
});
