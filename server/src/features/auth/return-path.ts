/** Longest return path kept; the login query caps it at the same length. */
const maxLength = 2000;

/** One '/' then neither a slash nor a backslash, also not percent-encoded (in case a later hop decodes once). */
const singleLeadingSlash = /^\/(?![/\\]|%2f|%5c)/i;

/**
 * The post-sign-in return path: `value` when it is a path on `base`'s own origin, else '/'.
 *
 * The check runs on the parser's resolved form, not on the raw text: dot segments and encoded dots
 * (`/./%2e%2e//evil.example`, `/%2e/%2fevil`, `/.//evil`) and backslashes (`/\evil`) resolve to a
 * pathname that starts with `//`, which a browser reads as another host. So the value is resolved
 * against `base` with the WHATWG parser (the browser's), must stay on base's origin, and the resolved
 * path+query+hash — what is returned and later sent as Location — must start with exactly one '/'
 * (`/%2fevil` is refused too, in case anything downstream decodes it once).
 */
export function safeReturnPath(value: unknown, base: string): string {
  if (typeof value !== 'string' || value.length > maxLength || !value.startsWith('/')) return '/';
  const origin = new URL(base).origin;
  let resolved: URL;
  try {
    resolved = new URL(value, origin);
  } catch {
    return '/';
  }
  if (resolved.origin !== origin) return '/';
  const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  return singleLeadingSlash.test(path) && path.length <= maxLength ? path : '/';
}
