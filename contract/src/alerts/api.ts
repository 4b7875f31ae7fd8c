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
  description: 'Every service alert, resolved and expired ones included, for the staff administration table.',
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
    description:
      'The service alerts in force now (started, not expired, not resolved), most severe first: what the banner shows.',
    auth: 'session',
    effect: 'read',
    response: activeAlertsResponseSchema,
  }),
  ...alertsQuery,
  create: defineOperation({
    operationId: 'createAlert',
    method: 'post',
    path: '/api/notifications/admin',
    summary: 'Create an alert (vendor staff)',
    description:
      'Creates a service alert: category, severity, text, service and the period it shows (`date` defaults to now; `expires` after it). Vendor staff.',
    auth: 'session',
    effect: 'keyed',
    body: alertInputSchema,
    response: alertResponseSchema,
  }),
  edit: defineOperation({
    operationId: 'editAlert',
    method: 'put',
    path: '/api/notifications/admin/{id}',
    summary: 'Edit an alert (vendor staff)',
    description: "Replaces an alert's fields. Vendor staff.",
    auth: 'session',
    effect: 'idempotent',
    statuses: {
      404: 'No alert with this id.',
    },
    params: alertIdParamsSchema,
    body: alertInputSchema,
    response: alertResponseSchema,
  }),
  resolve: defineOperation({
    operationId: 'resolveAlert',
    method: 'post',
    path: '/api/notifications/admin/{id}/resolve',
    summary: 'Resolve an alert (vendor staff)',
    description: 'Marks an alert resolved: it stops showing at once and stays in the list. Vendor staff.',
    auth: 'session',
    effect: 'idempotent',
    statuses: {
      404: 'No alert with this id.',
    },
    params: alertIdParamsSchema,
    response: alertResponseSchema,
  }),
} as const;
