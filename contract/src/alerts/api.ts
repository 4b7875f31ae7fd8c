import { defineOperation } from '../common/operation.ts';
import { queryOperations } from '../query/operations.ts';
import {
  activeAlertsResponseSchema,
  alertIdParamsSchema,
  alertInputSchema,
  alertResponseSchema,
  alertsCountRequestSchema,
  alertsDistinctRequestSchema,
  alertsPageRequestSchema,
  alertsPageResponseSchema,
} from './schemas.ts';

export const alertsQuery = queryOperations({
  name: 'Alerts',
  path: '/api/notifications',
  summary: 'Service alerts',
  page: { body: alertsPageRequestSchema, response: alertsPageResponseSchema },
  count: { body: alertsCountRequestSchema },
  distinct: { body: alertsDistinctRequestSchema },
});

export const alertsApi = {
  active: defineOperation({
    operationId: 'listActiveAlerts',
    method: 'get',
    path: '/api/notifications',
    summary: 'Active service alerts',
    auth: 'session',
    response: activeAlertsResponseSchema,
  }),
  ...alertsQuery,
  create: defineOperation({
    operationId: 'createAlert',
    method: 'post',
    path: '/api/notifications/admin',
    summary: 'Create an alert (vendor staff)',
    auth: 'session',
    body: alertInputSchema,
    response: alertResponseSchema,
  }),
  edit: defineOperation({
    operationId: 'editAlert',
    method: 'put',
    path: '/api/notifications/admin/{id}',
    summary: 'Edit an alert (vendor staff)',
    auth: 'session',
    params: alertIdParamsSchema,
    body: alertInputSchema,
    response: alertResponseSchema,
  }),
  resolve: defineOperation({
    operationId: 'resolveAlert',
    method: 'post',
    path: '/api/notifications/admin/{id}/resolve',
    summary: 'Resolve an alert (vendor staff)',
    auth: 'session',
    params: alertIdParamsSchema,
    response: alertResponseSchema,
  }),
} as const;
