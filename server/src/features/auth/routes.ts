import { authApi } from '@lp/contract/auth/api';
import { csrfHeader, signedInHintCookie } from '@lp/contract/auth/schemas';
import { messages } from '@lp/contract/common/errors';
import { eq, lt } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import { loginStates } from '../../db/schema.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, unauthenticated } from '../../platform/errors.ts';
import type { Principal } from '../../platform/principal.ts';
import { WRITE_POSITION_COOKIE } from '../../platform/read-routing.ts';
import { requestOrigin } from '../../platform/request-origin.ts';
import { route, routeAuth } from '../../platform/route.ts';
import { principalForToken } from '../api-tokens/service.ts';
import { autoSubmitScript } from './built-in-idp/pages.ts';
import { builtInIssuer, createBuiltInIdp } from './built-in-idp/provider.ts';
import { mountBuiltInIdp } from './built-in-idp/routes.ts';
import { mountSetPasswordPages } from './built-in-idp/set-password.ts';
import { identityFromClaims, type ProviderIdentity } from './claims.ts';
import { RelyingParty } from './oidc-client.ts';
import { safeReturnPath } from './return-path.ts';
import {
  createSession,
  deleteSession,
  purgeExpiredSessions,
  resolveSession,
  type SessionTimeouts,
  sessionCookieName,
} from './sessions.ts';
import { auditSignIn, auditSignInFailure } from './sign-in-audit.ts';
import type { IdentityRefusal } from './sign-in-identity.ts';
import { builtInIssuerKey, signInUser } from './users.ts';

const loginStateTtlMs = 10 * 60_000;
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Sign-in for the whole server: resolves request.principal from the session cookie or a bearer
 * token, guards /api/*, serves /api/auth/{login,callback,logout,session} and, without an external
 * IdP, mounts the built-in OpenID provider under /oidc.
 */
export async function registerAuth(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { config, db } = ctx;
  const timeouts: SessionTimeouts = {
    idleMinutes: config.SESSION_IDLE_MINUTES,
    absoluteHours: config.SESSION_ABSOLUTE_HOURS,
  };
  const cookieOptions = {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: config.cookieSecure,
  };
  // The web app's hint (signedInHintCookie) lives and dies with the session cookie; scripts may read it.
  const hintOptions = { ...cookieOptions, httpOnly: false };
  const clearSessionCookies = (reply: FastifyReply) =>
    reply.clearCookie(sessionCookieName, cookieOptions).clearCookie(signedInHintCookie, hintOptions);

  let rp: RelyingParty;
  if (config.builtInIdp) {
    const idp = await createBuiltInIdp(ctx);
    await mountBuiltInIdp(app, ctx, idp);
    await mountSetPasswordPages(app, ctx);
    rp = new RelyingParty(config, {
      issuer: builtInIssuer(config.publicUrl),
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      viaLocalServer: app,
    });
  } else {
    rp = new RelyingParty(config, {
      issuer: config.OIDC_ISSUER!,
      clientId: config.OIDC_CLIENT_ID!,
      clientSecret: config.OIDC_CLIENT_SECRET!,
    });
  }

  app.decorateRequest('principal', null);

  async function principalOf(request: FastifyRequest, reply: FastifyReply): Promise<Principal | null> {
    const authorization = request.headers.authorization;
    if (authorization !== undefined) {
      // A bearer token is never combined with the cookie: a bad token means no principal.
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      return match ? await principalForToken(db, match[1], config.TOKEN_ROLES_MAX_AGE_HOURS) : null;
    }
    const sessionId = request.cookies[sessionCookieName];
    if (!sessionId) return null;
    const principal = await resolveSession(db, sessionId, timeouts);
    if (!principal) clearSessionCookies(reply);
    return principal;
  }

  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0];
    // oidc-provider requests carry no portal identity; license servers and identity providers (SCIM)
    // authenticate with their own credentials.
    if (path.startsWith('/oidc/') || path.startsWith('/cls/') || path.startsWith('/scim/')) return;
    const principal = await principalOf(request, reply);
    request.principal = principal && {
      ...principal,
      origin: requestOrigin(request),
      lastWrite: request.cookies[WRITE_POSITION_COOKIE],
    };
    const routeUrl = request.routeOptions.url ?? path;
    const isApi = path.startsWith('/api/') || routeUrl.startsWith('/api/');
    if (!isApi) return;
    // Declared public operations answer anybody; every other /api path (known or not) needs a principal.
    if (!request.principal && routeAuth(request) !== 'public') throw unauthenticated();
    // CSRF: the session cookie is SameSite=Lax, so browsers already omit it on cross-site POSTs
    // from other sites; Lax still sends it on top-level cross-site GET navigations, which is why
    // no GET changes state. As a second line (older browsers, same-site sibling domains), every
    // cookie-authenticated write must carry a custom header: a page on another origin cannot add
    // one without a CORS preflight, which this server never grants. Bearer-token requests are
    // exempt: browsers never attach that header on their own.
    if (request.principal?.via === 'session' && !safeMethods.has(request.method)) {
      if (request.headers[csrfHeader] !== '1') throw new AppError('FORBIDDEN', messages.csrf);
    }
  });

  route(
    app,
    ctx,
    authApi.autoSubmitScript,
  )(async ({ reply }) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(autoSubmitScript),
  );

  route(
    app,
    ctx,
    authApi.login,
  )(async ({ request, reply, query }) => {
    const returnTo = safeReturnPath(query.returnTo, config.publicUrl);
    const publicUrl = new URL(config.publicUrl);
    if (request.host !== publicUrl.host) {
      // The session cookie must be set on the public origin (where the IdP sends the browser back).
      return reply.redirect(`${config.publicUrl}/api/auth/login?${new URLSearchParams({ returnTo })}`, 302);
    }
    try {
      const checks = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
      };
      await db.delete(loginStates).where(lt(loginStates.expiresAt, new Date()));
      const url = await rp.authorizationUrl(checks);
      await db.insert(loginStates).values({
        state: checks.state,
        nonce: checks.nonce,
        codeVerifier: checks.codeVerifier,
        returnTo,
        expiresAt: new Date(Date.now() + loginStateTtlMs),
      });
      return reply.header('cache-control', 'no-store').redirect(url.href, 302);
    } catch (err) {
      request.log.error({ err }, 'sign-in could not start (IdP unreachable or misconfigured?)');
      return reply.redirect('/?signin=failed', 302);
    }
  });

  route(
    app,
    ctx,
    authApi.callback,
  )(async ({ request, reply, query }) => {
    const state = query.state ?? '';
    // `reason` is a fixed code for the audit log; `why` (free text, possibly the IdP's) only goes to the log.
    const failed = async (
      reason: Record<string, unknown>,
      why: string,
      err?: unknown,
      shown?: { email: string | null; refusal: IdentityRefusal },
    ) => {
      request.log.warn({ err, why }, 'sign-in failed');
      await db.transaction((tx) => auditSignInFailure(tx, request, shown?.email ?? null, reason));
      // The page names the refusal (a fixed code), never the provider's free text.
      const query = shown ? `&reason=${shown.refusal}` : '';
      return reply.header('cache-control', 'no-store').redirect(`/?signin=failed${query}`, 302);
    };
    // The state row is single-use: deleted before anything else can go wrong.
    const [pending] = state
      ? await db.delete(loginStates).where(eq(loginStates.state, state)).returning()
      : [];
    if (!pending) return failed({ reason: 'unknown-state' }, 'unknown or already used state');
    if (pending.expiresAt.getTime() <= Date.now())
      return failed({ reason: 'expired' }, 'sign-in took longer than 10 minutes');
    if (typeof query.error === 'string')
      return failed(
        { reason: 'idp-error', error: query.error.slice(0, 100) },
        `IdP answered ${query.error}: ${query.error_description ?? ''}`,
      );
    let signedIn: ProviderIdentity | null;
    let issuer: string;
    let idToken: string | undefined;
    try {
      const callbackUrl = new URL(`${rp.redirectUri}?${request.url.split('?')[1] ?? ''}`);
      const completed = await rp.completeSignIn(
        callbackUrl,
        { state: pending.state, nonce: pending.nonce, codeVerifier: pending.codeVerifier },
        config.OIDC_ROLES_CLAIM,
      );
      idToken = completed.idToken;
      const claims = completed.claims;
      signedIn = identityFromClaims(claims, config.OIDC_ROLES_CLAIM);
      issuer = config.builtInIdp ? builtInIssuerKey : String(claims.iss ?? config.OIDC_ISSUER);
    } catch (err) {
      return failed({ reason: 'invalid-response' }, 'code exchange or ID token validation failed', err);
    }
    const identity = signedIn;
    if (!identity) return failed({ reason: 'no-subject' }, 'the ID token has no subject');
    type Outcome = { refused: IdentityRefusal } | { userId: string; sessionId: string };
    const outcome = await db.transaction(async (tx): Promise<Outcome> => {
      const { decision, userId } = await signInUser(tx, issuer, identity, {
        acceptMissingEmailVerified: config.OIDC_ACCEPT_MISSING_EMAIL_VERIFIED,
      });
      if (!decision.ok || !userId) return { refused: decision.ok ? 'no-email' : decision.reason };
      // Signing in again from the same browser replaces its session rather than leaving the old one alive.
      const previous = request.cookies[sessionCookieName];
      if (previous) await deleteSession(tx, previous);
      const sessionId = await createSession(tx, userId, { idToken, absoluteHours: timeouts.absoluteHours });
      await auditSignIn(tx, request, { id: userId, email: identity.email! });
      return { userId, sessionId };
    });
    if ('refused' in outcome) {
      const { refused } = outcome;
      return failed(
        { reason: refused, issuer, subject: identity.subject, emailVerified: identity.emailVerified ?? null },
        `the portal refused the provider's sign-in: ${refused}`,
        undefined,
        { email: identity.email ?? null, refusal: refused },
      );
    }
    request.log.info({ userId: outcome.userId, vendorRoles: identity.vendorRoles }, 'signed in');
    return reply
      .setCookie(sessionCookieName, outcome.sessionId, cookieOptions)
      .setCookie(signedInHintCookie, '1', hintOptions)
      .header('cache-control', 'no-store')
      .redirect(safeReturnPath(pending.returnTo, config.publicUrl), 302);
  });

  route(
    app,
    ctx,
    authApi.logout,
  )(async ({ request, reply }) => {
    const sessionId = request.cookies[sessionCookieName];
    const ended = sessionId ? await deleteSession(db, sessionId) : null;
    clearSessionCookies(reply);
    let redirect = '/';
    if (ended) {
      try {
        redirect = (await rp.endSessionUrl(ended.idToken, `${config.publicUrl}/`)) ?? '/';
      } catch (err) {
        request.log.warn({ err }, 'IdP sign-out URL unavailable; signing out of the portal only');
      }
    }
    await purgeExpiredSessions(db, timeouts);
    return { data: { redirect } };
  });

  route(
    app,
    ctx,
    authApi.session,
  )(async ({ request }) => {
    const principal = request.principal;
    if (!principal) throw unauthenticated();
    const { email, name, vendorRoles, via } = principal;
    return { data: { email, name, vendorRoles, via } };
  });
}
