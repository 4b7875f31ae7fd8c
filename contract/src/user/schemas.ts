import { z } from 'zod';

/** Vendor-staff roles come from the IdP; customer users carry the plain role 'user'. */
export const userRoles = ['user', 'admin', 'busops', 'support', 'sales', 'salesaccess'] as const;
export type UserRole = (typeof userRoles)[number];

export const currentUserSchema = z.object({
  email: z.string(),
  name: z.string(),
  roles: z.array(z.enum(userRoles)),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const userDetailsResponseSchema = z.object({ status: z.literal('SUCCESS'), data: currentUserSchema });
