import type { AccountInfo } from '@lp/contract/accounts/schemas';
import { accountInfo } from '@lp/domain/account-info-fixture';
import { mayViewLeases, permissionsFor } from '@lp/domain/policy';
import { describe, expect, it } from 'vitest';
import { breadcrumbs, menuGroups } from './navigation.ts';

const base = accountInfo({ isPortalEdit: true });
const all = (_pathname: string) => true;
const labels = (info: AccountInfo | null, roles: string[] = ['user'], routeEnabled = all) =>
  menuGroups({ roles, info, routeEnabled }).map(
    (g) => `${g.label}: ${g.entries.map((e) => e.label).join(', ')}`,
  );

describe('left menu', () => {
  it('shows the elastic entries only for an elastic customer', () => {
    expect(labels(base)).toEqual([
      'Entitlements: Leases/Perpetuals, Elastic Licensing',
      'Elastic Reporting: Usage Transactions',
      'Settings: Licensing Portal Access, Audit Log, API Tokens',
      'Messages: Emails, Alerts',
    ]);
    expect(labels({ ...base, hasElastic: 3, hasFSA: 1, hasSSL: 2, hasNamedLicense: 1 })).toEqual([
      'Entitlements: Leases/Perpetuals, Elastic Licensing, Flexible Spending Account',
      'Activations: Activate Entitlements, Manage Activations',
      'Web: Assignments, Transactions, Reporting',
      'Elastic Reporting: Usage Transactions, Elastic Statements',
      'Settings: Licensing Portal Access, Elastic Credentials, Elastic IP Settings, Audit Log, API Tokens',
      'Messages: Emails, Alerts',
    ]);
  });

  it('shows Leases/Perpetuals exactly when the page and the server allow it (issue 21: one rule)', () => {
    const shown = (info: AccountInfo, roles: string[] = ['user']) =>
      menuGroups({ roles, info, routeEnabled: all }).some((g) => g.entries.some((e) => e.to === '/ssl'));
    const cases = [
      base,
      { ...base, isFNPLicenseGenerator: true },
      { ...base, isAccessDisabled: true },
      { ...base, isAccessDisabled: true, isFNPLicenseGenerator: true, isPortalEdit: false },
      { ...base, orgType: 'Undefined' as const },
    ];
    for (const info of cases)
      for (const roles of [['user'], ['busops'], ['support']])
        expect(shown(info, roles)).toBe(mayViewLeases(permissionsFor(roles, info)));
    expect(shown({ ...base, isFNPLicenseGenerator: true })).toBe(false);
    expect(labels(null)[0]).toBe('Entitlements: Leases/Perpetuals, Elastic Licensing');
  });

  it('needs hasSSL and self-serve rights for activations, and staff roles for alert admin', () => {
    const fnp = { ...base, hasSSL: 1, isFNPLicenseGenerator: true };
    expect(labels(fnp).some((l) => l.startsWith('Activations'))).toBe(false);
    expect(labels(fnp, ['support']).some((l) => l.startsWith('Activations'))).toBe(true);
    expect(labels(null, ['busops']).at(-1)).toBe('Vendor Staff: Manage Alerts');
    expect(labels(null, ['sales']).some((l) => l.startsWith('Vendor Staff'))).toBe(false);
  });

  it('shows the Audit Log to administrators, support coordinators, busops and support, not to viewers', () => {
    const settings = (info: AccountInfo | null, roles?: string[]) =>
      labels(info, roles).find((l) => l.startsWith('Settings')) ?? '';
    const viewer = accountInfo({ isPortalView: true });
    expect(settings(base)).toContain('Audit Log');
    expect(settings(accountInfo({ isAsc: true }))).toContain('Audit Log');
    expect(settings(viewer)).not.toContain('Audit Log');
    expect(settings(viewer, ['support'])).toContain('Audit Log');
    expect(settings(viewer, ['busops'])).toContain('Audit Log');
    expect(settings(viewer, ['sales'])).not.toContain('Audit Log');
    expect(settings(null, ['busops'])).not.toContain('Audit Log');
    expect(breadcrumbs('/audit-log')).toEqual([
      { label: 'Settings', to: '/portalaccess' },
      { label: 'Audit Log', to: null },
    ]);
  });

  it('hides entries of disabled routes and groups left empty', () => {
    const gate = (p: string) => !p.startsWith('/emails') && !p.startsWith('/notifications');
    expect(labels(base, ['user'], gate)).not.toContain('Messages: Emails, Alerts');
    expect(labels(base, ['user'], gate).some((l) => l.startsWith('Messages'))).toBe(false);
  });
});

describe('breadcrumbs', () => {
  it('gives two-level labels with a plain last crumb', () => {
    expect(breadcrumbs('/web-assignments')).toEqual([
      { label: 'Web', to: '/web-assignments' },
      { label: 'Assignments', to: null },
    ]);
    expect(breadcrumbs('/portalaccess')).toEqual([
      { label: 'Settings', to: '/portalaccess' },
      { label: 'Licensing Portal Access', to: null },
    ]);
  });

  it('adds one crumb per web-assignments sub-path segment', () => {
    expect(breadcrumbs('/web-assignments/groups/users').map((c) => [c.label, c.to])).toEqual([
      ['Web', '/web-assignments'],
      ['Assignments', '/web-assignments'],
      ['Groups', '/web-assignments/groups'],
      ['Users', null],
    ]);
  });

  it('has detail crumbs for emails and alerts and none for notice pages', () => {
    expect(breadcrumbs('/emails/42').map((c) => c.label)).toEqual(['Messages', 'Emails', 'View Email']);
    expect(breadcrumbs('/notifications-category/critical').at(-1)).toEqual({
      label: 'Outage Alerts',
      to: null,
    });
    expect(breadcrumbs('/noselectedcustomer')).toEqual([]);
  });
});
