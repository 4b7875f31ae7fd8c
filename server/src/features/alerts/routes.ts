import {
  alertIdParamsSchema,
  alertInputSchema,
  alertsCountRequestSchema,
  alertsDistinctRequestSchema,
  alertsPageRequestSchema,
} from '@lp/contract/alerts/schemas';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { requirePrincipal } from '../../platform/principal.ts';
import { parseInput } from '../../platform/validate.ts';
import {
  activeAlerts,
  countAlerts,
  createAlert,
  distinctAlerts,
  editAlert,
  listAlerts,
  requireAlertStaff,
  resolveAlertById,
} from './service.ts';

/** Spec 000 §7 notifications calls, plus the staff-only admin calls behind /notifications-admin. */
export function registerAlertRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/notifications', async (request) => {
    requirePrincipal(request);
    return { status: 'SUCCESS', data: await activeAlerts(ctx) };
  });

  app.post('/api/notifications', async (request) => {
    requirePrincipal(request);
    const body = parseInput(alertsPageRequestSchema, request.body);
    const page = await listAlerts(ctx, body);
    return { status: 'SUCCESS', data: page.rows, token: page.token };
  });

  app.post('/api/notifications/count', async (request) => {
    requirePrincipal(request);
    const { filter } = parseInput(alertsCountRequestSchema, request.body);
    return { status: 'SUCCESS', data: await countAlerts(ctx, filter) };
  });

  app.post('/api/notifications/distinct', async (request) => {
    requirePrincipal(request);
    const { filter, key, limit } = parseInput(alertsDistinctRequestSchema, request.body);
    return { status: 'SUCCESS', data: await distinctAlerts(ctx, filter, key, limit) };
  });

  // Staff check before body validation: a customer learns nothing about the expected body.
  app.post('/api/notifications/admin', async (request) => {
    const principal = requirePrincipal(request);
    requireAlertStaff(principal);
    const input = parseInput(alertInputSchema, request.body);
    return { status: 'SUCCESS', data: await createAlert(ctx, principal, input) };
  });

  app.put('/api/notifications/admin/:id', async (request) => {
    const principal = requirePrincipal(request);
    requireAlertStaff(principal);
    const { id } = parseInput(alertIdParamsSchema, request.params);
    const input = parseInput(alertInputSchema, request.body);
    return { status: 'SUCCESS', data: await editAlert(ctx, principal, id, input) };
  });

  app.post('/api/notifications/admin/:id/resolve', async (request) => {
    const principal = requirePrincipal(request);
    requireAlertStaff(principal);
    const { id } = parseInput(alertIdParamsSchema, request.params);
    return { status: 'SUCCESS', data: await resolveAlertById(ctx, principal, id) };
  });
}
