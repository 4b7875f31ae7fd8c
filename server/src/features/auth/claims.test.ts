import { describe, expect, it } from 'vitest';
import { identityFromClaims, parseRolesClaim } from './claims.ts';

describe('roles claim', () => {
  it('accepts an array or a space/comma separated string', () => {
    expect(parseRolesClaim(['support', ' sales ', 3])).toEqual(['support', 'sales']);
    expect(parseRolesClaim('busops sales,admin , support')).toEqual(['busops', 'sales', 'admin', 'support']);
    expect(parseRolesClaim(undefined)).toEqual([]);
    expect(parseRolesClaim({ roles: 'admin' })).toEqual([]);
  });

  it('keeps only the known vendor roles, in a stable order', () => {
    const identity = identityFromClaims(
      { sub: 's1', email: 'A@B.example', email_verified: true, name: 'A', groups: 'admin,guest support' },
      'groups',
    );
    expect(identity).toEqual({
      subject: 's1',
      email: 'a@b.example',
      emailVerified: true,
      name: 'A',
      vendorRoles: ['support', 'admin'],
    });
  });
});

describe('identity from claims', () => {
  it('never takes preferred_username or upn as the e-mail (issue 20 §1)', () => {
    const identity = identityFromClaims(
      {
        sub: 'x',
        preferred_username: 'Jo@Corp.example',
        upn: 'jo@corp.example',
        given_name: 'Jo',
        family_name: 'Doe',
      },
      'roles',
    );
    expect(identity).toMatchObject({ email: undefined, name: 'Jo Doe' });
  });

  it('reads email_verified as true, false or absent', () => {
    const verified = (claims: Record<string, unknown>) =>
      identityFromClaims({ sub: 'x', email: 'a@b.example', ...claims }, 'roles')?.emailVerified;
    expect(verified({ email_verified: true })).toBe(true);
    expect(verified({ email_verified: 'true' })).toBe(true);
    expect(verified({ email_verified: false })).toBe(false);
    expect(verified({ email_verified: 'yes' })).toBe(false);
    expect(verified({})).toBeUndefined();
  });

  it('needs a subject', () => {
    expect(identityFromClaims({ email: 'a@b.example', email_verified: true }, 'roles')).toBeNull();
  });
});
