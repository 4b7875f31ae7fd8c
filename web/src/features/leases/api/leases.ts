import { leasesApi } from '@lp/contract/leases/api';
import { type LeaseRecord, leaseColumnKinds } from '@lp/contract/leases/schemas';
import type { FilterRule } from '@lp/contract/query/schemas';
import { countShownAsActivated } from '@lp/domain/entitlements';
import { type LeaseRow, lineSeats, toLeaseRow } from '@lp/domain/lease-entitlements';
import { type ApiClient, api, type RequestOptions } from '../../../lib/api-client.ts';
import { call } from '../../../lib/call.ts';
import { type Block, type BlockRequest, DataService } from '../../../lib/data-service.ts';
import { leaseFilterRule, leaseSortRules, utcToday } from '../lease-filter.ts';

export type LeaseSplit = 'active' | 'inactive';

/** Spec 002 §4: the leases fetch asks for type SSL in state Deployed. */
const scope = { type: 'SSL', state: 'Deployed' } as const;

const splitOperations = {
  active: { page: leasesApi.active, count: leasesApi.activeCount },
  inactive: { page: leasesApi.inactive, count: leasesApi.inactiveCount },
} as const;

/**
 * A row of the /ssl tables: the server's record, its display row (@lp/domain/lease-entitlements) and the
 * Total Activated value (decision 031). The last two are added to each block handed to the grid.
 */
export type LeaseGridRow = LeaseRecord & {
  view?: LeaseRow;
  /** What the Total Activated column shows; null while unknown (the count call failed or left it out). */
  totalActivated?: number | null;
};

/** Every leases call carries the account and the spec's type and state (spec 002 §7). */
function leasesClient(customerNumber: string, base: ApiClient): ApiClient {
  return <T>(path: string, options: RequestOptions = {}) =>
    base<T>(path, { ...options, body: { ...(options.body as object), customerNumber, ...scope } });
}

/**
 * One /ssl table's rows through the generic data service (server-side filter, sort and paging). The grid
 * filters and sorts by column id; they are rewritten here into the lease record's fields (lease-filter.ts)
 * before the data service sees them, so its in-memory narrowing uses the contract's column kinds exactly.
 * Each block then gets its display rows and, for the models whose seats are activated on license servers,
 * the counts of POST /api/fulfillments/count.
 */
export class LeasesDataService extends DataService<LeaseGridRow> {
  /** Seats activated per activation id, as the fulfillment count answered (kept while the table is shown). */
  private readonly activated = new Map<string, number>();
  private readonly account: string;
  private readonly split: LeaseSplit;
  private readonly calls: ApiClient;

  constructor(account: string, split: LeaseSplit, calls: ApiClient = api) {
    super({
      base: splitOperations[split].page.path,
      client: leasesClient(account, calls),
      columns: leaseColumnKinds,
    });

    this.account = account;
    this.split = split;
    this.calls = calls;
  }

  override async getBlock(req: BlockRequest): Promise<Block<LeaseGridRow>> {
    const today = utcToday();
    const block = await super.getBlock({
      ...req,
      filter: leaseFilterRule(req.filter, today),
      sorting: leaseSortRules(req.sorting),
    });
    await this.loadActivated(block.rows);
    const now = new Date();
    return { ...block, rows: block.rows.map((record) => this.displayRow(record, now)) };
  }

  override async count(filter?: FilterRule | null): Promise<number> {
    const answer = await call(
      splitOperations[this.split].count,
      { customerNumber: this.account, ...scope, filter: leaseFilterRule(filter, utcToday()) },
      { client: this.calls },
    );
    return answer.data;
  }

  private displayRow(record: LeaseGridRow, now: Date): LeaseGridRow {
    return {
      ...record,
      view: toLeaseRow(record, now),
      // The seat rule /activations and the server use too (decision 031).
      totalActivated: lineSeats(
        { model: record.LicenseModel, productName: record.ProductName, quantity: record.LineItemQuantity },
        this.activated.get(record.ActivationId) ?? null,
      ).activated,
    };
  }

  /** Spec 002 §7: one fulfillment-count call for the block's rows not known yet; a missing count is only logged. */
  private async loadActivated(rows: readonly LeaseGridRow[]) {
    const ids = [
      ...new Set(
        rows
          .filter((r) => !countShownAsActivated(r.LicenseModel, r.ProductName))
          .map((r) => r.ActivationId)
          .filter((id) => !this.activated.has(id)),
      ),
    ];
    if (ids.length === 0) return;
    try {
      const answer = await call(
        leasesApi.fulfillmentCount,
        { customerNumber: this.account, activationId: ids },
        { client: this.calls },
      );
      for (const id of ids) {
        const count = answer.data[id];
        if (typeof count === 'number') this.activated.set(id, count);
        else console.warn(`No fulfillment count for activation ${id}`);
      }
    } catch (e) {
      console.warn('Could not load the fulfillment counts', e);
    }
  }
}
