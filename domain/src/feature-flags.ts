/**
 * Feature-flag rules shared by the server (refuses to save) and the dialog (disables Apply),
 * spec 000 §2.11, §4.7.
 */
export interface FeatureDefinition {
  name: string;
  conflicts: readonly string[];
}

/**
 * The spec says "two enabled features that list each other as conflicts". We read it as either
 * listing the other: a one-sided conflict list is still a declared incompatibility, and treating it
 * as harmless would let the order of data entry decide (docs/decisions/010-shell-and-feature-flags.md).
 * Returns the conflicting pairs, each sorted by name, in name order; empty when the set is fine.
 */
export function conflictingPairs(
  features: readonly FeatureDefinition[],
  enabled: Iterable<string>,
): Array<[string, string]> {
  const on = new Set(enabled);
  const pairs = new Map<string, [string, string]>();
  for (const feature of features) {
    if (!on.has(feature.name)) continue;
    for (const other of feature.conflicts) {
      if (other === feature.name || !on.has(other)) continue;
      const pair: [string, string] = feature.name < other ? [feature.name, other] : [other, feature.name];
      pairs.set(pair.join('\u0000'), pair);
    }
  }
  return [...pairs.values()].sort((a, b) => (a[0] + a[1] < b[0] + b[1] ? -1 : 1));
}

export const hasConflict = (features: readonly FeatureDefinition[], enabled: Iterable<string>) =>
  conflictingPairs(features, enabled).length > 0;

/** A feature that switches one top-level route: `name` is the path segment, `label` what the page is called. */
export interface RouteFeature {
  name: string;
  label: string;
}

/**
 * The product's route features, one per guarded top-level path of spec 000 §2.1. Every installation has
 * them, demo data or not: the server adds the missing ones at start and never changes existing rows, so an
 * administrator's choices stay (docs/decisions/025-route-features-in-product.md). The notice paths are
 * listed too, as the spec names them, though `alwaysReachable` keeps them reachable when switched off.
 */
export const routeFeatures: readonly RouteFeature[] = [
  { name: 'elastic', label: 'Elastic Licensing' },
  { name: 'ssl', label: 'Leases/Perpetuals' },
  { name: 'entitlementsFSA', label: 'Flexible Spending Account' },
  { name: 'activations', label: 'Activate Entitlements' },
  { name: 'activations-history', label: 'Manage Activations' },
  { name: 'web-assignments', label: 'Web Assignments' },
  { name: 'web-transactions', label: 'Web Transactions' },
  { name: 'web-reporting', label: 'Web Reporting' },
  { name: 'transactions', label: 'Usage Transactions' },
  { name: 'statementv2', label: 'Elastic Statements' },
  { name: 'emails', label: 'Emails' },
  { name: 'notifications', label: 'Alerts' },
  { name: 'notification-details', label: 'Alert details' },
  { name: 'notifications-category', label: 'Alerts by category' },
  { name: 'portalaccess', label: 'Licensing Portal Access' },
  { name: 'whitelistips', label: 'Elastic IP Settings' },
  { name: 'clscredentials', label: 'Elastic Credentials' },
  { name: 'nocustomer', label: 'Notice: no customer' },
  { name: 'notypecustomer', label: 'Notice: customer type' },
  { name: 'noselectedcustomer', label: 'Notice: no selected customer' },
  { name: 'nopermissions', label: 'Notice: no permissions' },
  { name: 'noaccess', label: 'Notice: export compliance' },
];

/** The description a route feature's row carries, e.g. "Route /emails: Emails". */
export const routeFeatureDescription = ({ name, label }: RouteFeature) => `Route /${name}: ${label}`;

/** Paths that never depend on a flag: the shell itself, its notice pages and the error pages. */
export const alwaysReachable: ReadonlySet<string> = new Set([
  '',
  'home',
  'error',
  'nocustomer',
  'notypecustomer',
  'noselectedcustomer',
  'nopermissions',
  'noaccess',
]);

/** The top path segment, the unit a feature flag switches: "/web-assignments/users" -> "web-assignments". */
export const topSegment = (pathname: string) => pathname.replace(/^\/+/, '').split('/')[0] ?? '';

/**
 * Spec 000 §2.1: a route is reachable only if its path is an enabled feature; child paths (empty or
 * not) follow their parent. A top segment that no feature defines is not switchable and stays
 * reachable, so a deployment without feature rows (or a failed feature load, §8) still works.
 */
export function isRouteEnabled(
  pathname: string,
  defined: ReadonlySet<string>,
  enabled: ReadonlySet<string>,
): boolean {
  const segment = topSegment(pathname);
  if (alwaysReachable.has(segment)) return true;
  if (!defined.has(segment)) return true;
  return enabled.has(segment);
}

/** The set in force: the user's saved choice when overrides apply, else every feature on by default. */
export function effectiveEnabled(
  features: ReadonlyArray<FeatureDefinition & { enabled: boolean }>,
  saved: readonly string[] | null,
): string[] {
  const known = new Set(features.map((f) => f.name));
  if (saved) return saved.filter((name) => known.has(name));
  return features.filter((f) => f.enabled).map((f) => f.name);
}
