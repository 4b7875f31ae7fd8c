import { createHash } from 'node:crypto';
import { platformApi } from '@lp/contract/platform/api';
import scalarApiReference from '@scalar/fastify-api-reference';
import type { FastifyInstance } from 'fastify';

/** The interactive reference page of the API (decision 058). */
export const API_REFERENCE_PATH = '/api/reference';

/** Where the plugin serves Scalar's bundle, under the page's path. */
const SCALAR_BUNDLE = '/js/scalar.js';

/** `'sha256-…'` of each inline script of a page, as a CSP source. */
const inlineScriptHashes = (html: string) =>
  [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    ([, script]) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`,
  );

/**
 * Scalar's reference page for the document at /api/docs, public like the document. Scalar's bundle is served by
 * this server from the installed package (a customer's network may not reach a CDN, and must not have to); its
 * fonts from a CDN are turned off, and so are its AI agent and MCP buttons, which call Scalar's services. The
 * page's one inline script (Scalar's start call, which the plugin writes) is allowed by its hash on this page
 * only: everywhere else the CSP stays `script-src 'self'`.
 */
export function registerApiReference(app: FastifyInstance): void {
  // Fastify loads the plugin in its turn, before the app is ready.
  app.register(async (scope) => {
    // Scalar's routes are not declared operations; sign-in lets them through as it does public ones.
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, auth: 'public' };
    });
    scope.addHook('onSend', async (_request, reply, payload) => {
      const csp = reply.getHeader('content-security-policy');
      if (typeof payload !== 'string' || typeof csp !== 'string' || !payload.startsWith('<!doctype html>'))
        return payload;
      const hashes = inlineScriptHashes(payload).join(' ');
      reply.header(
        'content-security-policy',
        csp.replace("script-src 'self'", `script-src 'self' ${hashes}`),
      );
      return payload;
    });
    await scope.register(scalarApiReference, {
      routePrefix: API_REFERENCE_PATH,
      hooks: {
        // The 5 MB bundle changes only with the installed package: a browser keeps it a day instead of
        // fetching it on every visit (the API's no-store is for account data).
        onRequest: async (request, reply) => {
          if (request.url.endsWith(SCALAR_BUNDLE)) reply.header('cache-control', 'public, max-age=86400');
        },
      },
      configuration: {
        url: platformApi.docs.path,
        pageTitle: 'Licensing Portal API reference',
        withDefaultFonts: false,
        agent: { disabled: true },
        mcp: { disabled: true },
      },
    });
  });
}
