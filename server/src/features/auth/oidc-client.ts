import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import * as client from 'openid-client';
import type { Config } from '../../platform/config.ts';

export interface RelyingPartyOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** For the built-in IdP: reach it through the local listening socket rather than the public URL. */
  viaLocalServer?: FastifyInstance;
}

/**
 * The portal as an OpenID Connect client (authorization code + PKCE, confidential client). The same
 * code talks to the built-in IdP and to an external one; discovery runs lazily on first use and is
 * retried after a failure, so the server starts even while the IdP is unreachable.
 */
export class RelyingParty {
  private configuration: Promise<client.Configuration> | undefined;

  private readonly config: Config;
  private readonly options: RelyingPartyOptions;

  constructor(config: Config, options: RelyingPartyOptions) {
    this.config = config;
    this.options = options;
  }

  get redirectUri() {
    return `${this.config.publicUrl}/api/auth/callback`;
  }

  async authorizationUrl(checks: { state: string; nonce: string; codeVerifier: string }): Promise<URL> {
    const configuration = await this.discover();
    return client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      scope: this.config.OIDC_SCOPES,
      response_type: 'code',
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
    });
  }

  /** Exchanges the code; returns the ID token and its claims, completed from userinfo when sparse. */
  async completeSignIn(
    callbackUrl: URL,
    checks: { state: string; nonce: string; codeVerifier: string },
    rolesClaim: string,
  ): Promise<{ idToken: string | undefined; claims: Record<string, unknown> }> {
    const configuration = await this.discover();
    const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) throw new Error('no ID token in the token response');
    let claims: Record<string, unknown> = { ...idClaims };
    // Some IdPs put email, email_verified or roles only in userinfo (OIDC "conform" mode).
    if (
      (claims.email === undefined ||
        claims.email_verified === undefined ||
        claims[rolesClaim] === undefined) &&
      configuration.serverMetadata().userinfo_endpoint
    ) {
      try {
        const info = await client.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
        claims = { ...info, ...claims };
        if (claims[rolesClaim] === undefined && info[rolesClaim] !== undefined)
          claims[rolesClaim] = info[rolesClaim];
      } catch {
        // userinfo is a best effort; the ID token alone may be enough.
      }
    }
    return { idToken: tokens.id_token, claims };
  }

  /** The IdP's sign-out URL when it has one (RP-initiated logout), else null. */
  async endSessionUrl(idToken: string | null, postLogoutRedirectUri: string): Promise<string | null> {
    const configuration = await this.discover();
    if (!configuration.serverMetadata().end_session_endpoint) return null;
    const params: Record<string, string> = { post_logout_redirect_uri: postLogoutRedirectUri };
    if (idToken) params.id_token_hint = idToken;
    return client.buildEndSessionUrl(configuration, params).href;
  }

  private discover(): Promise<client.Configuration> {
    if (!this.configuration) {
      const issuer = new URL(this.options.issuer);
      const execute = issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [];
      const local = this.options.viaLocalServer;
      this.configuration = client
        .discovery(
          issuer,
          this.options.clientId,
          { client_secret: this.options.clientSecret },
          client.ClientSecretBasic(this.options.clientSecret),
          { execute, ...(local ? { [client.customFetch]: localFetch(local, this.config.publicUrl) } : {}) },
        )
        .catch((error: unknown) => {
          this.configuration = undefined;
          throw error;
        });
    }
    return this.configuration;
  }
}

/**
 * Sends requests for the public origin to this server's own listening socket (the /oidc mount makes
 * the IdP build public URLs whatever the request says). This avoids depending on how `localhost`
 * resolves (IPv4 vs IPv6) and on the public hostname being reachable from inside (TLS terminated by a
 * proxy).
 */
function localFetch(app: FastifyInstance, publicUrl: string): client.CustomFetch {
  const pub = new URL(publicUrl);
  return (url, custom) => {
    const options = custom as RequestInit & { headers: Record<string, string> };
    const target = new URL(url);
    if (target.origin !== pub.origin) return fetch(url, options);
    const address = app.server.address() as AddressInfo | null;
    if (!address || typeof address === 'string') return fetch(url, options);
    const host =
      address.address === '0.0.0.0'
        ? '127.0.0.1'
        : address.address === '::'
          ? '[::1]'
          : address.family === 'IPv6'
            ? `[${address.address}]`
            : address.address;
    return fetch(`http://${host}:${address.port}${target.pathname}${target.search}`, options);
  };
}
