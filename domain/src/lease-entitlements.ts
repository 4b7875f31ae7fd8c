import type { LeaseRecord } from '@lp/contract/leases/schemas';
import {
  countShownAsActivated,
  isBorrowable,
  PERMANENT,
  type ProgressColour,
  periodOf,
  remainingDaysColour,
} from './entitlements.ts';

/**
 * Spec 002 §4 "Entitlement classification (leases/perpetuals and activations)" on the shared rules of
 * ./entitlements.ts: the derived display row of a lease or perpetual. The server's active/inactive split in
 * SQL (entitlements/repository.ts leasesScope) is the same rule: started and (permanent or not ended).
 */

export type RemainingDays = number | typeof PERMANENT | 'EXPIRED' | 'NOT STARTED';

/** The fields of a lease record the classification reads. */
export type LeaseFacts = Pick<
  LeaseRecord,
  | 'ActivationId'
  | 'ProductName'
  | 'LineItemQuantity'
  | 'StartDate'
  | 'EndDate'
  | 'VersionDate'
  | 'LicenseModel'
  | 'IsActivationPermanent'
  | 'Type'
  | 'Activated'
>;

/** Spec 002 §3 "Derived display row" (lease/perpetual). */
export interface LeaseRow {
  activationid: string;
  ansysproduct: string;
  ansyslicensemodel: string;
  isEval: boolean;
  ansyscount: number;
  ansysactivated: number;
  ansysavailable: number;
  ansysborrowable: boolean;
  startdate: string;
  enddate: string | null;
  versiondate: string | null;
  /** Whole days left counting the last one, or PERMANENT / EXPIRED / NOT STARTED. */
  remainingdays: RemainingDays;
  /** The days left as a number (0 when expired or not started; null for a perpetual). */
  remainingDaysNumber: number | null;
  usedDays: number;
  usedDaysPercentage: number;
  remainingdayscolor: ProgressColour;
  /** 'Maintenance ends on {date}' for a perpetual with a maintenance date; the end date otherwise. */
  expirationText: string;
  /** A perpetual whose maintenance (versiondate) ended before today. */
  maintenanceExpired: boolean;
  active: boolean;
}

export const maintenanceText = (versionDate: string) => `Maintenance ends on ${versionDate}`;

/**
 * Spec 002 §4: what a line's end shows wherever it is listed (tables, history, its CSV; decision 049): the end
 * date, or for a perpetual 'Maintenance ends on {versiondate}', or PERMANENT when it has no maintenance date.
 */
export const endText = (endDate: string | null, versionDate: string | null) =>
  endDate ?? (versionDate ? maintenanceText(versionDate) : PERMANENT);

/**
 * Decision 031 (revised): the seats of a line as every page and the server count them. A Shared Web or Named User
 * line is in use by design (spec 002 §9 "the count is shown as activated"): all its seats are activated and none
 * is available to activate on a license server. Any other line: the seats on license servers (`onServers`, null
 * while unknown), the rest available.
 */
export function lineSeats(
  line: { model: string; productName: string; quantity: number },
  onServers: number | null,
): { activated: number | null; available: number } {
  const activated = countShownAsActivated(line.model, line.productName) ? line.quantity : onServers;
  return { activated, available: Math.max(0, line.quantity - (activated ?? 0)) };
}

/** One lease record as a display row on the day of `now` (UTC). */
export function toLeaseRow(record: LeaseFacts, now: Date = new Date()): LeaseRow {
  const permanent = record.IsActivationPermanent === 'true' || record.EndDate === null;
  const seats = lineSeats(
    { model: record.LicenseModel, productName: record.ProductName, quantity: record.LineItemQuantity },
    record.Activated,
  );
  const common = {
    activationid: record.ActivationId,
    ansysproduct: record.ProductName,
    ansyslicensemodel: record.LicenseModel,
    isEval: record.Type === 'Evaluation',
    ansyscount: record.LineItemQuantity,
    ansysactivated: seats.activated ?? 0,
    ansysavailable: seats.available,
    ansysborrowable: isBorrowable(record.LicenseModel),
    startdate: record.StartDate,
    enddate: record.EndDate,
    versiondate: record.VersionDate,
  };
  if (permanent) {
    // A perpetual has started when its start day has come; its maintenance may have ended.
    const started = periodOf(record.StartDate, record.StartDate, now);
    const notStarted = started?.notStarted ?? false;
    const maintenance = record.VersionDate ? periodOf(record.StartDate, record.VersionDate, now) : null;
    return {
      ...common,
      remainingdays: notStarted ? 'NOT STARTED' : PERMANENT,
      remainingDaysNumber: null,
      usedDays: started?.usedDays ?? 0,
      usedDaysPercentage: notStarted ? 0 : 100,
      remainingdayscolor: 'green',
      expirationText: endText(null, record.VersionDate),
      maintenanceExpired: maintenance !== null && !maintenance.notStarted && maintenance.expired,
      active: !notStarted,
    };
  }
  const period = periodOf(record.StartDate, record.EndDate ?? '', now);
  const notStarted = period?.notStarted ?? true;
  const expired = period?.expired ?? false;
  const remaining = period?.remainingDays ?? 0;
  return {
    ...common,
    remainingdays: notStarted ? 'NOT STARTED' : expired ? 'EXPIRED' : remaining,
    remainingDaysNumber: notStarted || expired ? 0 : remaining,
    usedDays: period?.usedDays ?? 0,
    usedDaysPercentage: period?.usedDaysPercentage ?? 0,
    remainingdayscolor: remainingDaysColour(remaining),
    expirationText: record.EndDate ?? '',
    maintenanceExpired: false,
    active: !notStarted && !expired,
  };
}
