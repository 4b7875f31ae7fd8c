import type { Principal } from '../src/platform/principal.ts';

/**
 * A signed-in user as the account gate sees them, for a test that calls the policy directly (no session): a
 * session principal named by its e-mail, with its vendor roles (none for a customer user).
 */
export const principalOf = (email: string, vendorRoles: Principal['vendorRoles'] = []): Principal => ({
  userId: '00000000-0000-0000-0000-000000000000',
  email,
  name: email,
  vendorRoles,
  via: 'session',
});
