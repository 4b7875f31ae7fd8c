import { createHash, randomBytes } from 'node:crypto';
import type { AccountApiTokenRow, ApiTokenRow } from '@lp/contract/api-tokens/schemas';
import type { AuditActionOf } from '@lp/contract/audit/actions';
import { messages } from '@lp/contract/common/errors';
import type { VendorRole } from '@lp/contract/user/schemas';
import { mayManageAccountTokens, mayManageAllTokens } from '@lp/domain/policy';
import type { Db } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest, forbidden } from '../../platform/errors.ts';
import type { Principal } from '../../platform/principal.ts';
import { authorizeAccount } from '../accounts/policy.ts';
import { type AuditActor, auditActor, automatedActor, recordAudit } from '../audit/service.ts';
import {
  findTokenWithOwner,
  findUsableToken,
  insertToken,
  isContactOf,
  markRevoked,
  type TokenRow,
  tokensOfAccount,
  tokensOfUser,
  touchLastUsed,
} from './repository.ts';

/**
 * Personal API tokens (issue 20 §3, decision 042): created by their owner in the portal or by an operator with the
 * CLI, always with an expiry; only a SHA-256 hash is stored. A token acts for its owner while the owner is enabled,
 * and on the owner's vendor-staff roles only while the provider confirmed them recently (TOKEN_ROLES_MAX_AGE_HOURS).
 */

const PREFIX = 'lp_';
/** The last use is written at most this often per token, so reads do not all turn into writes. */
const touchIntervalMs = 60_000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A token belongs to a user; its entries are vendor-wide unless revoked for an account by its administrator. */
const auditToken = (
  tx: Db,
  actor: AuditActor,
  action: AuditActionOf<'auth.api-token.'>,
  id: string,
  change: Record<string, unknown>,
  customerNumber: string | null = null,
) => recordAudit(tx, actor, [{ customerNumber, action, object: { type: 'api-token', id }, ...change }]);

/**
 * Creates a personal API token; the token itself is returned once (never stored or recorded). `actor` is who
 * created it for the audit log: test fixtures leave it automated.
 */
export async function createApiToken(
  db: Db,
  userId: string,
  options: { name?: string; expiresInDays: number },
  actor: AuditActor = automatedActor,
): Promise<{ row: TokenRow; token: string }> {
  const token = PREFIX + randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + options.expiresInDays * 86_400_000);
  const name = options.name ?? '';
  return db.transaction(async (tx) => {
    const row = await insertToken(tx, { userId, name, tokenHash: hashToken(token), expiresAt });
    await auditToken(tx, actor, 'auth.api-token.created', row.id, {
      after: { userId, name, expiresAt: expiresAt.toISOString() },
    });
    return { row, token };
  });
}

/** Revokes one token (by id) or every token of a user, one audit entry each; returns how many were revoked. */
export async function revokeApiTokens(
  db: Db,
  by: { tokenId?: string; userId?: string },
  actor: AuditActor = automatedActor,
  customerNumber: string | null = null,
): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await markRevoked(tx, by);
    for (const row of rows)
      await auditToken(
        tx,
        actor,
        'auth.api-token.revoked',
        row.id,
        { before: { revokedAt: null }, after: { revokedAt: row.revokedAt?.toISOString() ?? null } },
        customerNumber,
      );
    return rows.length;
  });
}

/**
 * The principal a bearer token stands for, or null when the token is unknown, revoked, expired or its owner is
 * disabled (checked on every call, so revoking or disabling takes effect at once on every node). Vendor roles count
 * only while their last confirmation by the provider is younger than `rolesMaxAgeHours`.
 */
export async function principalForToken(
  db: Db,
  token: string,
  rolesMaxAgeHours: number,
): Promise<Omit<Principal, 'origin'> | null> {
  if (!token.startsWith(PREFIX)) return null;
  const now = new Date();
  const found = await findUsableToken(db, hashToken(token), now);
  if (!found) return null;
  const { token: row, user } = found;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= touchIntervalMs)
    await touchLastUsed(db, row.id, now);
  const confirmed = user.rolesConfirmedAt?.getTime() ?? 0;
  const fresh = now.getTime() - confirmed < rolesMaxAgeHours * 3_600_000;
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    vendorRoles: fresh ? (user.vendorRoles as VendorRole[]) : [],
    via: 'token',
    tokenId: row.id,
  };
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

function present(row: TokenRow, now = Date.now()): ApiTokenRow {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    expiresAt: iso(row.expiresAt),
    lastUsedAt: iso(row.lastUsedAt),
    revokedAt: iso(row.revokedAt),
    state: row.revokedAt ? 'revoked' : row.expiresAt && row.expiresAt.getTime() <= now ? 'expired' : 'active',
  };
}

export async function listMyTokens(ctx: AppContext, principal: Principal) {
  const rows = await tokensOfUser(ctx.db, principal.userId);
  return {
    tokens: rows.map((r) => present(r)),
    defaultDays: ctx.config.API_TOKEN_DEFAULT_DAYS,
    maxDays: ctx.config.API_TOKEN_MAX_DAYS,
  };
}

/** The signed-in user makes a token for themselves; never with a token (a stolen one could renew itself). */
export async function createMyToken(
  ctx: AppContext,
  principal: Principal,
  body: { name: string; expiresInDays?: number },
) {
  if (principal.via !== 'session') throw forbidden(messages.tokenCreateNeedsSession);
  const days = body.expiresInDays ?? ctx.config.API_TOKEN_DEFAULT_DAYS;
  if (days > ctx.config.API_TOKEN_MAX_DAYS)
    throw badRequest(messages.tokenTooLong(ctx.config.API_TOKEN_MAX_DAYS));
  const { row, token } = await createApiToken(
    ctx.db,
    principal.userId,
    { name: body.name, expiresInDays: days },
    auditActor(principal),
  );
  return { ...present(row), token };
}

/** The tokens of the account's contacts, for its administrators and vendor staff; others get 403. */
export async function listAccountTokens(
  ctx: AppContext,
  principal: Principal,
  customerNumber: string,
): Promise<{ tokens: AccountApiTokenRow[] }> {
  const access = await authorizeAccount(ctx, principal, customerNumber, 'read');
  if (!mayManageAccountTokens(principal.vendorRoles, access.customer.info)) throw forbidden();
  const rows = await tokensOfAccount(ctx.db, customerNumber);
  return {
    tokens: rows.map((r) => ({ ...present(r.token), ownerEmail: r.ownerEmail, ownerName: r.ownerName })),
  };
}

/**
 * Revokes a token: its owner's own, any (business operations, support), or, naming the account, one of the
 * account's contacts' tokens (its administrators, view-only rule included). Whatever is not the caller's to revoke
 * answers exactly like an unknown id.
 */
export async function revokeToken(
  ctx: AppContext,
  principal: Principal,
  tokenId: string,
  customerNumber: string | undefined,
): Promise<void> {
  const unknown = new AppError('NOT_FOUND', messages.tokenNotFound);
  const found = await findTokenWithOwner(ctx.db, tokenId);
  let account: string | null = null;
  if (customerNumber !== undefined) {
    // Only administrators and coordinators (never view-only) and vendor staff pass the rule below.
    const access = await authorizeAccount(ctx, principal, customerNumber, 'read');
    if (!mayManageAccountTokens(principal.vendorRoles, access.customer.info)) throw forbidden();
    if (!found || !(await isContactOf(ctx.db, customerNumber, found.ownerEmail))) throw unknown;
    account = customerNumber;
  } else if (
    !found ||
    (found.token.userId !== principal.userId && !mayManageAllTokens(principal.vendorRoles))
  ) {
    throw unknown;
  }
  // Revoking a token that is already revoked changes nothing and succeeds (a retried click).
  await revokeApiTokens(ctx.db, { tokenId }, auditActor(principal), account);
}
