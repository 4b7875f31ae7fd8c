import type { ProviderIdentity } from './claims.ts';

/** Why a sign-in the provider completed is still refused by the portal (the `reason` of /?signin=failed&reason=). */
export type IdentityRefusal = 'no-email' | 'email-unverified' | 'identity-mismatch' | 'disabled';

/** The portal user a sign-in could land on: the one with that e-mail, and the one bound to that subject. */
export interface KnownUser {
  id: string;
  email: string;
  idpIssuer: string | null;
  idpSubject: string | null;
  disabled: boolean;
}

export type SignInDecision =
  | { ok: true; userId: string | null; bind: boolean; updateName: boolean }
  | { ok: false; reason: IdentityRefusal };

/**
 * Decision 042, pure so it is property-tested: a provider's sign-in lands on the user with its e-mail only when the
 * e-mail is verified (or, by the operator's choice, the claim is absent) and the user is not bound to another
 * (issuer, subject); the first sign-in binds. A subject already bound to another e-mail is refused too (the
 * provider's account changed address: an operator re-links). Names are taken from the provider only for a verified
 * address; a new user takes the name it is given.
 */
export function decideSignIn(
  identity: ProviderIdentity,
  issuer: string,
  options: { acceptMissingEmailVerified: boolean },
  byEmail: KnownUser | null,
  bySubject: KnownUser | null,
): SignInDecision {
  if (!identity.email) return { ok: false, reason: 'no-email' };
  const verified =
    identity.emailVerified === true ||
    (identity.emailVerified === undefined && options.acceptMissingEmailVerified);
  if (!verified) return { ok: false, reason: 'email-unverified' };
  if (bySubject && bySubject.id !== byEmail?.id) return { ok: false, reason: 'identity-mismatch' };
  if (
    byEmail?.idpSubject != null &&
    (byEmail.idpIssuer !== issuer || byEmail.idpSubject !== identity.subject)
  )
    return { ok: false, reason: 'identity-mismatch' };
  if (byEmail?.disabled) return { ok: false, reason: 'disabled' };
  return {
    ok: true,
    userId: byEmail?.id ?? null,
    bind: byEmail?.idpSubject == null,
    updateName: !byEmail || identity.emailVerified === true,
  };
}
