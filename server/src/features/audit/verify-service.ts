import type { Db } from '../../db/database.ts';
import { type ChainedFields, entryHash, GENESIS_HASH } from './chain.ts';
import type { Checkpoint } from './checkpoint-file.ts';
import { type AuditRow, chainPage, entryChains, lastSeq, listHeads } from './repository.ts';

/**
 * Checking the audit log (decisions 039 and 044). Each chain is walked in sequence: numbering, links, hashes,
 * then its head. The chain alone cannot tell a log cut short or rewritten with the product's own hash from a
 * clean one; signed checkpoints can: every anchored entry must still be there with the hash it had.
 */

export interface ChainCheck {
  chain: string;
  /** Entries verified (up to the problem, when there is one) */
  entries: number;
  ok: boolean;
  /** The first entry affected (its seq) and what is wrong */
  problem?: { seq: number; reason: string };
}

type Head = Awaited<ReturnType<typeof listHeads>>[number];

/** Where a checkpoint saw a chain: the entry at `seq` had `hash`. */
interface Anchor {
  seq: number;
  hash: string;
  /** The checkpoint's time, to name it */
  at: string;
}

const fieldsOf = (r: AuditRow): ChainedFields => ({
  chain: r.chain,
  seq: r.seq,
  at: r.at,
  customerNumber: r.customerNumber,
  actorKind: r.actorKind,
  actorId: r.actorId,
  actorName: r.actorName,
  action: r.action,
  objectType: r.objectType,
  objectId: r.objectId,
  before: r.before,
  after: r.after,
  requestId: r.requestId,
  clientRequestId: r.clientRequestId,
  clientIp: r.clientIp,
});

/** Each chain's anchors, by seq; the same entry anchored by several checkpoints counts once (the earliest). */
function anchorsOf(checkpoints: readonly Checkpoint[], chain?: string): Map<string, Anchor[]> {
  const byChain = new Map<string, Map<string, Anchor>>();
  for (const checkpoint of checkpoints)
    for (const a of checkpoint.chains) {
      if (chain !== undefined && a.chain !== chain) continue;
      const anchors = byChain.get(a.chain) ?? new Map<string, Anchor>();
      byChain.set(a.chain, anchors);
      const key = `${a.seq}:${a.hash}`;
      const seen = anchors.get(key);
      if (!seen || checkpoint.at < seen.at) anchors.set(key, { seq: a.seq, hash: a.hash, at: checkpoint.at });
    }
  return new Map(
    [...byChain].map(([name, anchors]) => [
      name,
      [...anchors.values()].sort((a, b) => a.seq - b.seq || a.at.localeCompare(b.at)),
    ]),
  );
}

const PAGE = 2000;

interface ChainPlan {
  chain: string;
  /** The head as read before the walk; entries appended since are left for the next check */
  head: Head | undefined;
  anchors: readonly Anchor[];
  /** The first entry walked; after 1 its link to the entry before is taken as stored (an incremental check) */
  startAt: number;
}

async function checkChain(db: Db, { chain, head, anchors, startAt }: ChainPlan): Promise<ChainCheck> {
  let expectedSeq = startAt;
  let prev: string | null = startAt === 1 ? GENESIS_HASH : null;
  let next = anchors.findIndex((a) => a.seq >= startAt);
  if (next < 0) next = anchors.length;
  let matched: Anchor | undefined;
  const fail = (seq: number, reason: string): ChainCheck => ({
    chain,
    entries: expectedSeq - 1,
    ok: false,
    problem: { seq, reason },
  });
  for (;;) {
    const page = await chainPage(db, chain, expectedSeq - 1, PAGE, head?.seq);
    for (const row of page) {
      if (row.seq !== expectedSeq) return fail(expectedSeq, 'entry missing');
      if (prev !== null && row.prevHash !== prev) return fail(row.seq, 'link to the previous entry broken');
      if (entryHash(row.prevHash, fieldsOf(row)) !== row.hash) return fail(row.seq, 'entry edited');
      for (; next < anchors.length && anchors[next].seq === row.seq; next++) {
        const anchor = anchors[next];
        if (anchor.hash !== row.hash)
          return fail(
            row.seq,
            `history rewritten: the entry differs from the checkpoint of ${anchor.at}` +
              (matched ? ` (entry ${matched.seq} still matches the checkpoint of ${matched.at})` : ''),
          );
        matched = anchor;
      }
      prev = row.hash;
      expectedSeq += 1;
    }
    if (page.length < PAGE) break;
  }
  // An incremental walk that found nothing from its start: the chain now ends before it.
  const last = expectedSeq === startAt && startAt > 1 ? await lastSeq(db, chain, head?.seq) : expectedSeq - 1;
  if (next < anchors.length) {
    const furthest = anchors[anchors.length - 1];
    expectedSeq = last + 1;
    return fail(
      last + 1,
      last === 0 && !head
        ? `chain missing: the checkpoint of ${furthest.at} has its entry ${furthest.seq}`
        : `entries missing: the chain ends at entry ${last}, the checkpoint of ${furthest.at} has entry ${furthest.seq}`,
    );
  }
  if (!head) return fail(last, 'chain head missing');
  if (head.seq !== last) return fail(last + 1, 'entry missing');
  if (prev !== null && head.hash !== prev) return fail(last, 'entry edited');
  return { chain, entries: last, ok: true };
}

/** The chains to check: every head, every chain with entries, every chain a checkpoint anchored. */
async function chainsToCheck(db: Db, anchors: Map<string, Anchor[]>, chain?: string) {
  // Entries first: a chain appended to between the two reads then also has its head.
  const withEntries = await entryChains(db, chain);
  const heads = new Map((await listHeads(db, chain)).map((h) => [h.chain, h]));
  const names = [...new Set([...heads.keys(), ...withEntries, ...anchors.keys()])].sort();
  return { names, heads };
}

/**
 * `npm run cli -- audit verify`: every chain (or the account's) from its first entry, against every checkpoint
 * given.
 */
export async function verifyAudit(
  db: Db,
  customerNumber?: string,
  checkpoints: readonly Checkpoint[] = [],
): Promise<ChainCheck[]> {
  const anchors = anchorsOf(checkpoints, customerNumber);
  const { names, heads } = await chainsToCheck(db, anchors, customerNumber);
  const checks: ChainCheck[] = [];
  for (const chain of names)
    checks.push(
      await checkChain(db, { chain, head: heads.get(chain), anchors: anchors.get(chain) ?? [], startAt: 1 }),
    );
  return checks;
}

/**
 * The checkpoint job's check, cheap at millions of entries: each chain from the previous checkpoint's anchor (the
 * anchored entry must still have its hash) to its current head; chains new since then from their start. Answers
 * the heads it checked, which the next checkpoint anchors.
 */
export async function verifySince(db: Db, previous: Checkpoint | undefined) {
  const anchors = anchorsOf(previous ? [previous] : []);
  const { names, heads } = await chainsToCheck(db, anchors);
  const checks: ChainCheck[] = [];
  for (const chain of names) {
    const anchor = anchors.get(chain)?.[0];
    checks.push(
      await checkChain(db, {
        chain,
        head: heads.get(chain),
        anchors: anchor ? [anchor] : [],
        startAt: anchor?.seq ?? 1,
      }),
    );
  }
  return { checks, heads: [...heads.values()] };
}
