import type { ActivationRow } from '@lp/contract/activations/schemas';
import type { PreviewRequest } from '@lp/contract/license-files/schemas';
import type { CreateItem, HostTarget, ReturnItem } from './api/fulfillment-steps.ts';
import { assignedRows, changesOf, type TabData, type TabSelection } from './selection.ts';

/**
 * What one confirmed save on /activations does (spec 002 §4 "Save flow"), computed from the tabs before anything
 * is sent, so the confirmation dialog, the progress count and a clear-and-retry all read the same plan.
 */

/** What a confirmation lists: a save (default, rehost) or a host's deactivation or removal (history page). */
export type ChangesMode = 'default' | 'rehost' | 'deactivate' | 'delete';

export interface ChangeLine {
  row: ActivationRow;
  count: number;
}

export interface CustomerChanges {
  customerNumber: string;
  customerName: string;
  deactivate: ChangeLine[];
  activate: ChangeLine[];
}

export interface PlanTab {
  customerNumber: string;
  customerName: string;
  data: TabData;
  selection: TabSelection;
}

export interface CustomerPlan {
  customerNumber: string;
  customerName: string;
  returns: ReturnItem[];
  creates: CreateItem[];
  /** What the confirmation dialog lists */
  deactivate: ChangeLine[];
  activate: ChangeLine[];
  /** Seats of the customer on the target host once the plan ran */
  seatsAfter: number;
}

export interface SavePlan {
  /** Operation keys of every batch derive from it: the same plan run again only finishes what is left */
  key: string;
  mode: Extract<ChangesMode, 'default' | 'rehost'>;
  /** The host the seats end on (a new host, or the rehost target, is added by the first create) */
  target: HostTarget;
  /** The host the seats are returned from: the target itself, or the rehost source */
  source: { serverName: string; serverId: string; serverIdType: string } | null;
  /** Whether the source host exists and was shared before: its group is deactivated first */
  sourceShared: boolean;
  customers: CustomerPlan[];
  /** Spec 002 §4: approved active customers; the shared-server group when more than one */
  group: string[];
  /** Returns plus creates: the spinner's y */
  total: number;
  /** The host's Borrowable setting once saved: create batches carry it, the file and its preview follow it */
  borrowable: boolean;
  /** Borrowable changed on a saved host: a change of its own, saved even without seat changes (decision 048) */
  borrowableChanged: boolean;
}

const seatsOf = (row: { fulfillments: { FulfillCount: number }[] }) =>
  row.fulfillments.reduce((sum, f) => sum + f.FulfillCount, 0);

/** One customer's part: the tab's changes, or in a rehost every seat returned from the source and recreated on the target. */
function customerPlan(tab: PlanTab, mode: SavePlan['mode']): CustomerPlan {
  const changes = changesOf(tab.data, tab.selection);
  const base = { customerNumber: tab.customerNumber, customerName: tab.customerName };
  // Seats given back per entitlement: all of a removed row, part of a lowered one.
  const returned = new Map<string, number>();
  for (const r of changes.returns)
    returned.set(r.row.activationid, (returned.get(r.row.activationid) ?? 0) - r.count);
  if (mode === 'default') {
    const kept = assignedRows(tab.data).reduce(
      (sum, r) => sum + seatsOf(r) - (returned.get(r.activationid) ?? 0),
      0,
    );
    return {
      ...base,
      returns: changes.returns.map((r) => ({ id: r.fulfillmentId, count: r.count })),
      creates: changes.creates.map((c) => ({ id: c.activationId, count: c.count })),
      deactivate: dedupe(changes.returns.map((r) => ({ row: r.row, count: r.count }))),
      activate: changes.creates.map((c) => ({ row: c.row, count: c.count })),
      seatsAfter: kept + changes.creates.reduce((sum, c) => sum + c.count, 0),
    };
  }
  // Rehost: everything on the source is returned; what the user kept moves to the target with the new seats.
  const assigned = tab.data.assigned.filter((r) => seatsOf(r) > 0);
  const moved = new Map<string, ChangeLine>();
  for (const row of assigned) {
    const count = seatsOf(row) - (returned.get(row.activationid) ?? 0);
    if (count > 0) moved.set(row.activationid, { row, count });
  }
  for (const c of changes.creates) {
    const line = moved.get(c.activationId);
    moved.set(c.activationId, { row: c.row, count: (line?.count ?? 0) + c.count });
  }
  const activate = [...moved.values()];
  return {
    ...base,
    returns: assigned.flatMap((r) =>
      r.fulfillments.map((f) => ({ id: f.FulfillmentID, count: -f.FulfillCount })),
    ),
    creates: activate.map((l) => ({ id: l.row.activationid, count: l.count })),
    deactivate: assigned.map((row) => ({ row, count: -seatsOf(row) })),
    activate,
    seatsAfter: activate.reduce((sum, l) => sum + l.count, 0),
  };
}

/** An assigned row with several fulfillments is one line of the dialog. */
function dedupe(lines: ChangeLine[]): ChangeLine[] {
  const byId = new Map<string, ChangeLine>();
  for (const l of lines) {
    const seen = byId.get(l.row.activationid);
    byId.set(l.row.activationid, { row: l.row, count: (seen?.count ?? 0) + l.count });
  }
  return [...byId.values()];
}

export function buildPlan(args: {
  key: string;
  mode: SavePlan['mode'];
  target: HostTarget;
  source: SavePlan['source'];
  sourceShared: boolean;
  /** Active tabs whose customer is export-approved, in tab order */
  tabs: PlanTab[];
  borrowable: boolean;
  /** The saved host's setting; null for a host not saved yet (its first create batch carries the setting) */
  savedBorrowable: boolean | null;
}): SavePlan {
  const customers = args.tabs.map((tab) => customerPlan(tab, args.mode));
  return {
    key: args.key,
    mode: args.mode,
    target: args.target,
    source: args.source,
    sourceShared: args.sourceShared,
    customers,
    group: customers.map((c) => c.customerNumber),
    total: customers.reduce((sum, c) => sum + c.returns.length + c.creates.length, 0),
    borrowable: args.borrowable,
    borrowableChanged: args.savedBorrowable !== null && args.savedBorrowable !== args.borrowable,
  };
}

/** Nothing is left on the target: no license file to make. */
export const leavesNothing = (plan: SavePlan) => plan.customers.every((c) => c.seatsAfter === 0);

/** The license-file preview of the confirmation dialog: one request per host the plan changes. */
export function previewRequests(plan: SavePlan): PreviewRequest[] {
  const hostOf = (h: { serverName: string; serverId: string; serverIdType: string }) => ({
    serverName: h.serverName,
    serverId: h.serverId,
    serverIdType: h.serverIdType,
  });
  const first = plan.customers[0]?.customerNumber;
  if (!first) return [];
  if (plan.mode === 'default')
    return [
      {
        customerNumber: first,
        ...hostOf(plan.target),
        ansysborrowable: plan.borrowable,
        customers: plan.customers.map((c) => ({
          customerNumber: c.customerNumber,
          returns: c.returns,
          creates: c.creates,
        })),
      },
    ];
  const requests: PreviewRequest[] = [];
  if (plan.source)
    requests.push({
      customerNumber: first,
      ...hostOf(plan.source),
      customers: plan.customers.map((c) => ({
        customerNumber: c.customerNumber,
        returns: c.returns,
        creates: [],
      })),
    });
  requests.push({
    customerNumber: first,
    ...hostOf(plan.target),
    ansysborrowable: plan.borrowable,
    customers: plan.customers.map((c) => ({
      customerNumber: c.customerNumber,
      returns: [],
      creates: c.creates,
    })),
  });
  return requests;
}
