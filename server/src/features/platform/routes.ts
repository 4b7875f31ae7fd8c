import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { openApiDocument } from '@lp/contract/api-catalogue';
import { platformApi } from '@lp/contract/platform/api';
import type { ClientConfig } from '@lp/contract/platform/schemas';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { route } from '../../platform/route.ts';
import { registerApiReference } from './api-reference.ts';

const rootPackage = new URL('../../../../package.json', import.meta.url);

/** Build text for the menu footer: BUILD_INFO when set, else version and commit of this checkout. */
function buildInfo(configured: string | undefined): string {
  if (configured) return configured;
  const { version } = JSON.parse(readFileSync(rootPackage, 'utf8')) as { version: string };
  let commit = '';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    // Not a git checkout (e.g. a packaged install): the version alone is shown.
  }
  return `Licensing Portal ${version}${commit ? ` (${commit})` : ''}`;
}

export function registerPlatformRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { config } = ctx;
  const clientConfig: ClientConfig = {
    apiUrl: '/api',
    editprofileurl: config.EDIT_PROFILE_URL,
    supportRequesturl: config.SUPPORT_REQUEST_URL,
    documentationUrl: config.DOCUMENTATION_URL,
    privacyUrl: config.PRIVACY_URL,
    production: config.production,
    productName: config.PRODUCT_NAME,
    providerName: config.PROVIDER_NAME,
    loginUrl: '/api/auth/login',
    logoutUrl: '/api/auth/logout',
    elasticTermsUrl: config.ELASTIC_TERMS_URL,
    accountListMax: config.ACCOUNT_LIST_MAX,
  };
  const info = buildInfo(config.BUILD_INFO);
  const docs = openApiDocument(
    JSON.parse(readFileSync(rootPackage, 'utf8')).version,
    config.SUPPORT_REQUEST_URL,
  );

  route(app, ctx, platformApi.health)(async () => ({ status: 'ok' }));
  route(
    app,
    ctx,
    platformApi.ready,
  )(async ({ reply }) => {
    try {
      await ctx.database.ping();
      return {
        status: 'ok',
        database: ctx.database.engine,
        ...(ctx.replica ? { replica: ctx.replica.status() } : {}),
      };
    } catch {
      return reply.status(503).send({ status: 'unavailable', database: ctx.database.engine });
    }
  });
  route(app, ctx, platformApi.config)(async () => clientConfig);
  route(
    app,
    ctx,
    platformApi.environment,
  )(async ({ reply }) => reply.type('text/plain').send(config.APP_ENVIRONMENT));
  route(app, ctx, platformApi.buildInfo)(async () => ({ err: null, data: info }));
  route(app, ctx, platformApi.docs)(async () => docs);
  registerApiReference(app);
}
