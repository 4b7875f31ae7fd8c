import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import Provider, { type Configuration, type JWK } from 'oidc-provider';
import { idpAccounts } from '../../../db/schema.ts';
import type { AppContext } from '../../../platform/context.ts';
import { loadOrCreateSetting } from '../settings.ts';
import { DrizzleOidcAdapter } from './adapter.ts';
import { logoutPage, messagePage } from './pages.ts';

export const builtInClientId = 'licensing-portal';
export const builtInIssuerPath = '/oidc';
export const builtInIssuer = (publicUrl: string) => `${publicUrl}${builtInIssuerPath}`;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function newSigningKey(): JWK {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...(privateKey.export({ format: 'jwk' }) as JWK), kid: randomUUID(), alg: 'RS256', use: 'sig' };
}

/**
 * The built-in IdP's signing keys, cookie keys and client secret: read from app_settings, made there the first
 * time (an RSA key takes about 70 ms; the API tests' template database holds them made once per run).
 */
export function builtInIdpSecrets(db: AppContext['db']) {
  return Promise.all([
    loadOrCreateSetting(db, 'oidc-jwks', () => ({ keys: [newSigningKey()] })),
    loadOrCreateSetting(db, 'oidc-cookie-keys', () => [randomBytes(32).toString('base64url')]),
    loadOrCreateSetting(db, 'oidc-client-secret', () => randomBytes(32).toString('base64url')),
  ]);
}

export interface BuiltInIdp {
  provider: Provider;
  clientId: string;
  clientSecret: string;
}

/**
 * The default IdP: oidc-provider with its state in table oidc_store and its signing keys, cookie keys
 * and the portal's client secret in app_settings, so restarts and other API nodes share them.
 */
export async function createBuiltInIdp(ctx: AppContext): Promise<BuiltInIdp> {
  const { db, config } = ctx;
  const [jwks, cookieKeys, clientSecret] = await builtInIdpSecrets(db);
  const rolesClaim = config.OIDC_ROLES_CLAIM;

  const configuration: Configuration = {
    adapter: (model: string) => new DrizzleOidcAdapter(db, model),
    clients: [
      {
        client_id: builtInClientId,
        client_secret: clientSecret,
        client_name: 'Licensing Portal',
        redirect_uris: [`${config.publicUrl}/api/auth/callback`],
        post_logout_redirect_uris: [`${config.publicUrl}/`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks,
    cookies: { keys: cookieKeys },
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', rolesClaim] },
    // The portal reads the claims from the ID token; no need for a userinfo round trip.
    conformIdTokenClaims: false,
    async findAccount(_ctx, sub) {
      if (!uuidPattern.test(sub)) return undefined;
      const [account] = await db.select().from(idpAccounts).where(eq(idpAccounts.id, sub));
      if (!account) return undefined;
      return {
        accountId: account.id,
        claims: () => ({
          sub: account.id,
          email: account.email,
          email_verified: true,
          name: account.name,
          [rolesClaim]: account.roles,
        }),
      };
    },
    interactions: { url: (_ctx, interaction) => `${builtInIssuerPath}/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource(koa, form) {
          koa.type = 'html';
          koa.body = logoutPage(form);
        },
        postLogoutSuccessSource(koa) {
          koa.type = 'html';
          koa.body = messagePage('Signed out', 'You are signed out of the Licensing Portal.', {
            href: '/',
            text: 'Sign in again',
          });
        },
      },
    },
    async renderError(koa, out, error) {
      ctx.log.warn({ err: error, oidc: out }, 'built-in IdP error');
      koa.type = 'html';
      koa.body = messagePage('Sign-in problem', String(out.error_description ?? out.error), {
        href: '/api/auth/login',
        text: 'Start again',
      });
    },
    clientBasedCORS: () => false,
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
      // The IdP session lasts as long as the portal's idle timeout: once the portal session has
      // ended for inactivity, signing in again asks for the password instead of passing silently.
      Session: config.SESSION_IDLE_MINUTES * 60,
      Grant: config.SESSION_ABSOLUTE_HOURS * 3600,
    },
  };

  const provider = new Provider(builtInIssuer(config.publicUrl), configuration);
  // Koa reads X-Forwarded-Proto/Host/For; the /oidc mount (routes.ts) overwrites them with PUBLIC_URL
  // and Fastify's client address, so no client can pick the endpoints or the address.
  provider.proxy = true;
  provider.on('server_error', (_koa, err) => ctx.log.error({ err }, 'built-in IdP server error'));
  // Koa prints unhandled errors to stderr by default; route them to the structured log instead.
  (provider as unknown as NodeJS.EventEmitter).on('error', (err: Error) =>
    ctx.log.error({ err }, 'built-in IdP request failed'),
  );
  return { provider, clientId: builtInClientId, clientSecret };
}
