import { randomUUID } from 'node:crypto';
import { scimApi } from '@lp/contract/scim/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { answerFor } from '../../platform/errors.ts';
import { requestOrigin } from '../../platform/request-origin.ts';
import { route } from '../../platform/route.ts';
import { SCIM_CONTENT_TYPE, ScimError, scimErrorBody } from './scim-protocol.ts';
import * as scim from './service.ts';
import {
  authenticateScim,
  issueScimToken,
  listScimTokens,
  revokeScimToken,
  type ScimCaller,
} from './tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The SCIM token's caller (set by the SCIM scope's sign-in hook). */
    scimCaller?: ScimCaller;
  }
}

/** The base path of the SCIM endpoint; its routes are not declared operations (their answers are SCIM's). */
export const SCIM_PREFIX = '/scim/v2';

/**
 * The portal's calls for SCIM tokens, and the SCIM 2.0 endpoint of each account (RFC 7644): a machine endpoint
 * beside /cls/v1 and /web/v1, signed in by the account's SCIM token only (never a session cookie, so no CSRF
 * header), answering `application/scim+json` and SCIM's error bodies.
 */
export async function registerScimRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  route(
    app,
    ctx,
    scimApi.tokens,
  )(async ({ principal, body }) => ({ data: await listScimTokens(ctx, principal, body) }));
  route(
    app,
    ctx,
    scimApi.issue,
  )(async ({ principal, body }) => ({ data: await issueScimToken(ctx, principal, body) }));
  route(
    app,
    ctx,
    scimApi.revoke,
  )(async ({ principal, body }) => ({ data: await revokeScimToken(ctx, principal, body) }));

  await app.register(
    async (scope) => {
      // SCIM clients send application/scim+json (and some application/json, or a DELETE with a type and no body).
      const json = scope.getDefaultJsonParser('error', 'error');
      scope.removeContentTypeParser('application/json');
      for (const type of [SCIM_CONTENT_TYPE, 'application/json'])
        scope.addContentTypeParser(type, { parseAs: 'string' }, (request, body, done) =>
          body === '' ? done(null, undefined) : json(request, body as string, done),
        );
      scope.setErrorHandler((error, request, reply) => {
        if (error instanceof ScimError) return send(reply, error.status, error.message, error.scimType);
        const { statusCode, body, unexpected } = answerFor(error as Error);
        if (unexpected) {
          const reference = randomUUID().replaceAll('-', '');
          request.log.error({ err: error, reference }, 'unhandled error');
          return send(reply, 500, `Internal error (reference ${reference}).`);
        }
        const malformed = statusCode === 400 && (error as { code?: string }).code?.startsWith('FST_ERR_CTP');
        const scimType = malformed ? 'invalidSyntax' : statusCode === 400 ? 'invalidValue' : undefined;
        return send(reply, statusCode, body.err, scimType);
      });
      scope.addHook('onRequest', async (request) => {
        const { customerNumber } = request.params as { customerNumber: string };
        const origin = requestOrigin(request);
        const caller = await authenticateScim(ctx, customerNumber, request.headers.authorization, {
          requestId: origin.requestId,
          clientIp: origin.clientIp ?? null,
        });
        if (!caller) throw new ScimError(401, 'A valid SCIM token of this account is required.');
        request.scimCaller = caller;
      });

      const caller = (request: FastifyRequest) => request.scimCaller!;
      const id = (request: FastifyRequest) => (request.params as { id: string }).id;
      const query = (request: FastifyRequest) => request.query as scim.ListQuery;
      // RFC 7644 §3.14: a write may name the version it was made against, a read the version the client holds.
      const ifMatch = (request: FastifyRequest) => request.headers['if-match'];
      const ifNoneMatch = (request: FastifyRequest) => request.headers['if-none-match'];
      const ok = (reply: FastifyReply, body: unknown, status = 200) =>
        reply.status(status).type(`${SCIM_CONTENT_TYPE}; charset=utf-8`).send(body);
      const resource = (reply: FastifyReply, answered: scim.Answered, status = 200) => {
        reply.header('etag', answered.etag);
        if (status === 201)
          reply.header('location', (answered.resource.meta as { location: string }).location);
        return ok(reply, answered.resource, status);
      };
      /** A read answered, or 304 with no body when the client's If-None-Match names the current version. */
      const current = (reply: FastifyReply, answered: scim.Answered | scim.NotModified) =>
        'notModified' in answered
          ? reply.status(304).header('etag', answered.etag).send()
          : resource(reply, answered);

      scope.get('/ServiceProviderConfig', async (r, reply) =>
        ok(reply, scim.serviceProviderConfig(ctx, caller(r))),
      );
      scope.get('/ResourceTypes', async (r, reply) => ok(reply, scim.resourceTypes(ctx, caller(r))));
      scope.get('/ResourceTypes/:id', async (r, reply) =>
        ok(reply, scim.resourceTypeById(ctx, caller(r), id(r))),
      );
      scope.get('/Schemas', async (r, reply) => ok(reply, scim.schemas(ctx, caller(r))));
      scope.get('/Schemas/:id', async (r, reply) => ok(reply, scim.schemaById(ctx, caller(r), id(r))));

      scope.get('/Users', async (r, reply) => ok(reply, await scim.listUsers(ctx, caller(r), query(r))));
      scope.post('/Users', async (r, reply) =>
        resource(reply, await scim.createUser(ctx, caller(r), r.body), 201),
      );
      scope.get('/Users/:id', async (r, reply) =>
        current(reply, await scim.getUser(ctx, caller(r), id(r), ifNoneMatch(r))),
      );
      scope.put('/Users/:id', async (r, reply) =>
        resource(reply, await scim.replaceUser(ctx, caller(r), id(r), r.body, ifMatch(r))),
      );
      scope.patch('/Users/:id', async (r, reply) =>
        resource(reply, await scim.patchUser(ctx, caller(r), id(r), r.body, ifMatch(r))),
      );
      scope.delete('/Users/:id', async (r, reply) => {
        await scim.deleteUser(ctx, caller(r), id(r), ifMatch(r));
        return reply.status(204).send();
      });

      scope.get('/Groups', async (r, reply) => ok(reply, await scim.listGroups(ctx, caller(r), query(r))));
      scope.post('/Groups', async (r, reply) =>
        resource(reply, await scim.createGroup(ctx, caller(r), r.body), 201),
      );
      scope.get('/Groups/:id', async (r, reply) =>
        current(reply, await scim.getGroup(ctx, caller(r), id(r), query(r), ifNoneMatch(r))),
      );
      scope.put('/Groups/:id', async (r, reply) =>
        resource(reply, await scim.replaceGroup(ctx, caller(r), id(r), r.body, ifMatch(r))),
      );
      scope.patch('/Groups/:id', async (r, reply) =>
        resource(reply, await scim.patchGroup(ctx, caller(r), id(r), r.body, query(r), ifMatch(r))),
      );
      scope.delete('/Groups/:id', async (r, reply) => {
        await scim.deleteGroup(ctx, caller(r), id(r), ifMatch(r));
        return reply.status(204).send();
      });
      // Anything else under an account's endpoint is SCIM's 404, not the portal's.
      scope.all('/*', async () => {
        throw new ScimError(404, 'No such SCIM resource.');
      });
    },
    { prefix: `${SCIM_PREFIX}/:customerNumber` },
  );
}

function send(reply: FastifyReply, status: number, detail: string, scimType?: string) {
  if (status === 401) reply.header('www-authenticate', 'Bearer realm="scim"');
  return reply
    .status(status)
    .type(`${SCIM_CONTENT_TYPE}; charset=utf-8`)
    .send(scimErrorBody(status, detail, scimType));
}
