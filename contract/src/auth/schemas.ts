import { z } from 'zod';
import { successOf } from '../common/envelope.ts';

/**
 * Header every cookie-authenticated write must carry. Browsers only attach custom headers to
 * same-origin requests (a cross-site one needs a CORS preflight that we never grant), so its
 * presence proves the request came from our own web app.
 */
export const csrfHeader = 'x-lp-csrf';

/**
 * A cookie scripts may read, set and cleared with the (HttpOnly) session cookie: it tells the web app whether a
 * session may exist, so a browser that never signed in goes straight to sign-in instead of asking who is signed in
 * and getting a 401 (issue 21: no console error the user did not cause). It grants nothing: the server decides.
 */
export const signedInHintCookie = 'lp_signed_in';

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
