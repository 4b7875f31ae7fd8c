import { toVendorRoles } from './sessions.ts';
import type { SignedInUser } from './users.ts';

type Claims = Record<string, unknown>;

/** IdPs send roles as a JSON array (Entra, Keycloak mappers) or as one space- or comma-separated string. */
export function parseRolesClaim(value: unknown): string[] {
  if (Array.isArray(value))
    return value.filter((v): v is string => typeof v === 'string').map((v) => v.trim());
  if (typeof value === 'string') return value.split(/[\s,]+/).filter(Boolean);
  return [];
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/**
 * The portal user described by ID-token (and userinfo) claims, or null without a usable email.
 * Entra ID often omits `email` for work accounts, so an email-shaped preferred_username or upn counts.
 */
export function userFromClaims(claims: Claims, rolesClaim: string): SignedInUser | null {
  const email = [claims.email, claims.preferred_username, claims.upn].map(str).find((v) => v?.includes('@'));
  if (!email) return null;
  const given = [str(claims.given_name), str(claims.family_name)].filter(Boolean).join(' ');
  const name = str(claims.name) ?? (given || email);
  return {
    email: email.toLowerCase(),
    name,
    vendorRoles: toVendorRoles(parseRolesClaim(claims[rolesClaim])),
  };
}
