import type { ScimTokenRow } from '@lp/contract/scim/schemas';
import { hashBearerToken, newBearerToken } from '../../platform/bearer-token.ts';
import type { AppContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import type { Principal } from '../../platform/principal.ts';
import { authorizeAccount } from '../accounts/policy.ts';
import { type AuditActor, auditActor, recordAudit } from '../audit/service.ts';
import { insertToken, liveTokenByHash, lockToken, markRevoked, tokensOf, touchToken } from './repository.ts';

/*
 * SCIM tokens (issue 24 §3): an account's administrators issue and revoke them in the portal; the identity
 * provider sends one as the bearer of /scim/v2/{customerNumber}. Only a SHA-256 hash is stored, as for personal
 * API tokens and license-server credentials.
 */

const PREFIX = 'scim_';
const tokenObject = (id: string) => ({ type: 'scim-token', id });

/** The SCIM base path of an account, as the identity provider is given it. */
export const scimEndpointOf = (customerNumber: string) => `/scim/v2/${encodeURIComponent(customerNumber)}`;

type TokenRow = Awaited<ReturnType<typeof tokensOf>>[number];
const present = (row: TokenRow): ScimTokenRow => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  createdBy: row.createdBy,
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  revokedAt: row.revokedAt?.toISOString() ?? null,
});

export async function listScimTokens(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string },
): Promise<ScimTokenRow[]> {
  await authorizeAccount(ctx, principal, request.customerNumber, 'read');
  return (await tokensOf(ctx.db, request.customerNumber)).map(present);
}

export async function issueScimToken(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; name: string },
) {
  const { customerNumber, name } = request;
  await authorizeAccount(ctx, principal, customerNumber, 'edit');
  const token = newBearerToken(PREFIX);
  return ctx.db.transaction(async (tx) => {
    const row = await insertToken(tx, {
      customerNumber,
      name,
      tokenHash: hashBearerToken(token),
      createdBy: principal.email,
    });
    await recordAudit(tx, auditActor(principal), [
      {
        customerNumber,
        action: 'scim.token.issued',
        object: tokenObject(row.id),
        after: { name, createdBy: principal.email },
      },
    ]);
    return { ...present(row), token, endpoint: scimEndpointOf(customerNumber) };
  });
}

/** Revokes a token of the account; one already revoked is answered as it is (and nothing is recorded). */
export async function revokeScimToken(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; id: string },
): Promise<ScimTokenRow> {
  const { customerNumber, id } = request;
  await authorizeAccount(ctx, principal, customerNumber, 'edit');
  return ctx.db.transaction(async (tx) => {
    const row = await lockToken(tx, customerNumber, id);
    if (!row) throw notFound('No SCIM token with this id in the account.');
    if (row.revokedAt) return present(row);
    const revoked = await markRevoked(tx, id);
    await recordAudit(tx, auditActor(principal), [
      {
        customerNumber,
        action: 'scim.token.revoked',
        object: tokenObject(id),
        before: { revokedAt: null },
        after: { revokedAt: revoked.revokedAt?.toISOString() ?? null },
      },
    ]);
    return present(revoked);
  });
}

/** Who provisions through a token: the audit's actor of what SCIM changes. */
export interface ScimCaller {
  customerNumber: string;
  actor: AuditActor;
}

/**
 * The caller of a SCIM request: a live token of exactly the account the URL names. A missing, unknown or revoked
 * token, or one of another account, is null alike (401: the caller learns nothing of the account).
 */
export async function authenticateScim(
  ctx: AppContext,
  customerNumber: string,
  authorization: string | undefined,
  origin: { requestId: string; clientIp: string | null },
): Promise<ScimCaller | null> {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (!token?.startsWith(PREFIX)) return null;
  const row = await liveTokenByHash(ctx.db, hashBearerToken(token));
  if (!row || row.customerNumber !== customerNumber) return null;
  await touchToken(ctx.db, row.id, new Date());
  return {
    customerNumber,
    // The token's kind in the log is an API token's: a bearer credential acting for the account.
    actor: {
      kind: 'api-token',
      id: row.id,
      name: `SCIM token "${row.name}"`,
      requestId: origin.requestId,
      clientIp: origin.clientIp,
    },
  };
}
