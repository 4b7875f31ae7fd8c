import type { FastifyInstance } from 'fastify';

/**
 * Answers of the API are account data, tokens and error envelopes: no browser or shared cache may keep them
 * (issue 20 §7). Every JSON answer, and every answer under /api and /cls, is `no-store` unless its route chose
 * a policy itself (the license-server policy's ETag revalidation, the sign-in script); an error is always
 * `no-store`. Static files (the content-hashed assets, index.html) keep what app.ts gives them.
 */
export function installNoStore(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '');
    const json = type.startsWith('application/json');
    const chosen = reply.hasHeader('cache-control') || reply.raw.hasHeader('cache-control');
    if ((json && reply.statusCode >= 400) || (!chosen && (json || /^\/(api|cls)\//.test(request.url))))
      reply.header('cache-control', 'no-store');
    return payload;
  });
}
