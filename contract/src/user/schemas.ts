import { z } from 'zod';
import { successOf } from '../common/envelope.ts';

/** Vendor-staff roles come from the IdP (declared once; the server keeps only these from a token's claims). */
export const vendorRoles = ['busops', 'support', 'sales', 'salesaccess', 'admin'] as const;
export type VendorRole = (typeof vendorRoles)[number];

/** Customer users carry the plain role 'user'. */
export const userRoles = ['user', ...vendorRoles] as const;
export type UserRole = (typeof userRoles)[number];

export const currentUserSchema = z.object({
  email: z.string(),
  name: z.string(),
  roles: z.array(z.enum(userRoles)),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const userDetailsResponseSchema = successOf(currentUserSchema);
