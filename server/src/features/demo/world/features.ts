import type { FeatureRow } from './types.ts';

/** Guarded route paths of spec 000 §2.1 (one flag per top-level path) plus two mutually exclusive experiments. */
export const routeFeatures: [string, string][] = [
  ['elastic', 'Elastic Licensing'],
  ['ssl', 'Leases/Perpetuals'],
  ['entitlementsFSA', 'Flexible Spending Account'],
  ['activations', 'Activate Entitlements'],
  ['activations-history', 'Manage Activations'],
  ['web-assignments', 'Web Assignments'],
  ['web-transactions', 'Web Transactions'],
  ['web-reporting', 'Web Reporting'],
  ['transactions', 'Usage Transactions'],
  ['statementv2', 'Elastic Statements'],
  ['emails', 'Emails'],
  ['notifications', 'Alerts'],
  ['notification-details', 'Alert details'],
  ['notifications-category', 'Alerts by category'],
  ['portalaccess', 'Licensing Portal Access'],
  ['whitelistips', 'Elastic IP Settings'],
  ['clscredentials', 'Elastic Credentials'],
  ['nocustomer', 'Notice: no customer'],
  ['notypecustomer', 'Notice: customer type'],
  ['noselectedcustomer', 'Notice: no selected customer'],
  ['nopermissions', 'Notice: no permissions'],
  ['noaccess', 'Notice: export compliance'],
];

export function buildFeatures(): FeatureRow[] {
  return [
    ...routeFeatures.map(([name, label]) => ({
      name,
      description: `Route /${name}: ${label}`,
      enabled: true,
      conflicts: [] as string[],
    })),
    {
      name: 'experimental-statement-charts',
      description: 'Experimental: interactive charts on the elastic statement',
      enabled: false,
      conflicts: ['experimental-statement-classic'],
    },
    {
      name: 'experimental-statement-classic',
      description: 'Experimental: classic tabular elastic statement without charts',
      enabled: false,
      conflicts: ['experimental-statement-charts'],
    },
  ];
}
