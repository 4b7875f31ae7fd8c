import { z } from 'zod';
import { defineOperation } from '../common/operation.ts';
import {
  buildInfoResponseSchema,
  clientConfigSchema,
  lastUpdatedQuerySchema,
  lastUpdatedResponseSchema,
} from './schemas.ts';

export const platformApi = {
  health: defineOperation({
    operationId: 'health',
    method: 'get',
    path: '/healthz',
    summary: 'Liveness: the process answers',
    auth: 'public',
    response: z.object({ status: z.literal('ok') }),
  }),
  ready: defineOperation({
    operationId: 'ready',
    method: 'get',
    path: '/readyz',
    summary: 'Readiness: the database answers (503 when it does not)',
    auth: 'public',
    response: z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) }),
  }),
  config: defineOperation({
    operationId: 'getClientConfig',
    method: 'get',
    path: '/api/config',
    summary: 'Client configuration loaded at start',
    auth: 'public',
    response: clientConfigSchema,
  }),
  environment: defineOperation({
    operationId: 'getEnvironment',
    method: 'get',
    path: '/api/environment',
    summary: 'Environment: dev, uat or prod (text)',
    auth: 'public',
    produces: 'text/plain',
  }),
  docs: defineOperation({
    operationId: 'getOpenApiDocument',
    method: 'get',
    path: '/api/docs',
    summary: 'This OpenAPI document',
    auth: 'public',
    response: z.record(z.string(), z.unknown()),
  }),
  buildInfo: defineOperation({
    operationId: 'getBuildInfo',
    method: 'get',
    path: '/api/getBuildInfo',
    summary: 'Build information text',
    auth: 'session',
    response: buildInfoResponseSchema,
  }),
  lastUpdatedOn: defineOperation({
    operationId: 'getLastUpdatedOn',
    method: 'get',
    path: '/api/lastupdatedon',
    summary: 'Last received usage transaction (of one account with ?accountId=)',
    auth: 'session',
    query: lastUpdatedQuerySchema,
    response: lastUpdatedResponseSchema,
  }),
} as const;
