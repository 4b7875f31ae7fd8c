import { z } from 'zod';
import { successOf } from '../common/envelope.ts';

/**
 * Header every cookie-authenticated write must carry. Browsers only attach custom headers to
 * same-origin requests (a cross-site one needs a CORS preflight that we never grant), so its
 * presence proves the request came from our own web app.
 */
export const csrfHeader = 'x-lp-csrf';

/** Answer of POST /api/auth/logout: the browser navigates to `redirect` (IdP sign-out or '/'). */
export const logoutResponseSchema = successOf(z.object({ redirect: z.string() }));
export type LogoutResponse = z.infer<typeof logoutResponseSchema>;

/** Answer of GET /api/auth/session: who the current cookie or token belongs to. */
export const sessionResponseSchema = successOf(
  z.object({
    email: z.string(),
    name: z.string(),
    vendorRoles: z.array(z.string()),
    via: z.enum(['session', 'token']),
  }),
);
export type SessionResponse = z.infer<typeof sessionResponseSchema>;
