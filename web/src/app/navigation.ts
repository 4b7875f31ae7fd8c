import type { AccountInfo } from '@lp/contract/accounts/schemas';
import { mayReadAuditLog, mayViewLeases, permissionsFor } from '@lp/domain/policy';

/**
 * The left menu (spec 000 §2.3) and the breadcrumbs (§2.4) as data, so the visibility rules and the
 * labels are unit-tested apart from the rendering.
 */
export interface MenuEntry {
  label: string;
  to: string;
}
export interface MenuGroup {
  label: string;
  entries: MenuEntry[];
}

export interface MenuInput {
  roles: readonly string[];
  /** Null until a customer with info is selected: only entries that need no account flag are shown. */
  info: AccountInfo | null;
  /** Route gate of the feature flags (§2.1): entries of disabled routes are hidden. */
  routeEnabled: (pathname: string) => boolean;
}

const has = (n: number | undefined) => (n ?? 0) > 0;
const alertsAdmins = ['support', 'busops', 'admin'];

/** Groups in menu order; a group with no visible entry is left out. */
export function menuGroups({ roles, info, routeEnabled }: MenuInput): MenuGroup[] {
  const perms = info ? permissionsFor(roles, info) : null;
  const elastic = !!perms?.elasticAllowed && has(info?.hasElastic);
  const groups: Array<MenuGroup & { visible: boolean }> = [
    {
      label: 'Entitlements',
      visible: true,
      entries: [
        // Without an account the page asks for one; with one, the page's own rule (issue 21).
        ...(!perms || mayViewLeases(perms) ? [{ label: 'Leases/Perpetuals', to: '/ssl' }] : []),
        { label: 'Elastic Licensing', to: '/elastic/fromLeftMenu' },
        ...(has(info?.hasFSA) ? [{ label: 'Flexible Spending Account', to: '/entitlementsFSA' }] : []),
      ],
    },
    {
      label: 'Activations',
      visible: !!perms?.activationsAllowed,
      entries: [
        { label: 'Activate Entitlements', to: '/activations' },
        { label: 'Manage Activations', to: '/activations-history' },
      ],
    },
    {
      label: 'Web',
      visible: has(info?.hasSharedLicense) || has(info?.hasNamedLicense),
      entries: [
        { label: 'Assignments', to: '/web-assignments' },
        { label: 'Transactions', to: '/web-transactions' },
        { label: 'Reporting', to: '/web-reporting' },
      ],
    },
    {
      label: 'Elastic Reporting',
      visible: true,
      entries: [
        { label: 'Usage Transactions', to: '/transactions' },
        ...(elastic ? [{ label: 'Elastic Statements', to: '/statementv2' }] : []),
      ],
    },
    {
      label: 'Settings',
      visible: true,
      entries: [
        { label: 'Licensing Portal Access', to: '/portalaccess' },
        ...(has(info?.hasElastic)
          ? [
              { label: 'Elastic Credentials', to: '/clscredentials' },
              { label: 'Elastic IP Settings', to: '/whitelistips' },
            ]
          : []),
        ...(info && mayReadAuditLog(roles, info) ? [{ label: 'Audit Log', to: '/audit-log' }] : []),
        { label: 'API Tokens', to: '/api-tokens' },
      ],
    },
    {
      label: 'Messages',
      visible: true,
      entries: [
        { label: 'Emails', to: '/emails' },
        { label: 'Alerts', to: '/notifications' },
      ],
    },
    {
      label: 'Vendor Staff',
      visible: roles.some((r) => alertsAdmins.includes(r)),
      entries: [{ label: 'Manage Alerts', to: '/notifications-admin' }],
    },
  ];
  return groups
    .filter((g) => g.visible)
    .map(({ label, entries }) => ({ label, entries: entries.filter((e) => routeEnabled(e.to)) }))
    .filter((g) => g.entries.length > 0);
}

export interface Crumb {
  label: string;
  /** Null for the last crumb, which is plain text. */
  to: string | null;
}

/** Top path segment -> [group label, group link, page label]. */
const pages: Record<string, [string, string, string]> = {
  elastic: ['Entitlements', '/elastic', 'Elastic Licensing'],
  ssl: ['Entitlements', '/elastic', 'Leases/Perpetuals'],
  entitlementsFSA: ['Entitlements', '/elastic', 'Flexible Spending Account'],
  activations: ['Activations', '/activations', 'Activate Entitlements'],
  'activations-history': ['Activations', '/activations', 'Manage Activations'],
  'web-assignments': ['Web', '/web-assignments', 'Assignments'],
  'web-transactions': ['Web', '/web-assignments', 'Transactions'],
  'web-reporting': ['Web', '/web-assignments', 'Reporting'],
  transactions: ['Elastic Reporting', '/transactions', 'Usage Transactions'],
  statementv2: ['Elastic Reporting', '/transactions', 'Elastic Statements'],
  portalaccess: ['Settings', '/portalaccess', 'Licensing Portal Access'],
  clscredentials: ['Settings', '/portalaccess', 'Elastic Credentials'],
  whitelistips: ['Settings', '/portalaccess', 'Elastic IP Settings'],
  'audit-log': ['Settings', '/portalaccess', 'Audit Log'],
  'api-tokens': ['Settings', '/portalaccess', 'API Tokens'],
  emails: ['Messages', '/emails', 'Emails'],
  notifications: ['Messages', '/emails', 'Alerts'],
  'notifications-category': ['Messages', '/emails', 'Alerts'],
  'notification-details': ['Messages', '/emails', 'Alerts'],
  'notifications-admin': ['Vendor Staff', '/notifications-admin', 'Manage Alerts'],
};

const categoryTitles: Record<string, string> = {
  critical: 'Outage Alerts',
  warning: 'Service Degradation Alerts',
  info: 'Planned Maintenance Alerts',
  ok: 'Information Alerts',
};

const capitalise = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/** Spec 000 §2.4: two-level labels, one more crumb per web-assignments sub-path segment; last is plain. */
export function breadcrumbs(pathname: string): Crumb[] {
  const segments = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const page = pages[segments[0] ?? ''];
  if (!page) return [];
  const [group, groupTo, label] = page;
  const pageTo =
    segments[0] === 'notifications-category' || segments[0] === 'notification-details'
      ? '/notifications'
      : `/${segments[0]}`;
  const chain: Array<{ label: string; to: string }> = [
    { label: group, to: groupTo },
    { label, to: pageTo },
  ];
  const rest = segments.slice(1);
  if (segments[0] === 'web-assignments') {
    rest.forEach((segment, i) => {
      chain.push({ label: capitalise(segment), to: `/web-assignments/${rest.slice(0, i + 1).join('/')}` });
    });
  } else if (segments[0] === 'emails' && rest.length > 0) {
    chain.push({ label: 'View Email', to: pathname });
  } else if (segments[0] === 'notification-details') {
    chain.push({ label: 'View Alert', to: pathname });
  } else if (segments[0] === 'notifications-category' && rest[0]) {
    chain.push({ label: categoryTitles[rest[0]] ?? 'Alerts', to: pathname });
  }
  return chain.map((c, i) => ({ label: c.label, to: i === chain.length - 1 ? null : c.to }));
}
