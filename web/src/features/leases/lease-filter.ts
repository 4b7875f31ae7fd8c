import { parseCalendarDay } from '@lp/contract/common/dates';
import type { LeaseColumn } from '@lp/contract/leases/schemas';
import type { Criterion, FilterRule, SortRule } from '@lp/contract/query/schemas';
import { parseDatePrefix } from '@lp/domain/date-prefix';
import { addDaysUtc, formatDate } from '@lp/domain/dates';
import {
  EXPIRED,
  licenseModelGroups,
  modelsMatchingGroupText,
  NOT_STARTED,
  PERMANENT,
} from '@lp/domain/entitlements';
import { maintenanceText } from '@lp/domain/lease-entitlements';

/**
 * Spec 002 §5 "Leases filters": the /ssl tables filter on what they show, and the query engine filters on the
 * lease record. The shared grid turns each column's one condition (contains or equals) into a criterion named
 * after the column id; this module rewrites those criteria into the record's (contract `leaseColumnKinds`)
 * before the data service sees them, so its in-memory narrowing judges exactly what the server is asked.
 * A text the column cannot mean is refused with a LeaseFilterError, shown above the table.
 */
export class LeaseFilterError extends Error {}

/** The column ids of the /ssl tables. */
export const leaseColumnIds = [
  'entitlement',
  'licensemodel',
  'count',
  'startdate',
  'enddate',
  'remainingdays',
  'activated',
] as const;
export type LeaseColumnId = (typeof leaseColumnIds)[number];

/** What each column sorts by (Remaining Days: by the end date, perpetuals last when ascending). */
const sortField: Record<LeaseColumnId, LeaseColumn> = {
  entitlement: 'ProductName',
  licensemodel: 'LicenseModel',
  count: 'LineItemQuantity',
  startdate: 'StartDate',
  enddate: 'EndDate',
  remainingdays: 'EndDate',
  activated: 'Activated',
};

const isColumnId = (name: string): name is LeaseColumnId => Object.hasOwn(sortField, name);

const criterion = (name: LeaseColumn, method: Criterion['method'], value?: Criterion['value']): Criterion =>
  value === undefined ? { name, method } : { name, method, value };

/** Spec 002 §5: numeric columns match by equality on a parsed number ('1,000' is 1000). */
function parsedNumber(text: string, column: string): number {
  const plain = text.replace(/,/g, '').trim();
  if (!/^[-+]?\d+(\.\d+)?$/.test(plain)) throw new LeaseFilterError(`${column}: enter a number.`);
  return Number(plain);
}

/**
 * Spec 002 §5: dates are YYYY-MM-DD with a year 19xx or 20xx. A leading part of one (a decade '202', a year
 * '2026', a month '2026-12') matches every day it covers, as the transactions filters read it (decision 052):
 * the days shown start with what was typed.
 */
function parsedDays(text: string, column: string): [string, string] {
  const typed = text.trim();
  const prefix = /^(19|20)\d/.test(typed) ? parseDatePrefix(typed) : null;
  if (prefix?.kind === 'range' && !['hour', 'minute', 'second'].includes(prefix.precision)) {
    const days: [string, string] = [formatDate(prefix.range.from), formatDate(prefix.range.to)];
    if (days.every((day) => parseCalendarDay(day))) return days;
  }
  throw new LeaseFilterError(`${column}: enter a date as YYYY-MM-DD, or its year or year and month.`);
}

const onDays = (name: LeaseColumn, days: [string, string]) => criterion(name, 'DAYRANGE', days);

/** Seats shown as the count (Shared Web, Named User): their Total Activated is not the servers' count. */
const countShownModels = [...licenseModelGroups['Shared Web'], ...licenseModelGroups['Named User']];

const maintenancePrefix = maintenanceText('').trim().toLowerCase();

/**
 * The record criteria for one column condition. `today` is the UTC day ('YYYY-MM-DD') the page classifies
 * rows on, the day the server splits the active and inactive tables on.
 */
function columnCriteria(c: Criterion, today: string): Criterion[] {
  if (!isColumnId(c.name)) throw new LeaseFilterError(`The column ${c.name} cannot be filtered.`);
  // Blank / not blank conditions are not offered (contains or equals only); a saved view could still hold one.
  if (typeof c.value !== 'string' || c.not || (c.method !== 'CONTAINS' && c.method !== 'EQUALS')) {
    throw new LeaseFilterError('Filters are contains or equals.');
  }
  const text = c.value;
  const equals = c.method === 'EQUALS';
  const started = { ...criterion('StartDate', 'AFTERDAY', today), not: true };
  switch (c.name) {
    case 'entitlement':
      return [{ name: 'ProductName', method: c.method, value: text, casefold: true }];
    case 'licensemodel': {
      // Spec 002 §5: the text names the models of every group (or model) it matches.
      const models = equals
        ? Object.entries(licenseModelGroups)
            .filter(([group]) => group.toLowerCase() === text.trim().toLowerCase())
            .flatMap(([, names]) => [...names])
        : modelsMatchingGroupText(text);
      if (models.length > 0) return [criterion('LicenseModel', 'ARRAY_CONTAINS', models)];
      return [{ name: 'LicenseModel', method: c.method, value: text, casefold: true }];
    }
    case 'count':
      return [criterion('LineItemQuantity', 'EQUALS', parsedNumber(text, 'Count'))];
    case 'activated':
      // The servers' seats (decision 031); rows whose column shows their count are not judged on it.
      return [
        criterion('Activated', 'EQUALS', parsedNumber(text, 'Total Activated')),
        { ...criterion('LicenseModel', 'ARRAY_CONTAINS', countShownModels), not: true },
      ];
    case 'startdate':
      return [onDays('StartDate', parsedDays(text, 'Start Date'))];
    case 'enddate': {
      // A date, or the text a perpetual shows: 'Maintenance ends on {date}'.
      const trimmed = text.trim();
      if (trimmed.toLowerCase().startsWith(maintenancePrefix)) {
        return [
          onDays('VersionDate', parsedDays(trimmed.slice(maintenancePrefix.length), 'Expiration Date')),
        ];
      }
      return [onDays('EndDate', parsedDays(trimmed, 'Expiration Date'))];
    }
    case 'remainingdays': {
      const word = text.trim().toUpperCase();
      if (word === PERMANENT) return [criterion('EndDate', 'ISDEFINED', false), started];
      if (word === EXPIRED) return [criterion('EndDate', 'BEFOREDAY', today), started];
      if (word === NOT_STARTED) return [criterion('StartDate', 'AFTERDAY', today)];
      let days: number;
      try {
        days = parsedNumber(text, 'Remaining Days');
      } catch {
        throw new LeaseFilterError(
          `Remaining Days: enter a number of days, ${PERMANENT}, ${EXPIRED} or ${NOT_STARTED}.`,
        );
      }
      if (!Number.isInteger(days) || days < 1) {
        throw new LeaseFilterError('Remaining Days: enter a whole number of days, 1 or more.');
      }
      // n days left counting the last one: the entitlement ends on today + n - 1.
      const end = formatDate(addDaysUtc(new Date(`${today}T00:00:00Z`), days - 1));
      return [onDays('EndDate', [end, end]), started];
    }
  }
}

/** The lease-record filter rule for the grid's rule (criteria named by column id). */
export function leaseFilterRule(rule: FilterRule | null | undefined, today: string): FilterRule | undefined {
  if (!rule || rule.criteria.length === 0) return undefined;
  const criteria = rule.criteria.map((c) => columnCriteria(c, today));
  const any = rule.condition.toUpperCase() === 'ANY';
  // ANY comes only from two conditions on one column, which the tables do not offer (one condition each).
  if (any && criteria.some((list) => list.length > 1)) {
    throw new LeaseFilterError('Only one condition per column can be used.');
  }
  return { condition: any ? 'ANY' : 'ALL', criteria: criteria.flat() };
}

/** The lease-record sort rules for the grid's sort (by column id). */
export function leaseSortRules(sorting: readonly SortRule[] | undefined): SortRule[] {
  return (sorting ?? []).map((s) => ({
    name: isColumnId(s.name) ? sortField[s.name] : s.name,
    direction: s.direction,
  }));
}

/** Today's UTC day, the day rows are classified on. */
export const utcToday = (now: Date = new Date()) => formatDate(now);
