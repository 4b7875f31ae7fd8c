import { z } from 'zod';
import { defineOperation } from '../common/operation.ts';
import { logoutResponseSchema, sessionResponseSchema } from './schemas.ts';

export const authApi = {
  login: defineOperation({
    operationId: 'signIn',
    method: 'get',
    path: '/api/auth/login',
    summary: 'Starts the OpenID Connect sign-in (redirect to the IdP)',
    description:
      'Starts the authorization code flow with PKCE at the identity provider and redirects the browser there; after sign-in the browser comes back to `returnTo` (a path of this portal; anything else goes to the start page). For browsers: API clients use a personal API token instead.',
    auth: 'public',
    effect: 'idempotent',
    // A return path that is too long or not a string is ignored (sign-in goes to the start page), not refused.
    query: z.looseObject({ returnTo: z.string().max(2000).optional().catch(undefined) }),
    produces: 'redirect',
  }),
  callback: defineOperation({
    operationId: 'signInCallback',
    method: 'get',
    path: '/api/auth/callback',
    summary: 'OpenID Connect redirect target (redirect back into the app)',
    description:
      "Where the identity provider sends the browser back: the server redeems the code, checks the verified e-mail and the user's binding to the provider, opens a session (HttpOnly cookie) and redirects into the app; a refused sign-in redirects to the sign-in failed page.",
    auth: 'public',
    effect: 'once',
    // Whatever the IdP sends back; a bad state ends in the sign-in failed page, never in a 400.
    query: z.looseObject({ state: z.string().max(2000).optional().catch(undefined) }),
    produces: 'redirect',
  }),
  autoSubmitScript: defineOperation({
    operationId: 'getSignInAutoSubmitScript',
    method: 'get',
    path: '/api/auth/auto-submit.js',
    summary: "The built-in provider's form auto-submit script (CSP forbids inline scripts)",
    description:
      "The small script the built-in provider's pages load to submit their forms (the CSP forbids inline scripts).",
    auth: 'public',
    effect: 'read',
    produces: 'text/javascript',
  }),
  logout: defineOperation({
    operationId: 'signOut',
    method: 'post',
    path: '/api/auth/logout',
    summary: 'Ends the session; answers the IdP sign-out URL',
    description:
      "Deletes the session and its cookie; the answer names the identity provider's sign-out URL for the browser to visit. Without a session it still succeeds.",
    auth: 'public',
    effect: 'idempotent',
    response: logoutResponseSchema,
  }),
  session: defineOperation({
    operationId: 'getSession',
    method: 'get',
    path: '/api/auth/session',
    summary: 'Who is signed in (401 when nobody)',
    description:
      'The signed-in user (session cookie or API token) and their vendor roles; 401 when nobody is signed in, which is how the web app learns it must sign in.',
    auth: 'public',
    effect: 'read',
    statuses: {
      401: 'Nobody is signed in.',
    },
    response: sessionResponseSchema,
  }),
} as const;
