import { messages } from '@lp/contract/common/errors';
import type { FilterRule, SortRule } from '@lp/contract/query/schemas';
import { type FilterColumns, FilterRowError } from '@lp/domain/filter-rules';
import { type ApiClient, ApiError, api } from './api-client.ts';
import { narrowedFilter, type Row } from './filter-rules.ts';

/**
 * The generic data service of spec 000 §4.8 / §7: POST {base}, {base}/count and {base}/distinct with
 * filter, sorting, token and limit. It keeps the rows of the current server query; once every row of
 * that query is cached, a new filter that only narrows it is answered in memory (with the engine's own
 * semantics, @lp/domain/filter-rules), and it goes back to the server as soon as the filter no longer
 * narrows or the cached rows cannot decide it.
 */
export const SLICE_TIMEOUT_MS = 300_000;

export interface BlockRequest {
  filter?: FilterRule | null;
  sorting?: SortRule[];
  startRow: number;
  endRow: number;
}

export interface Block<T> {
  rows: T[];
  /** Total row count once known (the last block was reached), else undefined. */
  lastRow?: number;
  /** Where the answer came from, for diagnostics and tests. */
  source: 'server' | 'client';
}

export interface DataServiceOptions {
  base: string;
  client?: ApiClient;
  timeoutMs?: number;
  /**
   * The kinds of the columns the endpoint filters exactly as the query engine's resource declares them,
   * for the criteria this service sends (a column whose criteria the endpoint rewrites first must be left
   * out). Without them every new filter is answered by the server.
   */
  columns?: FilterColumns;
}

interface PageAnswer<T> {
  status: 'SUCCESS';
  data: T[];
  token?: string | null;
}

const ruleKey = (filter: FilterRule | null | undefined) =>
  JSON.stringify(
    filter && filter.criteria.length > 0 ? { c: filter.condition.toUpperCase(), r: filter.criteria } : null,
  );
const sortKey = (sorting: SortRule[] | undefined) =>
  JSON.stringify((sorting ?? []).map((s) => [s.name, s.direction.toLowerCase()]));

/** Runs one slice (a request with its retries) under the slice timeout: "data request timeout". */
async function withTimeout<T>(timeoutMs: number, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timeoutError = new ApiError(0, messages.dataTimeout);
  const timer = setTimeout(() => controller.abort(timeoutError), timeoutMs);
  try {
    return await Promise.race([
      run(controller.signal),
      new Promise<never>((_, reject) =>
        controller.signal.addEventListener('abort', () => reject(timeoutError), { once: true }),
      ),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export class DataService<T extends Row> {
  private readonly base: string;
  private readonly client: ApiClient;
  private readonly timeoutMs: number;
  private readonly columns: FilterColumns | undefined;
  /** The server query whose rows are cached. */
  private serverFilter: FilterRule | null | undefined = undefined;
  private serverKey: string | null = null;
  private rows: T[] = [];
  private total: number | undefined;
  /** Continuation token for the row right after the cached prefix, when the server gave one. */
  private nextToken: { at: number; token: string } | null = null;
  /** Client-side answer for the current narrowed filter. */
  private narrowed: { key: string; rows: T[] } | null = null;
  /**
   * Bumped whenever the cached query is dropped: an answer that comes back after its query was left (the table's
   * criteria changed while it was out) is returned to its caller but never written into the current query's rows
   * and total, where an empty one turned the pager's total into 0.
   */
  private generation = 0;

  constructor(options: DataServiceOptions) {
    this.base = options.base;
    this.client = options.client ?? api;
    this.timeoutMs = options.timeoutMs ?? SLICE_TIMEOUT_MS;
    this.columns = options.columns;
  }

  /** True when every row of the cached server query is in memory. */
  get allRowsCached(): boolean {
    if (this.total === undefined) return false;
    let filled = 0;
    for (let i = 0; i < this.total; i++) if (this.rows[i] !== undefined) filled++;
    return filled === this.total;
  }

  invalidate() {
    this.generation++;
    this.serverKey = null;
    this.serverFilter = undefined;
    this.rows = [];
    this.total = undefined;
    this.nextToken = null;
    this.narrowed = null;
  }

  async getBlock(req: BlockRequest): Promise<Block<T>> {
    const key = `${sortKey(req.sorting)}|${ruleKey(req.filter)}`;
    if (this.serverKey === key) {
      this.narrowed = null;
    } else {
      const rows = this.rowsInMemory(key, req);
      if (rows) return { rows: rows.slice(req.startRow, req.endRow), lastRow: rows.length, source: 'client' };
      this.invalidate();
      this.serverKey = key;
      this.serverFilter = req.filter;
    }
    return this.fetchServerBlock(req);
  }

  /** The rows of the request's filter taken from the cached ones, or null when the server must answer. */
  private rowsInMemory(key: string, req: BlockRequest): T[] | null {
    if (this.narrowed?.key === key) return this.narrowed.rows;
    const sameSort = this.serverKey?.startsWith(`${sortKey(req.sorting)}|`);
    if (!sameSort || !this.columns || !this.allRowsCached) return null;
    const keep = narrowedFilter(this.columns, this.serverFilter, req.filter);
    if (!keep) return null;
    try {
      this.narrowed = { key, rows: this.rows.slice(0, this.total).filter(keep) };
    } catch (e) {
      // A row without a filtered column (or with a value of another kind) cannot be judged here.
      if (e instanceof FilterRowError) return null;
      throw e;
    }
    return this.narrowed.rows;
  }

  private async fetchServerBlock(req: BlockRequest): Promise<Block<T>> {
    const limit = req.endRow - req.startRow;
    const cached = this.rows.slice(req.startRow, req.endRow);
    const complete =
      cached.length === limit || (this.total !== undefined && req.startRow + cached.length >= this.total);
    if (cached.length > 0 && complete && Array.from(cached).every((row) => row !== undefined))
      return { rows: cached, lastRow: this.total, source: 'server' };
    const useToken = this.nextToken && this.nextToken.at === req.startRow ? this.nextToken.token : null;
    const bodyFor = (token: string | null) => ({
      filter: req.filter ?? undefined,
      sorting: req.sorting && req.sorting.length > 0 ? req.sorting : undefined,
      limit,
      ...(token ? { token } : { offset: req.startRow }),
    });
    const post = (token: string | null) =>
      this.slice((signal) =>
        this.client<PageAnswer<T>>(this.base, { method: 'POST', body: bodyFor(token), signal }),
      );
    const generation = this.generation;
    let answer: PageAnswer<T>;
    try {
      answer = await post(useToken);
    } catch (e) {
      // Some resources page by offset only; fall back when the token is refused.
      if (!(useToken && e instanceof ApiError && e.err === messages.tokenNotSupported)) throw e;
      answer = await post(null);
    }
    const rows = answer.data ?? [];
    if (generation !== this.generation)
      return {
        rows,
        lastRow: rows.length < limit ? req.startRow + rows.length : undefined,
        source: 'server',
      };
    rows.forEach((row, i) => {
      this.rows[req.startRow + i] = row;
    });
    if (rows.length < limit) this.total = req.startRow + rows.length;
    this.nextToken = answer.token ? { at: req.startRow + rows.length, token: answer.token } : null;
    return { rows, lastRow: this.total, source: 'server' };
  }

  async count(filter?: FilterRule | null): Promise<number> {
    const answer = await this.slice((signal) =>
      this.client<{ data: number }>(`${this.base}/count`, {
        method: 'POST',
        body: { filter: filter ?? undefined },
        signal,
      }),
    );
    return answer.data;
  }

  async distinct(
    key: string,
    filter?: FilterRule | null,
    limit?: number,
  ): Promise<Array<string | number | boolean | null>> {
    const answer = await this.slice((signal) =>
      this.client<{ data: Array<string | number | boolean | null> }>(`${this.base}/distinct`, {
        method: 'POST',
        body: { key, filter: filter ?? undefined, limit },
        signal,
      }),
    );
    return answer.data;
  }

  private slice<R>(run: (signal: AbortSignal) => Promise<R>): Promise<R> {
    return withTimeout(this.timeoutMs, run);
  }
}

export function createDataService<T extends Row>(options: DataServiceOptions): DataService<T> {
  return new DataService<T>(options);
}
