import { type UsageEvent, usageEventSchema } from '@lp/contract/cls/schemas';
import { findInputProblem } from '@lp/contract/common/input-limits';
import { formatDate } from '@lp/domain/dates';
import { chargeCents, rateTableFor, sessionHours } from '@lp/domain/elastic-rating';
import { isValidIp } from '@lp/domain/ip-rules';
import type { Db } from '../../db/database.ts';
import { elasticCurrencyOf } from '../entitlements/service.ts';
import { type Charge, lockLedgerEntitlements, postCharges } from '../ledger/service.ts';
import {
  insertSessions,
  loadRateTables,
  type NewSessionRow,
  newestVersion,
  type SessionUpdate,
  sessionsById,
  updateSessions,
} from './repository.ts';

/** Events may not claim to come from the future (clock skew allowance). */
const MAX_SKEW_MS = 5 * 60_000;
const DAY_MS = 86_400_000;
/** How far back a session may start unless the caller says otherwise (config CLS_BACKFILL_DAYS). */
export const DEFAULT_BACKFILL_DAYS = 400;

export interface ElasticServer {
  customerNumber: string;
  elasticServerId: string;
}

export interface IngestResult {
  accepted: number;
  rejected: { index: number; reason: string }[];
}

interface Working {
  key: string;
  rowId: number | null;
  isNew: boolean;
  dirty: boolean;
  start: Date;
  end: Date | null;
  lastSeen: Date;
  product: string;
  count: number;
  rate: number;
  chargedCents: number;
  status: string;
  hours: number;
  entitlementId: number | null;
  event: UsageEvent;
  version: string;
}

/** Whether each address is valid, asked once per batch: a license server's events repeat a few addresses. */
function ipChecker() {
  const known = new Map<string, boolean>();
  return (ip: string) => {
    let valid = known.get(ip);
    if (valid === undefined) {
      valid = isValidIp(ip);
      known.set(ip, valid);
    }
    return valid;
  };
}

/** A valid event with its two instants read once (epoch milliseconds). */
interface Checked {
  index: number;
  event: UsageEvent;
  time: number;
  start: number;
}

function checkEvent(
  raw: unknown,
  index: number,
  now: Date,
  backfillDays: number,
  validIp: (ip: string) => boolean,
): Checked | string {
  // The batch's body skips the app-wide input guard (decision 020) so one bad event cannot sink the batch.
  const problem = findInputProblem(raw);
  if (problem) return `${problem.path.join('.') || 'event'}: ${problem.message}`;
  const parsed = usageEventSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `${issue.path.join('.') || 'event'}: ${issue.message}`;
  }
  const e = parsed.data;
  const time = Date.parse(e.time);
  const start = Date.parse(e.startTime);
  if (time > now.getTime() + MAX_SKEW_MS) return 'time: event time is in the future';
  // A session from long ago (year 50) would be charged for centuries of hours (decision 020).
  if (start < now.getTime() - backfillDays * DAY_MS)
    return `startTime: sessions may start at most ${backfillDays} days ago`;
  if (time < start) return 'time: event time is before the session start';
  if (e.ip && !validIp(e.ip)) return 'ip: not a valid IP address';
  return { index, event: e, time, start };
}

/**
 * Where the batch's sessions are stored: a session is its server's session id and its start (the unique index's
 * key), and every event repeats the start, so the lookup reads only the months the batch's starts fall in. A day
 * either side keeps a session whose events disagree a little on its start one session (decision 077).
 */
function startsOf(events: readonly Checked[]): { from: Date; to: Date } {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const { start } of events) {
    first = Math.min(first, start);
    last = Math.max(last, start);
  }
  return { from: new Date(first - DAY_MS), to: new Date(last + DAY_MS) };
}

/**
 * Rates a batch of session events of one elastic license server and posts the charges to the ledger, all in one
 * transaction under the account's ledger lock. A session's charge only grows with the latest time seen (start,
 * heartbeat, end; the first end wins), so a replayed, duplicated or late event changes nothing and events may
 * arrive in any order. Bad events are reported by index and reason; the good ones are kept.
 */
export async function ingestUsage(
  db: Db,
  server: ElasticServer,
  rawEvents: readonly unknown[],
  now: Date = new Date(),
  backfillDays: number = DEFAULT_BACKFILL_DAYS,
): Promise<IngestResult> {
  const rejected: IngestResult['rejected'] = [];
  const events: Checked[] = [];
  const validIp = ipChecker();
  rawEvents.forEach((raw, index) => {
    const checked = checkEvent(raw, index, now, backfillDays, validIp);
    if (typeof checked === 'string') rejected.push({ index, reason: checked });
    else events.push(checked);
  });
  if (events.length === 0) return { accepted: 0, rejected };

  await db.transaction(async (tx) => {
    const cn = server.customerNumber;
    const entitlements = await lockLedgerEntitlements(tx, cn);
    const rates = await loadRateTables(tx);
    const newest = newestVersion(rates.keys());
    const currency = await elasticCurrencyOf(tx, cn);
    const stored = await sessionsById(
      tx,
      server.elasticServerId,
      [...new Set(events.map((e) => e.event.sessionId))],
      startsOf(events),
    );

    const working = new Map<string, Working>();
    for (const [key, s] of stored)
      working.set(key, {
        key,
        rowId: s.id,
        isNew: false,
        dirty: false,
        start: s.startTime,
        end: s.endTime,
        lastSeen: s.lastSeenAt ?? s.endTime ?? s.startTime,
        product: s.product,
        count: s.productCount,
        rate: s.rate,
        chargedCents: s.chargedCents,
        status: s.endTime ? 'Completed' : 'Active',
        hours: 0,
        entitlementId: s.entitlementId,
        event: undefined as unknown as UsageEvent,
        version: '',
      });

    // Time order inside the batch; rating is order-independent anyway, this keeps draws chronological.
    events.sort((a, b) => a.time - b.time || a.index - b.index);
    const charges: (Charge & { key: string })[] = [];
    for (const { index, event, time: eventMs, start: startMs } of events) {
      const time = new Date(eventMs);
      let s = working.get(event.sessionId);
      if (!s) {
        const start = new Date(startMs);
        const version = rateTableFor(entitlements, formatDate(start), newest);
        const rate = rates.get(version)?.get(event.product);
        if (rate === undefined) {
          rejected.push({
            index,
            reason: `product: "${event.product}" is not priced in rate table ${version}`,
          });
          continue;
        }
        s = {
          key: event.sessionId,
          rowId: null,
          isNew: true,
          dirty: true,
          start,
          end: null,
          lastSeen: start,
          product: event.product,
          count: event.productCount,
          rate,
          chargedCents: 0,
          status: 'Active',
          hours: 0,
          entitlementId: null,
          event,
          version,
        };
        working.set(event.sessionId, s);
      }
      if (s.end) continue; // ended sessions never change again
      if (time > s.lastSeen) {
        s.lastSeen = time;
        s.dirty = true;
      }
      if (event.type === 'end') {
        s.end = s.lastSeen;
        s.status = event.status ?? 'Completed';
        s.dirty = true;
      }
      s.hours = sessionHours(s.start.getTime(), s.end?.getTime() ?? null, s.lastSeen.getTime());
      const cents = chargeCents(s.rate, s.count, s.hours);
      if (cents > s.chargedCents) {
        charges.push({
          key: s.key,
          product: s.product,
          cents: cents - s.chargedCents,
          at: time,
        });
        s.chargedCents = cents;
        s.dirty = true;
      }
    }

    // The ledger first: each session is written once, with the entitlement that paid first (the transactions'
    // ActivationID).
    const posted = await postCharges(tx, cn, entitlements, charges);
    posted.forEach((p, i) => {
      const s = working.get(charges[i].key) as Working;
      if (s.entitlementId === null && p.entitlementId !== null) {
        s.entitlementId = p.entitlementId;
        s.dirty = true;
      }
    });
    await insertSessions(
      tx,
      [...working.values()]
        .filter((s) => s.isNew)
        .map(
          (s): NewSessionRow => ({
            customer_number: cn,
            entitlement_id: s.entitlementId,
            session_id: s.key,
            start_time: s.start.toISOString(),
            end_time: s.end?.toISOString() ?? null,
            last_seen_at: s.lastSeen.toISOString(),
            product: s.product,
            product_version: s.event.productVersion,
            product_count: s.count,
            hours: s.hours,
            charge: s.chargedCents / 100,
            currency,
            username: s.event.user,
            host: s.event.host,
            project: s.event.project,
            session_status: s.status,
            referer_ip: s.event.ip,
            cloud_job_id: s.event.cloudJobId ?? null,
            server_id: server.elasticServerId,
            rate_table_version: s.version,
            rate: s.rate,
            charged_cents: s.chargedCents,
          }),
        ),
    );
    await updateSessions(
      tx,
      [...working.values()]
        .filter((s) => !s.isNew && s.dirty)
        .map(
          (s): SessionUpdate => ({
            id: s.rowId as number,
            start_time: s.start.toISOString(),
            entitlement_id: s.entitlementId,
            end_time: s.end?.toISOString() ?? null,
            last_seen_at: s.lastSeen.toISOString(),
            hours: s.hours,
            charge: s.chargedCents / 100,
            charged_cents: s.chargedCents,
            session_status: s.status,
          }),
        ),
    );
  });
  rejected.sort((a, b) => a.index - b.index);
  return { accepted: rawEvents.length - rejected.length, rejected };
}
