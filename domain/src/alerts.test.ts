import { describe, expect, it } from 'vitest';
import {
  alertDuration,
  bannerFor,
  canManageAlerts,
  categoryColor,
  categoryLabel,
  categoryPageFor,
  categoryPageOf,
  formatAlertDate,
  isActiveAlert,
  isResolved,
  joinWithAnd,
  parseAlertDay,
  refreshDue,
  relativeAge,
  severityOf,
} from './alerts.ts';

const now = new Date('2026-11-22T10:30:00Z');
const at = (iso: string) => new Date(iso);
const minutes = (n: number) => new Date(now.getTime() + n * 60_000);
const alert = (over: Partial<Parameters<typeof isActiveAlert>[0]> = {}) => ({
  category: 'WARNING',
  status: 'ACTIVE',
  date: minutes(-60),
  expires: null as Date | null,
  ...over,
});

describe('categories', () => {
  it('labels and colours each category, anything else as Information in green', () => {
    expect(['CRITICAL', 'WARNING', 'INFO', 'OK', 'OTHER'].map(categoryLabel)).toEqual([
      'Outage',
      'Service degradation',
      'Planned maintenance',
      'Information',
      'Information',
    ]);
    expect(['CRITICAL', 'WARNING', 'INFO', 'OK', 'OTHER'].map(categoryColor)).toEqual([
      'red',
      'orange',
      'blue',
      'green',
      'green',
    ]);
  });

  it('orders OK < INFO < WARNING < CRITICAL', () => {
    expect(['OK', 'INFO', 'WARNING', 'CRITICAL'].map(severityOf)).toEqual([0, 1, 2, 3]);
    expect(severityOf('bogus')).toBe(0);
  });

  it('maps page slugs to categories and titles', () => {
    expect(categoryPageOf('critical')).toMatchObject({ category: 'CRITICAL', title: 'Outage' });
    expect(categoryPageOf('warning')?.title).toBe('Service Degradation');
    expect(categoryPageOf('info')?.title).toBe('Planned Maintenance');
    expect(categoryPageOf('ok')?.title).toBe('Information');
    expect(categoryPageOf('CRITICAL')).toBeNull();
    expect(categoryPageFor('weird').slug).toBe('ok');
  });
});

describe('active and resolved', () => {
  it('is resolved only when RESOLVED and expired', () => {
    expect(isResolved(alert({ status: 'RESOLVED', expires: minutes(-1) }), now)).toBe(true);
    expect(isResolved(alert({ status: 'RESOLVED', expires: now }), now)).toBe(true);
    expect(isResolved(alert({ status: 'RESOLVED', expires: minutes(1) }), now)).toBe(false);
    expect(isResolved(alert({ status: 'RESOLVED', expires: null }), now)).toBe(false);
    expect(isResolved(alert({ status: 'ACTIVE', expires: minutes(-1) }), now)).toBe(false);
  });

  it('hides INFO alerts starting more than 5 days ahead, not other categories', () => {
    const fiveDays = 5 * 24 * 60;
    expect(isActiveAlert(alert({ category: 'INFO', date: minutes(fiveDays - 1) }), now)).toBe(true);
    expect(isActiveAlert(alert({ category: 'INFO', date: minutes(fiveDays + 1) }), now)).toBe(false);
    expect(isActiveAlert(alert({ category: 'CRITICAL', date: minutes(fiveDays + 1) }), now)).toBe(true);
    expect(isActiveAlert(alert({ status: 'RESOLVED', expires: minutes(-5) }), now)).toBe(false);
  });

  it('lets vendor busops, support and admin manage alerts, nobody else', () => {
    expect(canManageAlerts(['busops'])).toBe(true);
    expect(canManageAlerts(['support'])).toBe(true);
    expect(canManageAlerts(['admin'])).toBe(true);
    expect(canManageAlerts(['sales', 'salesaccess'])).toBe(false);
    expect(canManageAlerts([])).toBe(false);
  });
});

describe('date filter', () => {
  it('accepts YYYY-MM-DD with year 19xx or 20xx as a whole UTC day', () => {
    expect(parseAlertDay('2026-11-22')).toEqual({
      from: at('2026-11-22T00:00:00.000Z'),
      to: at('2026-11-22T23:59:59.999Z'),
    });
    expect(parseAlertDay('1999-01-31')?.from).toEqual(at('1999-01-31T00:00:00Z'));
  });

  it.each(['2126-01-01', '1899-12-31', '2026-02-30', '2026-1-01', '2026-11-22T10:00', '', 20261122, null])(
    'refuses %s',
    (text) => {
      expect(parseAlertDay(text)).toBeNull();
    },
  );
});

describe('texts', () => {
  it('formats dates as yyyy-MM-dd H:mm', () => {
    expect(formatAlertDate(at('2026-01-02T03:04:00Z'))).toBe('2026-01-02 3:04');
    expect(formatAlertDate('2026-12-31T23:59:00Z')).toBe('2026-12-31 23:59');
  });

  it('gives the relative age', () => {
    expect(relativeAge(minutes(3 * 24 * 60), now)).toBe('In 3 days');
    expect(relativeAge(minutes(60), now)).toBe('In 1 day');
    expect(relativeAge(minutes(-42), now)).toBe('42 Minutes ago');
    expect(relativeAge(now, now)).toBe('0 Minutes ago');
    expect(relativeAge(minutes(-(3 * 60 + 7)), now)).toBe('3 Hours 7 Minutes ago');
    expect(relativeAge(minutes(-24 * 60), now)).toBe('1 day ago');
    expect(relativeAge(minutes(-(5 * 24 * 60 + 30)), now)).toBe('5 days ago');
  });

  it('gives the duration in minutes, hours or days', () => {
    expect(alertDuration(now, minutes(45))).toBe('45 minutes');
    expect(alertDuration(now, minutes(1))).toBe('1 minute');
    expect(alertDuration(now, minutes(90))).toBe('1.5 hours');
    expect(alertDuration(now, minutes(60))).toBe('1 hour');
    expect(alertDuration(now, minutes(3 * 24 * 60))).toBe('3 days');
    expect(alertDuration(now, null)).toBeNull();
  });

  it('joins with commas and "and"', () => {
    expect(joinWithAnd([])).toBe('');
    expect(joinWithAnd(['A'])).toBe('A');
    expect(joinWithAnd(['A', 'B'])).toBe('A and B');
    expect(joinWithAnd(['A', 'B', 'C'])).toBe('A, B and C');
  });
});

describe('banner', () => {
  const one = {
    category: 'CRITICAL',
    service: ['Licensing'],
    description: 'Sign-in is down',
    date: at('2026-11-22T08:05:00Z'),
    expires: null,
  };

  it('shows nothing for no alerts', () => {
    expect(bannerFor([])).toBeNull();
  });

  it('shows the single alert with or without an end', () => {
    expect(bannerFor([one])).toEqual({
      kind: 'single',
      category: 'CRITICAL',
      text: 'Licensing: Sign-in is down from 2026-11-22 8:05.',
    });
    expect(bannerFor([{ ...one, service: ['A', 'B'], expires: at('2026-11-22T18:00:00Z') }])?.text).toBe(
      'A and B: Sign-in is down from 2026-11-22 8:05 to 2026-11-22 18:00.',
    );
  });

  it('summarises several alerts with their distinct services', () => {
    expect(
      bannerFor([one, { ...one, service: ['Portal', 'Licensing'] }, { ...one, service: ['Downloads'] }]),
    ).toEqual({
      kind: 'multiple',
      title: 'Multiple alerts',
      text: 'Multiple items affecting Licensing, Portal and Downloads.',
    });
  });
});

describe('refresh', () => {
  it('waits at least one minute between refreshes', () => {
    expect(refreshDue(null, 0)).toBe(true);
    expect(refreshDue(1_000, 60_999)).toBe(false);
    expect(refreshDue(1_000, 61_000)).toBe(true);
  });
});
