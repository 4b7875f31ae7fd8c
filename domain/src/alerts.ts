import { type DateRange, dayRange, formatDate } from './dates.ts';

/**
 * Service alert rules (spec 000 §2.12, §4.3, §5, §9), shared by the server (what is active, who may
 * manage) and the browser (labels, colours, banner text, relative age, duration). Pure: every function
 * that depends on the current time takes `now`.
 */
export const alertCategories = ['OK', 'INFO', 'WARNING', 'CRITICAL'] as const;
export type AlertCategory = (typeof alertCategories)[number];
export const alertStatuses = ['ACTIVE', 'RESOLVED'] as const;
export type AlertStatus = (typeof alertStatuses)[number];

/** Order of the category range filter: OK < INFO < WARNING < CRITICAL; anything else counts as OK. */
export function severityOf(category: string): number {
  const i = alertCategories.indexOf(category as AlertCategory);
  return Math.max(i, 0);
}

/** Spec 000 §4.3 labels; OK or anything else is "Information". */
export function categoryLabel(category: string): string {
  switch (category) {
    case 'CRITICAL':
      return 'Outage';
    case 'WARNING':
      return 'Service degradation';
    case 'INFO':
      return 'Planned maintenance';
    default:
      return 'Information';
  }
}

export type AlertColor = 'red' | 'orange' | 'blue' | 'green';
export function categoryColor(category: string): AlertColor {
  switch (category) {
    case 'CRITICAL':
      return 'red';
    case 'WARNING':
      return 'orange';
    case 'INFO':
      return 'blue';
    default:
      return 'green';
  }
}

/** The /notifications-category/{slug} pages and the Active tab cards, most severe first (spec 000 §2.12). */
export const categoryPages = [
  { slug: 'critical', category: 'CRITICAL', title: 'Outage' },
  { slug: 'warning', category: 'WARNING', title: 'Service Degradation' },
  { slug: 'info', category: 'INFO', title: 'Planned Maintenance' },
  { slug: 'ok', category: 'OK', title: 'Information' },
] as const satisfies readonly { slug: string; category: AlertCategory; title: string }[];
export type CategorySlug = (typeof categoryPages)[number]['slug'];

export const categoryPageOf = (slug: string) => categoryPages.find((p) => p.slug === slug) ?? null;
/** The card/page a category belongs to; unknown categories go with OK ("Information"). */
export const categoryPageFor = (category: string) =>
  categoryPages.find((p) => p.category === category) ?? categoryPages[3];

/** Spec 000 §4.3: INFO alerts are shown at most this many days before they start. */
export const INFO_LOOKAHEAD_DAYS = 5;
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

export interface AlertTiming {
  category: string;
  status: string;
  date: Date | string;
  expires: Date | string | null;
}

const ms = (d: Date | string) => (typeof d === 'string' ? Date.parse(d) : d.getTime());

/** Not expired means no expiry, or an expiry in the future. */
export const isExpired = (a: Pick<AlertTiming, 'expires'>, now: Date) =>
  a.expires !== null && ms(a.expires) <= now.getTime();

/** Resolved = status RESOLVED and expired (spec 000 §4.3); a RESOLVED alert still before its expiry stays active. */
export const isResolved = (a: AlertTiming, now: Date) => a.status === 'RESOLVED' && isExpired(a, now);

/** Hidden until its time: an INFO alert starting more than the look-ahead from now. */
export const isBeyondLookahead = (a: AlertTiming, now: Date) =>
  a.category === 'INFO' && ms(a.date) > now.getTime() + INFO_LOOKAHEAD_DAYS * DAY_MS;

/** What GET /api/notifications lists and the banner shows. */
export const isActiveAlert = (a: AlertTiming, now: Date) => !isResolved(a, now) && !isBeyondLookahead(a, now);

/** Vendor staff who may create, edit and resolve alerts (docs/decisions/006-roles-and-access.md: admin acts as busops). */
export const canManageAlerts = (vendorRoles: readonly string[]) =>
  vendorRoles.some((r) => r === 'busops' || r === 'support' || r === 'admin');

/**
 * Spec 000 §5: the alert date filter takes only 'YYYY-MM-DD' with a 19xx or 20xx year and becomes the
 * whole (UTC) day; null for anything else.
 */
export function parseAlertDay(text: unknown): DateRange | null {
  if (typeof text !== 'string' || !/^(19|20)\d{2}-\d{2}-\d{2}$/.test(text)) return null;
  return dayRange(text);
}

/** Dates on the alert screens: 'yyyy-MM-dd H:mm' (UTC, as every date of the portal). */
export function formatAlertDate(d: Date | string): string {
  const date = new Date(ms(d));
  return `${formatDate(date)} ${date.getUTCHours()}:${String(date.getUTCMinutes()).padStart(2, '0')}`;
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/**
 * Relative age of an alert's start: 'In N days' (future), 'N Minutes ago' (under an hour),
 * 'H Hours M Minutes ago' (under a day), 'N day(s) ago' (one day or more; "day" when N is 1).
 */
export function relativeAge(start: Date | string, now: Date): string {
  const diff = now.getTime() - ms(start);
  if (diff < 0) {
    const days = Math.ceil(-diff / DAY_MS);
    return `In ${plural(days, 'day')}`;
  }
  if (diff < HOUR_MS) return `${Math.floor(diff / MINUTE_MS)} Minutes ago`;
  if (diff < DAY_MS) {
    const hours = Math.floor(diff / HOUR_MS);
    const minutes = Math.floor((diff % HOUR_MS) / MINUTE_MS);
    return `${hours} Hours ${minutes} Minutes ago`;
  }
  return `${plural(Math.floor(diff / DAY_MS), 'day')} ago`;
}

const oneDecimal = (n: number) => Math.round(n * 10) / 10;

/** Start to expected end in minutes (under an hour), hours (under a day) or days; null without an end. */
export function alertDuration(start: Date | string, end: Date | string | null): string | null {
  if (end === null) return null;
  const diff = Math.max(0, ms(end) - ms(start));
  if (diff < HOUR_MS) return plural(Math.round(diff / MINUTE_MS), 'minute');
  if (diff < DAY_MS) return plural(oneDecimal(diff / HOUR_MS), 'hour');
  return plural(oneDecimal(diff / DAY_MS), 'day');
}

/** 'A', 'A and B', 'A, B and C'. */
export function joinWithAnd(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export interface BannerAlert {
  category: string;
  service: string[];
  description: string;
  date: Date | string;
  expires: Date | string | null;
}

export type Banner =
  | null
  | { kind: 'single'; category: string; text: string }
  | { kind: 'multiple'; title: 'Multiple alerts'; text: string };

/** Spec 000 §4.3 banner: none for 0 alerts, the alert's own text for 1, "Multiple alerts" for more. */
export function bannerFor(alerts: readonly BannerAlert[]): Banner {
  if (alerts.length === 0) return null;
  if (alerts.length === 1) {
    const a = alerts[0];
    const end = a.expires === null ? '.' : ` to ${formatAlertDate(a.expires)}.`;
    return {
      kind: 'single',
      category: a.category,
      text: `${joinWithAnd(a.service)}: ${a.description} from ${formatAlertDate(a.date)}${end}`,
    };
  }
  const services = [...new Set(alerts.flatMap((a) => a.service))];
  return {
    kind: 'multiple',
    title: 'Multiple alerts',
    text: `Multiple items affecting ${joinWithAnd(services)}.`,
  };
}

/** Spec 000 §4.3 refresh: every 15 minutes, and never sooner than 1 minute after the last one (docs/decisions/008). */
export const ALERTS_REFRESH_MS = 15 * MINUTE_MS;
export const ALERTS_MIN_DELAY_MS = MINUTE_MS;

/** Whether a refresh asked for now (sign-in, navigation, interval) may run, given the last one. */
export const refreshDue = (lastRefresh: number | null, nowMs: number) =>
  lastRefresh === null || nowMs - lastRefresh >= ALERTS_MIN_DELAY_MS;
