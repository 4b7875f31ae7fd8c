/**
 * A stand-alone "external" OpenID provider for tests, run as its own Node process (like Entra ID or
 * Keycloak would be): oidc-provider on 127.0.0.1 with one static account and its own login form.
 * Settings come from the environment; once listening it prints one JSON line: {"issuer": "..."}.
 *
 *   EXT_IDP_CLIENT_ID, EXT_IDP_CLIENT_SECRET, EXT_IDP_REDIRECT_URI, EXT_IDP_POST_LOGOUT_URI,
 *   EXT_IDP_ROLES_CLAIM (claim name carrying the roles),
 *   EXT_IDP_ACCOUNT (JSON {sub, email, name, password, roles}: the one account it knows)
 */
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type JWK } from 'oidc-provider';
import { escapeHtml } from '../platform/escape-html.ts';

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

async function main() {
  const rolesClaim = env('EXT_IDP_ROLES_CLAIM');
  const externalAccount = JSON.parse(env('EXT_IDP_ACCOUNT')) as {
    sub: string;
    email: string;
    name: string;
    password: string;
    roles: unknown;
  };
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: env('EXT_IDP_CLIENT_ID'),
        client_secret: env('EXT_IDP_CLIENT_SECRET'),
        redirect_uris: [env('EXT_IDP_REDIRECT_URI')],
        post_logout_redirect_uris: [env('EXT_IDP_POST_LOGOUT_URI')],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: {
      keys: [{ ...(privateKey.export({ format: 'jwk' }) as JWK), kid: 'ext-1', alg: 'RS256', use: 'sig' }],
    },
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', rolesClaim] },
    // Like many real IdPs in their default mode, claims other than sub reach the client via userinfo
    // only (conformIdTokenClaims), so the portal must complete the ID token with userinfo.
    conformIdTokenClaims: true,
    features: { devInteractions: { enabled: false } },
    async findAccount(_ctx, sub) {
      if (sub !== externalAccount.sub) return undefined;
      return {
        accountId: sub,
        claims: () => ({
          sub,
          email: externalAccount.email,
          email_verified: true,
          name: externalAccount.name,
          [rolesClaim]: externalAccount.roles,
        }),
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
        if (
          form.get('login') === externalAccount.email &&
          form.get('password') === externalAccount.password
        ) {
          return provider.interactionFinished(req, res, { login: { accountId: externalAccount.sub } });
        }
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
