import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProviderIdentity } from './claims.ts';
import { decideSignIn, type KnownUser } from './sign-in-identity.ts';

/* Decision 042: which provider sign-ins land on which portal user. */

const ISS = 'https://idp.example.com';
const identity = (over: Partial<ProviderIdentity> = {}): ProviderIdentity => ({
  subject: 'sub-1',
  email: 'jo@acme.example',
  emailVerified: true,
  name: 'Jo',
  vendorRoles: [],
  ...over,
});
const user = (over: Partial<KnownUser> = {}): KnownUser => ({
  id: 'u1',
  email: 'jo@acme.example',
  idpIssuer: null,
  idpSubject: null,
  disabled: false,
  ...over,
});
const strict = { acceptMissingEmailVerified: false };

describe('decideSignIn', () => {
  it('binds a new or unbound user on a verified e-mail, and names them', () => {
    expect(decideSignIn(identity(), ISS, strict, null, null)).toEqual({
      ok: true,
      userId: null,
      bind: true,
      updateName: true,
    });
    expect(decideSignIn(identity(), ISS, strict, user(), null)).toEqual({
      ok: true,
      userId: 'u1',
      bind: true,
      updateName: true,
    });
    const bound = user({ idpIssuer: ISS, idpSubject: 'sub-1' });
    expect(decideSignIn(identity(), ISS, strict, bound, bound)).toEqual({
      ok: true,
      userId: 'u1',
      bind: false,
      updateName: true,
    });
  });

  it('refuses an unverified e-mail, and a missing claim unless the operator opted in', () => {
    expect(decideSignIn(identity({ emailVerified: false }), ISS, strict, user(), null)).toEqual({
      ok: false,
      reason: 'email-unverified',
    });
    expect(decideSignIn(identity({ emailVerified: undefined }), ISS, strict, user(), null)).toEqual({
      ok: false,
      reason: 'email-unverified',
    });
    // Opted in: the sign-in goes through, but the provider's name is not taken for an existing user.
    expect(
      decideSignIn(
        identity({ emailVerified: undefined }),
        ISS,
        { acceptMissingEmailVerified: true },
        user(),
        null,
      ),
    ).toEqual({ ok: true, userId: 'u1', bind: true, updateName: false });
    expect(
      decideSignIn(
        identity({ emailVerified: false }),
        ISS,
        { acceptMissingEmailVerified: true },
        user(),
        null,
      ),
    ).toEqual({ ok: false, reason: 'email-unverified' });
  });

  it('refuses a different subject or issuer for a bound user, and a subject bound to another e-mail', () => {
    const bound = user({ idpIssuer: ISS, idpSubject: 'sub-1' });
    expect(decideSignIn(identity({ subject: 'sub-2' }), ISS, strict, bound, null)).toEqual({
      ok: false,
      reason: 'identity-mismatch',
    });
    expect(decideSignIn(identity(), 'https://other.example', strict, bound, null)).toEqual({
      ok: false,
      reason: 'identity-mismatch',
    });
    const other = user({ id: 'u2', email: 'old@acme.example', idpIssuer: ISS, idpSubject: 'sub-1' });
    expect(decideSignIn(identity(), ISS, strict, null, other)).toEqual({
      ok: false,
      reason: 'identity-mismatch',
    });
  });

  it('refuses a disabled user and a token without an e-mail', () => {
    expect(decideSignIn(identity(), ISS, strict, user({ disabled: true }), null)).toEqual({
      ok: false,
      reason: 'disabled',
    });
    expect(decideSignIn(identity({ email: undefined }), ISS, strict, null, null)).toEqual({
      ok: false,
      reason: 'no-email',
    });
  });

  it('never lands on a user bound to another identity, nor on an unverified address (property)', () => {
    const arbUser = fc.record({
      id: fc.constantFrom('u1', 'u2'),
      email: fc.constantFrom('jo@acme.example', 'old@acme.example'),
      idpIssuer: fc.constantFrom(null, ISS, 'https://other.example'),
      idpSubject: fc.constantFrom(null, 'sub-1', 'sub-2'),
      disabled: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.constantFrom('sub-1', 'sub-2'),
        fc.constantFrom(true, false, undefined),
        fc.boolean(),
        fc.option(arbUser, { nil: null }),
        fc.option(arbUser, { nil: null }),
        (subject, emailVerified, accept, byEmail, bySubject) => {
          const d = decideSignIn(
            identity({ subject, emailVerified }),
            ISS,
            { acceptMissingEmailVerified: accept },
            byEmail,
            bySubject,
          );
          if (!d.ok) return;
          expect(emailVerified === true || (emailVerified === undefined && accept)).toBe(true);
          expect(d.userId).toBe(byEmail?.id ?? null);
          if (byEmail?.idpSubject != null)
            expect([byEmail.idpIssuer, byEmail.idpSubject]).toEqual([ISS, subject]);
          if (bySubject) expect(bySubject.id).toBe(byEmail?.id);
          expect(byEmail?.disabled ?? false).toBe(false);
        },
      ),
    );
  });
});
