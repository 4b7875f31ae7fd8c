import type { Alert, AlertInput, AlertRow } from '@lp/contract/alerts/schemas';
import type { AuditActionOf } from '@lp/contract/audit/actions';
import type { Criterion, FilterRule, SortRule } from '@lp/contract/query/schemas';
import { alertCategories, canManageAlerts, parseAlertDay, severityOf } from '@lp/domain/alerts';
import type { Db } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import type { Principal } from '../../platform/principal.ts';
import { queryCount, queryDistinct, queryPage } from '../../platform/query/engine.ts';
import { type AuditActor, auditActor, recordAudit } from '../audit/service.ts';
import {
  ALERTS_COUNT_CAP,
  ALERTS_MAX_LIMIT,
  type AlertRecord,
  type AlertValues,
  activeScope,
  alertsResource,
  findAlert,
  insertAlert,
  resolveAlert,
  updateAlert,
} from './repository.ts';

/*
 * Service alerts are global: every signed-in user reads them; only vendor busops/support/admin staff
 * (canManageAlerts) create, edit and resolve them.
 */

export const DATE_FILTER_MESSAGE = 'Invalid date filter: use YYYY-MM-DD with a year 19xx or 20xx';
export const CATEGORY_RANGE_MESSAGE = 'Invalid category range: use two of OK, INFO, WARNING, CRITICAL';

const isCategory = (v: unknown): v is string =>
  typeof v === 'string' && (alertCategories as readonly string[]).includes(v.toUpperCase());

/**
 * Turns the two alert-specific criteria into ones the engine understands: a category range becomes a
 * numeric range on the computed severity column, and a day on date/expires becomes its whole UTC day.
 */
function rewriteCriterion(c: Criterion): Criterion {
  const method = c.method.toUpperCase();
  if (c.name === 'category' && (method === 'RANGE' || method === 'INRANGE')) {
    const v = c.value;
    if (!Array.isArray(v) || v.length !== 2 || !isCategory(v[0]) || !isCategory(v[1])) {
      throw badRequest(CATEGORY_RANGE_MESSAGE);
    }
    return {
      ...c,
      name: 'severity',
      method: 'RANGE',
      value: [severityOf(v[0].toUpperCase()), severityOf(v[1].toUpperCase())],
      casefold: undefined,
      tostring: undefined,
    };
  }
  if ((c.name === 'date' || c.name === 'expires') && method === 'EQUALS' && !c.tostring) {
    const range = parseAlertDay(c.value);
    if (!range) throw badRequest(DATE_FILTER_MESSAGE);
    return { ...c, method: 'DATERANGE', value: [range.from.toISOString(), range.to.toISOString()] };
  }
  return c;
}

function rewriteFilter(filter: FilterRule | undefined): FilterRule | undefined {
  if (!filter) return undefined;
  return { ...filter, criteria: filter.criteria.map(rewriteCriterion) };
}

const iso = (d: unknown) => (d instanceof Date ? d.toISOString() : d === null ? null : String(d));

function parseLinks(value: unknown): Record<string, string> {
  const raw = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  return Object.fromEntries(
    Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
}

/** A row of the engine (API column names) into the contract's Alert. */
function fromRow(r: Record<string, unknown>): Alert {
  return {
    id: Number(r.id),
    category: r.category as Alert['category'],
    status: r.status as Alert['status'],
    date: iso(r.date) as string,
    expires: iso(r.expires),
    service: (r.service as string[] | null) ?? [],
    description: String(r.description),
    links: parseLinks(r.links),
  };
}

function fromRecord(a: AlertRecord): Alert {
  return fromRow({ ...a, service: a.services });
}

export async function listAlerts(
  ctx: AppContext,
  request: {
    filter?: FilterRule;
    sorting?: SortRule[];
    offset?: number;
    token?: string | null;
    limit?: number;
  },
) {
  const page = await queryPage(ctx.db, alertsResource, {
    request: { ...request, filter: rewriteFilter(request.filter) },
    secret: ctx.secret,
  });
  const rows: AlertRow[] = page.rows.map((r) => ({ ...fromRow(r), resolved: r.resolved === true }));
  return { rows, token: page.token };
}

export async function countAlerts(ctx: AppContext, filter?: FilterRule) {
  return queryCount(ctx.db, alertsResource, { filter: rewriteFilter(filter), cap: ALERTS_COUNT_CAP });
}

export async function distinctAlerts(
  ctx: AppContext,
  filter: FilterRule | undefined,
  key: string,
  limit?: number,
) {
  return queryDistinct(ctx.db, alertsResource, { filter: rewriteFilter(filter), key, limit });
}

/** GET /api/notifications: the active alerts, most severe first, newest first within a category. */
export async function activeAlerts(ctx: AppContext): Promise<Alert[]> {
  const page = await queryPage(ctx.db, alertsResource, {
    scope: activeScope,
    request: {
      sorting: [
        { name: 'severity', direction: 'desc' },
        { name: 'date', direction: 'desc' },
      ],
      limit: ALERTS_MAX_LIMIT,
    },
    secret: ctx.secret,
  });
  return page.rows.map(fromRow);
}

function requireStaff(principal: Principal) {
  if (!canManageAlerts(principal.vendorRoles)) throw forbidden();
}

/** The body after zod (contract alertInputSchema) plus the rules that need the stored alert or the clock. */
function toValues(input: AlertInput, fallbackDate: Date): AlertValues {
  const date = input.date ? new Date(input.date) : fallbackDate;
  const expires = input.expires ? new Date(input.expires) : null;
  if (expires && expires.getTime() <= date.getTime())
    throw badRequest('Invalid request: expires must be after date');
  return {
    category: input.category,
    services: input.service,
    description: input.description,
    date,
    expires,
    links: input.links ?? {},
  };
}

/** An alert's administered fields as plain JSON for the audit log. */
const audited = (a: AlertRecord) => ({
  category: a.category,
  status: a.status,
  services: a.services,
  description: a.description,
  date: a.date.toISOString(),
  expires: a.expires?.toISOString() ?? null,
  links: a.links,
});

/** Alerts are vendor-wide: no customer number. */
const auditAlert = (
  tx: Db,
  actor: AuditActor,
  action: AuditActionOf<'alerts.alert.'>,
  before: AlertRecord | null,
  after: AlertRecord,
) =>
  recordAudit(tx, actor, [
    {
      customerNumber: null,
      action,
      object: { type: 'alert', id: String(after.id) },
      before: before && audited(before),
      after: audited(after),
    },
  ]);

export async function createAlert(ctx: AppContext, principal: Principal, input: AlertInput) {
  requireStaff(principal);
  const values = toValues(input, new Date());
  return ctx.db.transaction(async (tx) => {
    const created = await insertAlert(tx, values);
    await auditAlert(tx, auditActor(principal), 'alerts.alert.created', null, created);
    return fromRecord(created);
  });
}

export async function editAlert(ctx: AppContext, principal: Principal, id: number, input: AlertInput) {
  requireStaff(principal);
  return ctx.db.transaction(async (tx) => {
    const existing = await findAlert(tx, id);
    if (!existing) throw notFound('Alert not found');
    const updated = await updateAlert(tx, id, toValues(input, existing.date));
    if (!updated) throw notFound('Alert not found');
    await auditAlert(tx, auditActor(principal), 'alerts.alert.edited', existing, updated);
    return fromRecord(updated);
  });
}

export async function resolveAlertById(ctx: AppContext, principal: Principal, id: number) {
  requireStaff(principal);
  return ctx.db.transaction(async (tx) => {
    const existing = await findAlert(tx, id);
    const resolved = existing && (await resolveAlert(tx, id));
    if (!existing || !resolved) throw notFound('Alert not found');
    await auditAlert(tx, auditActor(principal), 'alerts.alert.resolved', existing, resolved);
    return fromRecord(resolved);
  });
}

export { requireStaff as requireAlertStaff };
