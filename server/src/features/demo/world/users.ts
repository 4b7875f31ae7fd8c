import type { WorldContext } from './context.ts';
import type { DemoUser } from './types.ts';

/** Vendor staff, one per vendor role, so each role's view of the portal can be tried. */
export const vendorStaff = [
  { email: 'busops@demo.example', name: 'Brenda Okafor', vendorRoles: ['busops'] },
  { email: 'support@demo.example', name: 'Sven Lindqvist', vendorRoles: ['support'] },
  { email: 'sales@demo.example', name: 'Carla Mendes', vendorRoles: ['sales'] },
  { email: 'salesaccess@demo.example', name: 'Tom Becker', vendorRoles: ['salesaccess'] },
  { email: 'admin@demo.example', name: 'Avery Stone', vendorRoles: ['admin'] },
];

/** Customer users who can sign in; their per-account roles are set by the designed accounts (designed-accounts.ts). */
export const customerUsers = [
  { email: 'admin@acme.example', name: 'Alex Morgan' },
  { email: 'engineer@acme.example', name: 'Sam Lee' },
  { email: 'coordinator@acme.example', name: 'Dana Whitfield' },
  { email: 'newhire@acme.example', name: 'Riley Chen' },
  { email: 'admin@northwind.example', name: 'Morgan Blake' },
  { email: 'viewer@contoso.example', name: 'Kai Andersen' },
  { email: 'licensing@fabrikam.example', name: 'Hiro Yamamoto' },
  { email: 'cad@tailspin.example', name: 'Pat Quinn' },
  { email: 'ops@litware.example', name: 'Noor Haddad' },
  { email: 'jamie.rivera@proseware.example', name: 'Jamie Rivera (External)' },
];

/** Everyone who can sign in, staff first; the ids are the first draws of the world's random stream. */
export function buildUsers(ctx: WorldContext): DemoUser[] {
  return [...vendorStaff, ...customerUsers.map((u) => ({ ...u, vendorRoles: [] as string[] }))].map((u) => ({
    id: ctx.rng.uuid(),
    ...u,
  }));
}
