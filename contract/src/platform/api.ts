import { z } from 'zod';
import { defineOperation } from '../common/operation.ts';
import {
  buildInfoResponseSchema,
  clientConfigSchema,
  lastUpdatedQuerySchema,
  lastUpdatedResponseSchema,
} from './schemas.ts';

/** What /readyz answers when the database does not answer its ping. */
const readinessFailureSchema = z.object({
  status: z.literal('unavailable'),
  database: z.enum(['pglite', 'postgres']),
});

export const platformApi = {
  health: defineOperation({
    operationId: 'health',
    method: 'get',
    path: '/healthz',
    summary: 'Liveness: the process answers',
    description:
      'Answers `{status: "ok"}` while the process runs, without touching the database: for a supervisor\'s liveness check.',
    auth: 'public',
    effect: 'read',
    response: z.object({ status: z.literal('ok') }),
  }),
  ready: defineOperation({
    operationId: 'ready',
    method: 'get',
    path: '/readyz',
    summary: 'Readiness: the database answers (503 when it does not)',
    description:
      'Pings the database with a 1.5 s deadline: `{status: "ok", database}` when it answers, 503 when it does not, so a load balancer sends no traffic to a node that cannot serve. With a read replica, `replica` says whether reads that may lag go there (`ok`) or to the primary (`lagging`, `down`); the node stays ready either way.',
    auth: 'public',
    effect: 'read',
    statuses: {
      503: {
        when: 'The database did not answer the ping (`{status: "unavailable", database}`), or this server is shutting down (the error envelope).',
        body: readinessFailureSchema,
      },
    },
    response: z.object({
      status: z.literal('ok'),
      database: z.enum(['pglite', 'postgres']),
      /** With DATABASE_REPLICA_URL: whether reads that may lag go to the replica (a lagging or down one is skipped) */
      replica: z
        .object({ state: z.enum(['ok', 'lagging', 'down']), lagSeconds: z.number().nullable() })
        .optional(),
    }),
  }),
  config: defineOperation({
    operationId: 'getClientConfig',
    method: 'get',
    path: '/api/config',
    summary: 'Client configuration loaded at start',
    description:
      'What the web app reads at start: product and provider names, sign-in and sign-out URLs, links (support, documentation, privacy, elastic terms) and the account list limit. Public.',
    auth: 'public',
    effect: 'read',
    response: clientConfigSchema,
  }),
  environment: defineOperation({
    operationId: 'getEnvironment',
    method: 'get',
    path: '/api/environment',
    summary: 'Environment: dev, uat or prod (text)',
    description: 'The environment name as plain text: `dev`, `uat` or `prod`.',
    auth: 'public',
    effect: 'read',
    produces: 'text/plain',
  }),
  docs: defineOperation({
    operationId: 'getOpenApiDocument',
    method: 'get',
    path: '/api/docs',
    summary: 'This OpenAPI document',
    description:
      'The OpenAPI 3.1 document of every call, built from the same declarations the server registers its routes from. Public; the interactive reference at `/api/reference` renders it.',
    auth: 'public',
    effect: 'read',
    response: z.record(z.string(), z.unknown()),
  }),
  buildInfo: defineOperation({
    operationId: 'getBuildInfo',
    method: 'get',
    path: '/api/getBuildInfo',
    summary: 'Build information text',
    description:
      "The version and commit of the running server (or the operator's BUILD_INFO text) shown in the menu footer.",
    auth: 'session',
    effect: 'read',
    response: buildInfoResponseSchema,
  }),
  lastUpdatedOn: defineOperation({
    operationId: 'getLastUpdatedOn',
    method: 'get',
    path: '/api/lastupdatedon',
    summary: 'Last received usage transaction (of one account with ?accountId=)',
    description:
      'When the newest usage transaction was received: of every account the user may see, or of the account `accountId`. Null when there is none.',
    auth: 'session',
    effect: 'read',
    statuses: {
      403: 'The user may not see the account `accountId` (an unknown account answers alike).',
    },
    query: lastUpdatedQuerySchema,
    response: lastUpdatedResponseSchema,
  }),
} as const;
