import type { IncomingMessage } from 'node:http';
import { asc, count, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { idpAccounts } from '../../../db/schema.ts';
import { loadConfig } from '../../../platform/config.ts';
import type { AppContext } from '../../../platform/context.ts';
import { AppError } from '../../../platform/errors.ts';
import { verifyPassword } from '../password.ts';
import { sessionCookieName } from '../sessions.ts';
import { auditSignInFailure } from '../sign-in-audit.ts';
import { formRateLimit } from './form-rate-limit.ts';
import {
  addressLockedOutMessage,
  type LoginPageOptions,
  lockedOutMessage,
  loginPage,
  messagePage,
  tooManyAttemptsMessage,
  wrongCredentialsMessage,
} from './pages.ts';
import { type BuiltInIdp, builtInIssuerPath } from './provider.ts';
import {
  recordSignInFailure,
  recordSignInSuccess,
  type SignInLimits,
  type SignInRefusal,
  signInKeys,
  signInRefusal,
} from './sign-in-throttle.ts';

const demoUsersShown = 100;

/** Compared against when the email is unknown, so both failures take as long (no account probing). */
const dummyHash = 'scrypt$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

const defaultDemoPassword = (() => {
  try {
    return loadConfig({}).DEMO_PASSWORD;
  } catch {
    return undefined;
  }
})();

const loginBody = z.object({
  email: z.string().max(320).default(''),
  password: z.string().max(1024).default(''),
});

/**
 * Mounts the built-in IdP under /oidc in this Fastify server: our own routes render the interaction
 * (login) pages, and a catch-all hands every other /oidc request to oidc-provider's Koa app.
 */
export async function mountBuiltInIdp(app: FastifyInstance, ctx: AppContext, idp: BuiltInIdp): Promise<void> {
  const { provider } = idp;
  const callback = provider.callback();
  const publicUrl = new URL(ctx.config.publicUrl);
  const throttle: SignInLimits = {
    accountMaxFailures: ctx.config.LOGIN_ACCOUNT_MAX_FAILURES,
    accountWindowMinutes: ctx.config.LOGIN_ACCOUNT_LOCKOUT_MINUTES,
    addressMaxFailures: ctx.config.LOGIN_ADDRESS_MAX_FAILURES,
    addressMaxLockMinutes: ctx.config.LOGIN_ADDRESS_MAX_LOCK_MINUTES,
  };

  await app.register(async (oidc) => {
    // oidc-provider reads request bodies itself: leave the stream untouched for every content type.
    oidc.removeAllContentTypeParsers();
    oidc.addContentTypeParser('*', (_request, _payload, done) => done(null));
    oidc.all(`${builtInIssuerPath}/*`, (request, reply) => {
      reply.hijack();
      const raw = request.raw as IncomingMessage & { originalUrl?: string };
      // oidc-provider routes on the path below its mount point and derives the mount point from
      // originalUrl, like Express's app.use('/oidc', provider.callback()).
      raw.originalUrl = raw.url;
      raw.url = (raw.url ?? '/').slice(builtInIssuerPath.length) || '/';
      // oidc-provider (Koa, proxy on) builds its endpoint URLs and cookie security from these headers:
      // they always name PUBLIC_URL, whatever the client or a proxy sent, and the client address is
      // the one Fastify settled on under TRUST_PROXY.
      raw.headers['x-forwarded-host'] = publicUrl.host;
      raw.headers['x-forwarded-proto'] = publicUrl.protocol.slice(0, -1);
      raw.headers['x-forwarded-for'] = request.ip;
      callback(raw, reply.raw);
    });
  });

  await app.register(async (pages) => {
    pages.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16_384 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    pages.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
      const status = error instanceof AppError ? error.httpStatus : (error.statusCode ?? 500);
      if (status === 429) {
        return sendHtml(reply, 429, messagePage('Licensing Portal', tooManyAttemptsMessage));
      }
      if (status >= 500) request.log.error({ err: error }, 'sign-in page failed');
      else request.log.info({ err: error }, 'sign-in page rejected a request');
      return sendHtml(
        reply,
        status,
        messagePage('Sign-in problem', 'This sign-in request is no longer valid.', {
          href: '/api/auth/login',
          text: 'Start again',
        }),
      );
    });

    const renderLogin = async (
      reply: FastifyReply,
      uid: string,
      extra: Partial<LoginPageOptions> = {},
      status = 200,
    ) => {
      const options: LoginPageOptions = { action: `${builtInIssuerPath}/interaction/${uid}/login`, ...extra };
      if (!ctx.config.production) options.demo = await demoUsers(ctx);
      return sendHtml(reply, status, loginPage(options));
    };

    pages.get<{ Params: { uid: string } }>(
      `${builtInIssuerPath}/interaction/:uid`,
      async (request, reply) => {
        const details = await interactionOrExpired(idp, request.raw, reply, request.params.uid, {
          signedIn: !!request.cookies[sessionCookieName],
        });
        if (!details) return reply;
        if (details.prompt.name === 'login') return renderLogin(reply, details.uid);
        if (details.prompt.name === 'consent') {
          // The portal is our own first-party client: consent is implied, never asked.
          const grantId = await grantEverythingAsked(idp, details);
          const returnTo = await provider.interactionResult(request.raw, reply.raw, { consent: { grantId } });
          return reply.redirect(returnTo, 303);
        }
        request.log.warn({ prompt: details.prompt.name }, 'unsupported interaction prompt');
        const returnTo = await provider.interactionResult(request.raw, reply.raw, {
          error: 'access_denied',
          error_description: 'Unsupported interaction',
        });
        return reply.redirect(returnTo, 303);
      },
    );

    pages.post<{ Params: { uid: string } }>(
      `${builtInIssuerPath}/interaction/:uid/login`,
      formRateLimit(ctx),
      async (request, reply) => {
        const details = await interactionOrExpired(idp, request.raw, reply, request.params.uid);
        if (!details) return reply;
        if (details.prompt.name !== 'login') return reply.redirect(details.returnTo, 303);
        const parsed = loginBody.safeParse(request.body ?? {});
        const email = parsed.success ? parsed.data.email.trim().toLowerCase() : '';
        const password = parsed.success ? parsed.data.password : '';
        // Decision 017 (revised): limits per e-mail and client address, and a ceiling per e-mail that refuses
        // only addresses the user never signed in from. Known and unknown e-mails take the same steps, so
        // neither the text nor the time taken tells whether an account exists. A refused address is refused
        // before any lookup, even with the right password.
        const keys = signInKeys(ctx.secret, email, request.ip);
        const lockedOut = (refusal: SignInRefusal) =>
          renderLogin(
            reply,
            details.uid,
            {
              email,
              error:
                refusal.scope === 'address'
                  ? addressLockedOutMessage(refusal.minutes)
                  : lockedOutMessage(refusal.minutes),
            },
            429,
          );
        const refusal = email ? await signInRefusal(ctx.db, keys, throttle) : null;
        if (refusal) {
          request.log.info(
            { email, lock: refusal.scope },
            'built-in IdP: sign-in refused after failed sign-ins',
          );
          await ctx.db.transaction((tx) =>
            auditSignInFailure(tx, request, email, { reason: 'locked', lock: refusal.scope }),
          );
          return lockedOut(refusal);
        }
        const [account] = email
          ? await ctx.db.select().from(idpAccounts).where(eq(idpAccounts.email, email))
          : [];
        const ok = await verifyPassword(password, account?.passwordHash ?? dummyHash);
        if (!account || !ok || !password) {
          request.log.info({ email }, 'built-in IdP: wrong email or password');
          // The same reason for known and unknown addresses, like the page (decision 017).
          const next =
            email &&
            (await ctx.db.transaction(async (tx) => {
              const locked = await recordSignInFailure(tx, keys, throttle);
              await auditSignInFailure(tx, request, email, {
                reason: 'wrong-credentials',
                ...(locked ? { locked: true, lock: locked.scope } : {}),
              });
              return locked;
            }));
          if (next) return lockedOut(next);
          return renderLogin(reply, details.uid, { email, error: wrongCredentialsMessage });
        }
        await recordSignInSuccess(ctx.db, keys);
        const returnTo = await provider.interactionResult(
          request.raw,
          reply.raw,
          { login: { accountId: account.id } },
          { mergeWithLastSubmission: false },
        );
        return reply.redirect(returnTo, 303);
      },
    );
  });
}

type Interaction = Awaited<ReturnType<BuiltInIdp['provider']['interactionDetails']>>;

/** The pending interaction named by the cookie, or null after answering with an "expired" page. */
async function interactionOrExpired(
  idp: BuiltInIdp,
  raw: IncomingMessage,
  reply: FastifyReply,
  uid: string,
  { signedIn = false } = {},
): Promise<Interaction | null> {
  try {
    const details = await idp.provider.interactionDetails(raw, reply.raw);
    if (details.uid === uid) return details;
  } catch {
    // No or expired interaction cookie: handled below.
  }
  // Back after a completed sign-in lands here again (issue 21): a browser that holds a session goes on into the
  // portal (which sends it to sign-in if that session has ended) rather than to "Sign-in expired".
  if (signedIn) {
    reply.header('cache-control', 'no-store').redirect('/', 303);
    return null;
  }
  sendHtml(
    reply,
    400,
    messagePage('Sign-in expired', 'This sign-in page has expired or was opened in another browser.', {
      href: '/api/auth/login',
      text: 'Start again',
    }),
  );
  return null;
}

async function grantEverythingAsked(idp: BuiltInIdp, details: Interaction): Promise<string> {
  const { provider } = idp;
  const accountId = details.session?.accountId;
  const clientId = String(details.params.client_id);
  const grant =
    (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ??
    new provider.Grant({ accountId, clientId });
  const asked = details.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (asked.missingOIDCScope) grant.addOIDCScope(asked.missingOIDCScope.join(' '));
  if (asked.missingOIDCClaims) grant.addOIDCClaims(asked.missingOIDCClaims);
  for (const [resource, scopes] of Object.entries(asked.missingResourceScopes ?? {})) {
    grant.addResourceScope(resource, scopes.join(' '));
  }
  return grant.save();
}

async function demoUsers(ctx: AppContext): Promise<NonNullable<LoginPageOptions['demo']>> {
  const [users, [{ total }]] = await Promise.all([
    ctx.db
      .select({ email: idpAccounts.email, name: idpAccounts.name, roles: idpAccounts.roles })
      .from(idpAccounts)
      .orderBy(desc(sql`cardinality(${idpAccounts.roles})`), asc(idpAccounts.email))
      .limit(demoUsersShown),
    ctx.db.select({ total: count() }).from(idpAccounts),
  ]);
  const password = ctx.config.DEMO_PASSWORD === defaultDemoPassword ? ctx.config.DEMO_PASSWORD : null;
  return { users, total, password };
}

function sendHtml(reply: FastifyReply, status: number, html: string) {
  return reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
}
