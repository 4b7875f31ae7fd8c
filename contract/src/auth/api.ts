import { z } from 'zod';
import { defineOperation } from '../common/operation.ts';
import { logoutResponseSchema, sessionResponseSchema } from './schemas.ts';

export const authApi = {
  login: defineOperation({
    operationId: 'signIn',
    method: 'get',
    path: '/api/auth/login',
    summary: 'Starts the OpenID Connect sign-in (redirect to the IdP)',
    auth: 'public',
    // A return path that is too long or not a string is ignored (sign-in goes to the start page), not refused.
    query: z.looseObject({ returnTo: z.string().max(2000).optional().catch(undefined) }),
    produces: 'redirect',
  }),
  callback: defineOperation({
    operationId: 'signInCallback',
    method: 'get',
    path: '/api/auth/callback',
    summary: 'OpenID Connect redirect target (redirect back into the app)',
    auth: 'public',
    // Whatever the IdP sends back; a bad state ends in the sign-in failed page, never in a 400.
    query: z.looseObject({ state: z.string().max(2000).optional().catch(undefined) }),
    produces: 'redirect',
  }),
  autoSubmitScript: defineOperation({
    operationId: 'getSignInAutoSubmitScript',
    method: 'get',
    path: '/api/auth/auto-submit.js',
    summary: "The built-in provider's form auto-submit script (CSP forbids inline scripts)",
    auth: 'public',
    produces: 'text/javascript',
  }),
  logout: defineOperation({
    operationId: 'signOut',
    method: 'post',
    path: '/api/auth/logout',
    summary: 'Ends the session; answers the IdP sign-out URL',
    auth: 'public',
    response: logoutResponseSchema,
  }),
  session: defineOperation({
    operationId: 'getSession',
    method: 'get',
    path: '/api/auth/session',
    summary: 'Who is signed in (401 when nobody)',
    auth: 'public',
    response: sessionResponseSchema,
  }),
} as const;
