import { alertsApi, alertsQuery } from '@lp/contract/alerts/api';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { registerQueryEndpoints, route } from '../../platform/route.ts';
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
  route(app, ctx, alertsApi.active)(async () => ({ data: await activeAlerts(ctx) }));

  registerQueryEndpoints(app, ctx, alertsQuery, {
    page: (_principal, body) => listAlerts(ctx, body),
    count: (_principal, { filter }) => countAlerts(ctx, filter),
    distinct: (_principal, { filter, key, limit }) => distinctAlerts(ctx, filter, key, limit),
  });

  // The staff check runs before the body is validated: a customer learns nothing about the expected body.
  const staff = { guard: requireAlertStaff };
  route(
    app,
    ctx,
    alertsApi.create,
    staff,
  )(async ({ principal, body }) => ({
    data: await createAlert(ctx, principal, body),
  }));
  route(
    app,
    ctx,
    alertsApi.edit,
    staff,
  )(async ({ principal, params, body }) => ({
    data: await editAlert(ctx, principal, params.id, body),
  }));
  route(
    app,
    ctx,
    alertsApi.resolve,
    staff,
  )(async ({ principal, params }) => ({
    data: await resolveAlertById(ctx, principal, params.id),
  }));
}
