import type { AlertRow } from './types.ts';

/**
 * Service alerts around today: one active alert per category, and the edge cases of the banner and the
 * tabs (not yet in the 5-day look-ahead, active but expired, resolved with an end still ahead), plus a
 * year of resolved history.
 */
export function buildAlerts(at: (offset: number, secondOfDay: number) => Date): AlertRow[] {
  const h = 3600;
  const link = (n: number) => ({ 'Status page': `https://status.example.com/incidents/${n}` });
  const rows: Omit<AlertRow, 'id'>[] = [
    // Active now, one per category, so every card of the Active tab has content.
    {
      category: 'CRITICAL',
      status: 'ACTIVE',
      date: at(-1, 14 * h),
      expires: at(2, 0),
      services: ['Elastic Licensing'],
      description: 'Elastic license servers in the EU region reject new sessions intermittently.',
      links: { ...link(4711), Workaround: 'https://status.example.com/kb/elastic-eu-retry' },
    },
    {
      category: 'WARNING',
      status: 'ACTIVE',
      date: at(-1, 9 * h),
      expires: null,
      services: ['Usage Reporting', 'Licensing Portal'],
      description: 'Usage transactions are delayed by up to 2 hours.',
      links: link(4712),
    },
    {
      category: 'INFO',
      status: 'ACTIVE',
      date: at(3, 20 * h),
      expires: at(3, 23 * h),
      services: ['Licensing Portal'],
      description: 'Planned maintenance: the portal is read-only during the upgrade.',
      links: { 'Maintenance notice': 'https://status.example.com/maintenance/2101' },
    },
    {
      category: 'OK',
      status: 'ACTIVE',
      date: at(-2, 8 * h),
      expires: at(12, 0),
      services: ['Elastic Licensing'],
      description: 'Rate table 2025.1.2 is published and applies to new elastic purchase orders.',
      links: { 'Release notes': 'https://docs.example.com/elastic/rate-tables' },
    },
    // INFO beyond the 5-day look-ahead: must not show yet.
    {
      category: 'INFO',
      status: 'ACTIVE',
      date: at(12, 18 * h),
      expires: at(12, 22 * h),
      services: ['License Server'],
      description: 'Planned maintenance of the license file signing service.',
      links: {},
    },
    // Status ACTIVE but already expired.
    {
      category: 'WARNING',
      status: 'ACTIVE',
      date: at(-9, 10 * h),
      expires: at(-8, 10 * h),
      services: ['Cloud Burst Compute'],
      description: 'Job submission to cloud burst compute was slow.',
      links: link(4690),
    },
    // Marked RESOLVED but its end lies ahead: not yet counted as resolved.
    {
      category: 'INFO',
      status: 'RESOLVED',
      date: at(-1, 22 * h),
      expires: at(1, 2 * h),
      services: ['Licensing Portal'],
      description: 'Emergency patch window for the portal login page.',
      links: {},
    },
  ];
  const history: [string, string[], string][] = [
    [
      'CRITICAL',
      ['Licensing Portal'],
      'Sign-in failed for all users after an identity provider certificate change.',
    ],
    [
      'CRITICAL',
      ['License Server', 'Elastic Licensing'],
      'License server pool outage in the US-East region.',
    ],
    ['WARNING', ['Elastic Licensing'], 'Elastic statement generation took longer than usual.'],
    ['WARNING', ['Usage Reporting'], 'Some usage sessions were reported twice; totals were corrected.'],
    ['WARNING', ['Licensing Portal'], 'Account search was slow for accounts with many entitlements.'],
    ['INFO', ['Licensing Portal'], 'Planned maintenance: database upgrade.'],
    ['INFO', ['License Server'], 'Planned maintenance: renewal of license signing keys.'],
    ['INFO', ['Cloud Burst Compute'], 'Planned maintenance of the cloud scheduler.'],
    ['OK', ['Licensing Portal'], 'New: export of activation history as CSV.'],
    ['OK', ['Elastic Licensing'], 'Elastic credentials page now supports allowed usernames.'],
    ['CRITICAL', ['Cloud Burst Compute'], 'Cloud burst jobs failed to start.'],
    ['WARNING', ['License Server'], 'License file e-mails were delayed.'],
  ];
  history.forEach(([category, services, description], i) => {
    const start = -(15 + i * 27);
    rows.push({
      category,
      status: 'RESOLVED',
      date: at(start, (8 + (i % 9)) * h),
      expires: at(start, (8 + (i % 9)) * h + (1 + (i % 5)) * 47 * 60 + (i % 3) * 86_400),
      services,
      description,
      links: link(4000 + i),
    });
  });
  return rows.map((r, i) => ({ id: i + 1, ...r }));
}
