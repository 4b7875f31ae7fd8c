/**
 * A stand-alone "external" OpenID provider for tests, run as its own Node process (like Entra ID or
 * Keycloak would be): oidc-provider on 127.0.0.1 with static accounts and its own login form.
 * Settings come from the environment; once listening it prints one JSON line: {"issuer": "..."}.
 *
 *   EXT_IDP_CLIENT_ID, EXT_IDP_CLIENT_SECRET,
 *   EXT_IDP_REDIRECT_URI, EXT_IDP_POST_LOGOUT_URI (each one URL or a comma list),
 *   EXT_IDP_ROLES_CLAIM (claim name carrying the roles),
 *   EXT_IDP_ACCOUNTS (JSON array of accounts: {login?, password, sub, email?, email_verified?, name,
 *     roles, preferred_username?}; `login` defaults to the e-mail; `email_verified` true, false or null
 *     (the claim is left out), default true; without `email` the claim is left out)
 *   EXT_IDP_ACCOUNT (one such account, the older form)
 */
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type JWK } from 'oidc-provider';
import { escapeHtml } from '../src/platform/escape-html.ts';
import type { ExternalIdpAccount } from './external-idp-process.ts';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

function readBody(req: http.IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => resolve(new URLSearchParams(body)));
    req.on('error', reject);
  });
}

const list = (value: string) => value.split(',').map((v) => v.trim());

async function main() {
  const rolesClaim = env('EXT_IDP_ROLES_CLAIM');
  const accounts = (
    process.env.EXT_IDP_ACCOUNTS
      ? JSON.parse(process.env.EXT_IDP_ACCOUNTS)
      : [JSON.parse(env('EXT_IDP_ACCOUNT'))]
  ) as ExternalIdpAccount[];
  const loginOf = (a: ExternalIdpAccount) => a.login ?? a.email ?? a.sub;
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: env('EXT_IDP_CLIENT_ID'),
        client_secret: env('EXT_IDP_CLIENT_SECRET'),
        redirect_uris: list(env('EXT_IDP_REDIRECT_URI')),
        post_logout_redirect_uris: list(env('EXT_IDP_POST_LOGOUT_URI')),
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: {
      keys: [{ ...(privateKey.export({ format: 'jwk' }) as JWK), kid: 'ext-1', alg: 'RS256', use: 'sig' }],
    },
    pkce: { required: () => true },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'preferred_username', rolesClaim],
    },
    // Like many real IdPs in their default mode, claims other than sub reach the client via userinfo
    // only (conformIdTokenClaims), so the portal must complete the ID token with userinfo.
    conformIdTokenClaims: true,
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        // A plain confirmation page (the default one needs an inline script).
        logoutSource(ctx, form) {
          ctx.body = `<!DOCTYPE html><html><head><title>External IdP sign-out</title></head><body>
<h1>Sign out of the External IdP?</h1>${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes">Yes, sign me out</button></body></html>`;
        },
      },
    },
    async findAccount(_ctx, sub) {
      const account = accounts.find((a) => a.sub === sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: () => {
          const claims: Record<string, unknown> = { sub, name: account.name, [rolesClaim]: account.roles };
          if (account.email !== undefined) claims.email = account.email;
          if (account.email_verified !== null) claims.email_verified = account.email_verified ?? true;
          if (account.preferred_username) claims.preferred_username = account.preferred_username;
          return claims as { sub: string };
        },
      };
    },
  });

  const loginForm = (
    uid: string,
    error = '',
  ) => `<!DOCTYPE html><html><head><title>External IdP</title></head><body>
<h1>External IdP</h1>${error ? `<p>${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label for="login">Login</label><input id="login" name="login">
<label for="pw">Password</label><input id="pw" name="password" type="password">
<button type="submit">Continue</button></form></body></html>`;

  const callback = provider.callback();
  server.on('request', async (req, res) => {
    const match = /^\/interaction\/([^/?]+)(\/login)?/.exec(req.url ?? '');
    if (!match) return callback(req, res);
    try {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === 'consent') {
        const grant = new provider.Grant({
          accountId: details.session!.accountId,
          clientId: String(details.params.client_id),
        });
        const asked = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
        if (asked.missingOIDCScope) grant.addOIDCScope(asked.missingOIDCScope.join(' '));
        if (asked.missingOIDCClaims) grant.addOIDCClaims(asked.missingOIDCClaims);
        return provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } });
      }
      if (req.method === 'POST' && match[2]) {
        const form = await readBody(req);
        const account = accounts.find(
          (a) => loginOf(a) === form.get('login') && a.password === form.get('password'),
        );
        if (account) return provider.interactionFinished(req, res, { login: { accountId: account.sub } });
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(loginForm(details.uid, 'Invalid credentials'));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end(loginForm(details.uid));
    } catch (err) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(String(err));
    }
  });

  process.stdout.write(`${JSON.stringify({ issuer })}\n`);
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
