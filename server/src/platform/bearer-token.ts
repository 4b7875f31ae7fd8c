import { createHash, randomBytes } from 'node:crypto';

/**
 * Bearer secrets of the machine APIs (license-server credentials, web-license credentials, SCIM tokens). The prefix
 * names the kind, so a token of another kind is refused before any lookup; only the hash is stored, the token itself
 * is answered once.
 */
export const newBearerToken = (prefix: string) => prefix + randomBytes(32).toString('base64url');

export const hashBearerToken = (token: string) => createHash('sha256').update(token).digest('hex');
