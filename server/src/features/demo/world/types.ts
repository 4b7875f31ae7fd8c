import type {
  accounts,
  alerts,
  emails,
  entitlements,
  features,
  fsaPrices,
  fulfillmentEvents,
  fulfillments,
  licenseServerAccounts,
  licenseServers,
  portalContacts,
  products,
} from '../../../db/schema.ts';

/** The demo world's row types and plans, shared by the per-area generators in this folder. */

export type AccountRow = typeof accounts.$inferInsert;
export type ContactRow = typeof portalContacts.$inferInsert;
export type ProductRow = typeof products.$inferInsert;
export type EntitlementRow = typeof entitlements.$inferInsert & { id: number };
export type FsaPriceRow = typeof fsaPrices.$inferInsert;
export type ServerRow = typeof licenseServers.$inferInsert & { id: number };
export type ServerAccountRow = typeof licenseServerAccounts.$inferInsert;
/** `parentId`: the source fulfillment when this one was created by a rehost (null otherwise). */
export type FulfillmentRow = typeof fulfillments.$inferInsert & {
  id: number;
  count: number;
  parentId: number | null;
};
/** `lifecycleAction`: new, return, deactivate or rehost; `parentFulfillmentId` on a rehost target's creations. */
export type FulfillmentEventRow = typeof fulfillmentEvents.$inferInsert & {
  lifecycleAction: 'new' | 'return' | 'deactivate' | 'rehost';
  parentFulfillmentId: number | null;
};
export type EmailRow = typeof emails.$inferInsert & { id: number };
export type AlertRow = typeof alerts.$inferInsert & { id: number };
export type FeatureRow = typeof features.$inferInsert;

export interface DemoUser {
  id: string;
  email: string;
  name: string;
  vendorRoles: string[];
}

export interface SessionAccount {
  customerNumber: string;
  weight: number;
  /** The account's elastic license server (its host id; usage_sessions.server_id). */
  elasticServerId: string;
  hostPrefix: string;
  cloud: boolean;
  userOffset: number;
  /** first three octets of the account's public addresses */
  ipPrefix: string;
  ipBase: number;
}

/** An elastic entitlement's validity in "days before today" (a session on day today-d belongs to it when to <= d <= from). */
export interface ElasticPeriod {
  customerNumber: string;
  entitlementId: number;
  fromDaysAgo: number;
  toDaysAgo: number;
  currency: string;
}

/** After sessions exist, the entitlement's quantity is set so that usage is this fraction of it (1 = used up). */
export interface ElasticTarget {
  entitlementId: number;
  usedFraction: number;
}

export interface DemoWorld {
  today: string;
  users: DemoUser[];
  accounts: AccountRow[];
  contacts: ContactRow[];
  products: ProductRow[];
  entitlements: EntitlementRow[];
  fsaPrices: FsaPriceRow[];
  licenseServers: ServerRow[];
  licenseServerAccounts: ServerAccountRow[];
  fulfillments: FulfillmentRow[];
  fulfillmentEvents: FulfillmentEventRow[];
  emails: EmailRow[];
  alerts: AlertRow[];
  features: FeatureRow[];
  sessionPlan: {
    accounts: SessionAccount[];
    periods: ElasticPeriod[];
    targets: ElasticTarget[];
    products: { name: string; hpc: boolean }[];
  };
  /** Every elastic product priced in every rate table version (older tables are a little cheaper). */
  rateTables: { version: string; product: string; rate: number }[];
}

export type OrgType = 'Direct' | 'Channel' | 'Indirect' | 'Undefined';
export type ElasticPlan = 'none' | 'full' | 'expired' | 'future';

export interface AccountPlan {
  name: string;
  domain: string;
  orgType: OrgType;
  exportStatus: string;
  accessDisabled: boolean;
  fnp: boolean;
  supportEmail?: string;
  ssl: number;
  shared: boolean;
  named: boolean;
  elastic: ElasticPlan;
  currency: 'USD' | 'EUR';
  elasticFraction: number;
  futureElastic: boolean;
  fsa: boolean;
  fsaFraction: number;
  servers: ServerPlan[];
  cloud: boolean;
  weight: number;
  contacts: [string, string][];
  emails?: number;
}

export interface ServerPlan {
  name: string;
  type: 'ETHERNET' | 'DISK_SERIAL_NUM' | 'FLEXID';
  triad: boolean;
  inactive: boolean;
  /** Same host (ids and name) as this server of another account: a shared license server. */
  shareKey?: string;
  /** Rehosted some time ago to a new host of this name (same id type): this one is then Inactive. */
  rehostTo?: string;
}
