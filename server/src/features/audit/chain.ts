import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/**
 * The audit hash chain (decision 039): each entry's hash is SHA-256 over the previous entry's hash and the
 * entry's fields in RFC 8785 canonical JSON, so the hash does not depend on how the database orders jsonb keys.
 * Editing any field, or removing or reordering an entry, breaks every later hash of the chain.
 */

/** The hash before a chain's first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** Changes of no account chain here. */
export const GLOBAL_CHAIN = '*';

export type AuditActorKind = 'user' | 'api-token' | 'license-server' | 'automated';

export interface ChainedFields {
  chain: string;
  seq: number;
  /** Milliseconds are kept exactly: the column holds microseconds */
  at: Date;
  customerNumber: string | null;
  actorKind: AuditActorKind;
  actorId: string | null;
  actorName: string;
  action: string;
  objectType: string;
  objectId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  requestId: string | null;
  /** Hashed only when set: entries written before the column existed keep their hashes */
  clientRequestId: string | null;
  clientIp: string | null;
}

export function entryHash(prevHash: string, e: ChainedFields): string {
  const { clientRequestId, ...fields } = e;
  const body = canonicalize({
    ...fields,
    at: e.at.toISOString(),
    ...(clientRequestId === null ? {} : { clientRequestId }),
  }) as string;
  return createHash('sha256').update(prevHash).update('\n').update(body).digest('hex');
}
