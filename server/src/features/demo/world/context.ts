import { type CatalogueProduct, products as catalogue } from '../catalogue.ts';
import { Rng } from '../prng.ts';
import type {
  AccountRow,
  ContactRow,
  ElasticPeriod,
  ElasticTarget,
  EmailRow,
  EntitlementRow,
  FsaPriceRow,
  FulfillmentEventRow,
  FulfillmentRow,
  ServerAccountRow,
  ServerPlan,
  ServerRow,
  SessionAccount,
} from './types.ts';

const DAY = 86_400_000;
const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

export const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '');
export const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * What every area generator shares: the one random stream (areas must draw from it in a fixed order, or the
 * world changes), the day anchor, unique ids and the rows built so far. Row ids are 1..n in insertion order,
 * so the next id is the row count plus one and `entitlements[id - 1]` finds a row.
 */
export interface WorldContext {
  rng: Rng;
  today: string;
  /** UTC midnight of `today` in milliseconds */
  anchor: number;
  /** 'YYYY-MM-DD' `offset` days from today */
  day(offset: number): string;
  at(offset: number, secondOfDay: number): Date;
  /** a random second between 07:00 and 19:00 */
  workTime(): number;
  daysFromToday(date: string): number;
  /** FlexNet's license-file date, e.g. 15-mar-2026 */
  flexDate(date: string): string;
  activationId(): string;
  hostId(type: ServerPlan['type']): string;
  poNumber(offset: number): string;
  productByPart: Map<string, CatalogueProduct>;
  /** host ids of license servers that several accounts share, by `ServerPlan.shareKey` */
  sharedHosts: Map<string, ServerRow>;
  /** the next account's customer number */
  customerNumber: number;
  rows: {
    accounts: AccountRow[];
    contacts: ContactRow[];
    entitlements: EntitlementRow[];
    fsaPrices: FsaPriceRow[];
    licenseServers: ServerRow[];
    licenseServerAccounts: ServerAccountRow[];
    fulfillments: FulfillmentRow[];
    fulfillmentEvents: FulfillmentEventRow[];
    emails: EmailRow[];
    sessionAccounts: SessionAccount[];
    periods: ElasticPeriod[];
    targets: ElasticTarget[];
  };
}

export function createContext(seed: number, today: string): WorldContext {
  const rng = new Rng(seed);
  const anchor = Date.parse(`${today}T00:00:00Z`);
  const day = (offset: number) => new Date(anchor + offset * DAY).toISOString().slice(0, 10);
  const usedIds = new Set<string>();
  const unique = (make: () => string) => {
    for (;;) {
      const v = make();
      if (!usedIds.has(v)) {
        usedIds.add(v);
        return v;
      }
    }
  };
  return {
    rng,
    today,
    anchor,
    day,
    at: (offset, secondOfDay) => new Date(anchor + offset * DAY + secondOfDay * 1000),
    workTime: () => rng.int(7 * 3600, 19 * 3600),
    daysFromToday: (date) => Math.round((Date.parse(`${date}T00:00:00Z`) - anchor) / DAY),
    flexDate: (date) => {
      const [y, m, d] = date.split('-');
      return `${d}-${months[Number(m) - 1]}-${y}`;
    },
    activationId: () => unique(() => `${rng.hex(4)}-${rng.hex(4)}-${rng.hex(4)}-${rng.hex(4)}`),
    hostId: (type) =>
      unique(() =>
        type === 'ETHERNET' ? rng.hex(12) : type === 'DISK_SERIAL_NUM' ? rng.hex(8) : `9-${rng.hex(8)}`,
      ),
    poNumber: (offset) => `PO-${day(offset).slice(0, 4)}-${rng.int(10_000, 99_999)}`,
    productByPart: new Map(catalogue.map((x) => [x.partNumber, x])),
    sharedHosts: new Map(),
    customerNumber: 1_000_123,
    rows: {
      accounts: [],
      contacts: [],
      entitlements: [],
      fsaPrices: [],
      licenseServers: [],
      licenseServerAccounts: [],
      fulfillments: [],
      fulfillmentEvents: [],
      emails: [],
      sessionAccounts: [],
      periods: [],
      targets: [],
    },
  };
}

/** Appends an entitlement with the next id (and a fresh activation id unless one is given). */
export function addEntitlement(
  ctx: WorldContext,
  row: Omit<EntitlementRow, 'id' | 'activationId'> & { activationId?: string },
): EntitlementRow {
  const e: EntitlementRow = {
    id: ctx.rows.entitlements.length + 1,
    activationId: row.activationId ?? ctx.activationId(),
    ...row,
  };
  ctx.rows.entitlements.push(e);
  return e;
}
