import { describe, expect, it } from 'vitest';
import { parseRolesClaim, userFromClaims } from './claims.ts';

describe('roles claim', () => {
  it('accepts an array or a space/comma separated string', () => {
    expect(parseRolesClaim(['support', ' sales ', 3])).toEqual(['support', 'sales']);
    expect(parseRolesClaim('busops sales,admin , support')).toEqual(['busops', 'sales', 'admin', 'support']);
    expect(parseRolesClaim(undefined)).toEqual([]);
    expect(parseRolesClaim({ roles: 'admin' })).toEqual([]);
  });

  it('keeps only the known vendor roles, in a stable order', () => {
    const user = userFromClaims({ email: 'A@B.example', name: 'A', groups: 'admin,guest support' }, 'groups');
    expect(user).toEqual({ email: 'a@b.example', name: 'A', vendorRoles: ['support', 'admin'] });
  });
});

describe('user from claims', () => {
  it('falls back to an email-shaped preferred_username and to given/family names', () => {
    expect(
      userFromClaims(
        { preferred_username: 'Jo@Corp.example', given_name: 'Jo', family_name: 'Doe' },
        'roles',
      ),
    ).toEqual({ email: 'jo@corp.example', name: 'Jo Doe', vendorRoles: [] });
  });

  it('refuses claims without any email', () => {
    expect(userFromClaims({ sub: 'x', preferred_username: 'jo' }, 'roles')).toBeNull();
  });
});
