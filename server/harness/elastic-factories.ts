import { randomInt } from 'node:crypto';
import type { UsageEventInput } from '@lp/contract/cls/schemas';
import type { Db } from '../src/db/database.ts';
import { type entitlements, rateTables } from '../src/db/schema.ts';
import { ingestUsage } from '../src/features/cls-api/ingest.ts';
import { buildEntitlement, buildLicenseServer } from './factories.ts';

/** Prices products in a rate table version (units per count per hour). */
export async function buildRateTable(db: Db, version: string, rates: Record<string, number>) {
  await db
    .insert(rateTables)
    .values(Object.entries(rates).map(([product, rate]) => ({ version, product, rate })))
    .onConflictDoNothing();
}

/** The account's elastic license server (license_servers kind 'elastic'); answers its host id (elasticServerId; clsId on the wire). */
export async function buildElasticServer(
  db: Db,
  customerNumber: string,
  elasticServerId = `CLS${randomInt(1e9)}`,
) {
  await buildLicenseServer(db, customerNumber, {
    kind: 'elastic',
    hostIdentity: elasticServerId,
    name: 'Elastic License Server',
    alias: `${customerNumber}-cls`,
  });
  return elasticServerId;
}

/** An Elastic-AEU entitlement (quantity in units). */
export function buildElasticEntitlement(
  db: Db,
  customerNumber: string,
  over: { quantity: number; startDate: string; endDate: string } & Partial<typeof entitlements.$inferInsert>,
) {
  return buildEntitlement(db, customerNumber, {
    kind: 'ELASTIC',
    licenseModel: 'Elastic-AEU',
    partNumber: null,
    poNumber: `PO-${randomInt(1e6)}`,
    currency: 'USD',
    rateTableVersion: '2025.1.0',
    ...over,
  });
}

export interface UsageSpec {
  product: string;
  count?: number;
  /** ISO instants; end null = still active (accrues up to `seen`) */
  start: string;
  end: string | null;
  seen?: string;
  user?: string;
  host?: string;
  project?: string;
  sessionId?: string;
}

/** Events a license server would send for these sessions (start, a heartbeat when active, end). */
export function usageEvents(sessions: readonly UsageSpec[]): UsageEventInput[] {
  return sessions.flatMap((s, i) => {
    const base = {
      sessionId: s.sessionId ?? `s${i}-${randomInt(1e12)}`,
      startTime: s.start,
      product: s.product,
      productCount: s.count ?? 1,
      user: s.user ?? 'alice',
      host: s.host ?? 'ws-001',
      project: s.project ?? 'Wing',
      productVersion: '2025 R1',
      ip: '203.0.113.10',
    };
    const events: UsageEventInput[] = [{ ...base, type: 'start', time: s.start }];
    if (s.end) events.push({ ...base, type: 'end', time: s.end });
    else if (s.seen) events.push({ ...base, type: 'heartbeat', time: s.seen });
    return events;
  });
}

/**
 * Records usage through the real ingest path (rating + ledger), as the license-server API would.
 * Throws when an event is rejected, so a test never builds on silently missing usage.
 */
export async function recordUsage(
  db: Db,
  server: { customerNumber: string; elasticServerId: string },
  sessions: readonly UsageSpec[],
) {
  const result = await ingestUsage(
    db,
    server,
    usageEvents(sessions),
    new Date('2100-01-01T00:00:00Z'),
    1_000_000,
  );
  if (result.rejected.length) throw new Error(`usage rejected: ${JSON.stringify(result.rejected)}`);
  return result;
}
