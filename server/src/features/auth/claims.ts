import type { VendorRole } from '@lp/contract/user/schemas';
import { toVendorRoles } from './sessions.ts';

type Claims = Record<string, unknown>;

/** IdPs send roles as a JSON array (Entra, Keycloak mappers) or as one space- or comma-separated string. */
export function parseRolesClaim(value: unknown): string[] {
  if (Array.isArray(value))
    return value.filter((v): v is string => typeof v === 'string').map((v) => v.trim());
  if (typeof value === 'string') return value.split(/[\s,]+/).filter(Boolean);
  return [];
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** Who the provider says signed in: its subject, the e-mail and whether it verified it, name and vendor roles. */
export interface ProviderIdentity {
  subject: string;
  /** Lower-cased; only ever from the `email` claim */
  email: string | undefined;
  /** The `email_verified` claim: true, false, or undefined when the provider did not send it */
  emailVerified: boolean | undefined;
  name: string | undefined;
  vendorRoles: VendorRole[];
}

/**
 * Reads the ID-token (and userinfo) claims. The e-mail comes from `email` only: `preferred_username` and `upn` are
 * names the user or a tenant may choose, not addresses the provider vouches for (issue 20 §1, decision 042).
 * `email_verified` counts only as a boolean (some providers send the string "true"; that is taken as true).
 */
export function identityFromClaims(claims: Claims, rolesClaim: string): ProviderIdentity | null {
  const subject = str(claims.sub);
  if (!subject) return null;
  const email = str(claims.email);
  const verified = claims.email_verified;
  const given = [str(claims.given_name), str(claims.family_name)].filter(Boolean).join(' ');
  return {
    subject,
    email: email?.includes('@') ? email.toLowerCase() : undefined,
    emailVerified:
      verified === true || verified === 'true' ? true : verified === undefined ? undefined : false,
    name: str(claims.name) ?? (given || undefined),
    vendorRoles: toVendorRoles(parseRolesClaim(claims[rolesClaim])),
  };
}
