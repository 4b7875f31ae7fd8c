import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.ts';
import { type AuditActor, recordAudit } from '../audit/service.ts';

/** Names the actor and the object of a failed sign-in whose e-mail is not known (the IdP never said). */
export const UNKNOWN_EMAIL = '(unknown)';

/** Sign-ins come before any principal: the actor is the e-mail signing in, with the request's id and address. */
function signInActor(request: FastifyRequest, email: string, userId: string | null): AuditActor {
  return { kind: 'user', id: userId, name: email, requestId: request.id, clientIp: request.ip };
}

/** A user signed in (a session was opened): vendor-wide, in the transaction that opened the session. */
export async function auditSignIn(tx: Db, request: FastifyRequest, user: { id: string; email: string }) {
  await recordAudit(tx, signInActor(request, user.email, user.id), [
    {
      customerNumber: null,
      action: 'auth.sign-in.succeeded',
      object: { type: 'user', id: user.email },
    },
  ]);
}

/**
 * A failed sign-in: `email` as typed (lower-cased) or null when unknown, `why` a short reason code (never a
 * password). In the caller's transaction when the failure also changes something (the throttle's counter).
 */
export async function auditSignInFailure(
  tx: Db,
  request: FastifyRequest,
  email: string | null,
  why: Record<string, unknown>,
) {
  const name = email ?? UNKNOWN_EMAIL;
  await recordAudit(tx, signInActor(request, name, null), [
    {
      customerNumber: null,
      action: 'auth.sign-in.failed',
      object: { type: 'user', id: name },
      after: why,
    },
  ]);
}
