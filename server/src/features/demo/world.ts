import { formatAmount } from '@lp/domain/amounts';
import { contactRoles } from '@lp/domain/policy';
import type {
  accounts,
  alerts,
  emails,
  entitlements,
  features,
  fsaPrices,
  fulfillments,
  licenseServers,
  portalContacts,
  products,
} from '../../db/schema.ts';
import {
  type CatalogueProduct,
  products as catalogue,
  companyForms,
  companyStems,
  companySuffixes,
  daemons,
  ELASTIC_PART,
  FSA_CONTRACT_PART,
  FSA_MANUAL_PART,
  firstNames,
  lastNames,
  rateTableVersions,
  sslProducts,
} from './catalogue.ts';
import { Rng } from './prng.ts';

/**
 * The demo world as plain rows: a pure function of (seed, today), so the same seed on the same UTC day gives
 * identical data. Usage sessions are not listed here (they are generated inside the database, see seed.ts);
 * `sessionPlan` carries what that SQL needs.
 */

type AccountRow = typeof accounts.$inferInsert;
type ContactRow = typeof portalContacts.$inferInsert;
type ProductRow = typeof products.$inferInsert;
type EntitlementRow = typeof entitlements.$inferInsert & { id: number };
type FsaPriceRow = typeof fsaPrices.$inferInsert;
type ServerRow = typeof licenseServers.$inferInsert & { id: number };
type FulfillmentRow = typeof fulfillments.$inferInsert & { id: number };
type EmailRow = typeof emails.$inferInsert & { id: number };
type AlertRow = typeof alerts.$inferInsert & { id: number };
type FeatureRow = typeof features.$inferInsert;

export interface DemoUser {
  id: string;
  email: string;
  name: string;
  vendorRoles: string[];
}

export interface SessionAccount {
  customerNumber: string;
  weight: number;
  serverId: string;
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
  fulfillments: FulfillmentRow[];
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

export const vendorStaff = [
  { email: 'busops@demo.example', name: 'Brenda Okafor', vendorRoles: ['busops'] },
  { email: 'support@demo.example', name: 'Sven Lindqvist', vendorRoles: ['support'] },
  { email: 'sales@demo.example', name: 'Carla Mendes', vendorRoles: ['sales'] },
  { email: 'salesaccess@demo.example', name: 'Tom Becker', vendorRoles: ['salesaccess'] },
  { email: 'admin@demo.example', name: 'Avery Stone', vendorRoles: ['admin'] },
];

/** Customer users who can sign in; their per-account roles are set by the designed accounts below. */
export const customerUsers = [
  { email: 'admin@acme.example', name: 'Alex Morgan' },
  { email: 'engineer@acme.example', name: 'Sam Lee' },
  { email: 'coordinator@acme.example', name: 'Dana Whitfield' },
  { email: 'newhire@acme.example', name: 'Riley Chen' },
  { email: 'admin@northwind.example', name: 'Morgan Blake' },
  { email: 'viewer@contoso.example', name: 'Kai Andersen' },
  { email: 'licensing@fabrikam.example', name: 'Hiro Yamamoto' },
  { email: 'cad@tailspin.example', name: 'Pat Quinn' },
  { email: 'ops@litware.example', name: 'Noor Haddad' },
  { email: 'jamie.rivera@proseware.example', name: 'Jamie Rivera (External)' },
];

type OrgType = 'Direct' | 'Channel' | 'Indirect' | 'Undefined';
type ElasticPlan = 'none' | 'full' | 'expired' | 'future';

interface AccountPlan {
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

interface ServerPlan {
  name: string;
  type: 'ETHERNET' | 'DISK_SERIAL_NUM' | 'FLEXID';
  triad: boolean;
  inactive: boolean;
  /** Same host (ids and name) as this server of another account: a shared license server. */
  shareKey?: string;
}

const { admin, viewer, coordinator } = contactRoles;

const designed: AccountPlan[] = [
  {
    name: 'Acme Aerospace Inc.',
    domain: 'acme.example',
    orgType: 'Direct',
    exportStatus: 'Approved',
    accessDisabled: false,
    fnp: false,
    supportEmail: 'cae-support@acme.example',
    ssl: 45,
    shared: true,
    named: true,
    elastic: 'full',
    currency: 'USD',
    elasticFraction: 0.62,
    futureElastic: true,
    fsa: true,
    fsaFraction: 0.55,
    servers: [
      { name: 'licsrv01', type: 'ETHERNET', triad: false, inactive: false },
      {
        name: 'lic-a1,lic-a2,lic-a3',
        type: 'ETHERNET',
        triad: true,
        inactive: false,
        shareKey: 'acme-triad',
      },
      { name: 'cfd-lic02', type: 'DISK_SERIAL_NUM', triad: false, inactive: false },
      { name: 'lab-dongle', type: 'FLEXID', triad: false, inactive: false },
      { name: 'old-licsrv', type: 'ETHERNET', triad: false, inactive: true },
    ],
    cloud: true,
    weight: 8,
    contacts: [
      ['admin@acme.example', admin],
      ['engineer@acme.example', viewer],
      ['coordinator@acme.example', coordinator],
      ['j.okafor@acme.example', admin],
      ['cae-team@acme.example', viewer],
    ],
    emails: 32,
  },
  {
    name: 'Acme Automotive GmbH',
    domain: 'acme.example',
    orgType: 'Direct',
    exportStatus: 'approved',
    accessDisabled: false,
    fnp: false,
    supportEmail: 'it-support@acme.example,licensing@acme.example',
    ssl: 20,
    shared: false,
    named: true,
    elastic: 'full',
    currency: 'EUR',
    elasticFraction: 0.86,
    futureElastic: false,
    fsa: true,
    fsaFraction: 0.97,
    servers: [
      {
        name: 'lic-a1,lic-a2,lic-a3',
        type: 'ETHERNET',
        triad: true,
        inactive: false,
        shareKey: 'acme-triad',
      },
      { name: 'auto-lic01', type: 'DISK_SERIAL_NUM', triad: false, inactive: false },
    ],
    cloud: false,
    weight: 5,
    contacts: [
      ['admin@acme.example', admin],
      ['coordinator@acme.example', coordinator],
      ['m.weber@acme.example', viewer],
    ],
  },
  {
    name: 'Acme Energy Systems Ltd.',
    domain: 'acme.example',
    orgType: 'Channel',
    exportStatus: '',
    accessDisabled: false,
    fnp: false,
    ssl: 12,
    shared: true,
    named: false,
    elastic: 'none',
    currency: 'USD',
    elasticFraction: 0,
    futureElastic: false,
    fsa: false,
    fsaFraction: 0,
    servers: [
      { name: 'energy-lic01', type: 'ETHERNET', triad: false, inactive: false },
      { name: 'energy-lic02', type: 'FLEXID', triad: false, inactive: true },
    ],
    cloud: false,
    weight: 0,
    contacts: [
      ['admin@acme.example', viewer],
      ['l.jensen@acme.example', admin],
    ],
  },
  {
    name: 'Acme Research Labs LLC',
    domain: 'acme.example',
    orgType: 'Indirect',
    exportStatus: 'Pending',
    accessDisabled: false,
    fnp: false,
    ssl: 8,
    shared: false,
    named: false,
    elastic: 'full',
    currency: 'USD',
    elasticFraction: 0.3,
    futureElastic: false,
    fsa: false,
    fsaFraction: 0,
    servers: [{ name: 'research-lic', type: 'ETHERNET', triad: false, inactive: false }],
    cloud: false,
    weight: 1,
    contacts: [['admin@acme.example', admin]],
  },
  {
    name: 'Acme Marine B.V.',
    domain: 'acme.example',
    orgType: 'Undefined',
    exportStatus: 'Approved',
    accessDisabled: false,
    fnp: false,
    ssl: 6,
    shared: false,
    named: false,
    elastic: 'full',
    currency: 'USD',
    elasticFraction: 1,
    futureElastic: false,
    fsa: false,
    fsaFraction: 0,
    servers: [],
    cloud: false,
    weight: 2,
    contacts: [['admin@acme.example', admin]],
  },
  {
    name: 'Northwind Turbines Inc.',
    domain: 'northwind.example',
    orgType: 'Direct',
    exportStatus: 'Approved',
    accessDisabled: false,
    fnp: false,
    supportEmail: 'licensing@northwind.example',
    ssl: 15,
    shared: false,
    named: false,
    elastic: 'full',
    currency: 'USD',
    elasticFraction: 0.45,
    futureElastic: true,
    fsa: true,
    fsaFraction: 0.3,
    servers: [
      { name: 'nw-lic01', type: 'ETHERNET', triad: false, inactive: false },
      { name: 'nw-lic02,nw-lic03,nw-lic04', type: 'DISK_SERIAL_NUM', triad: true, inactive: false },
    ],
    cloud: true,
    weight: 4,
    contacts: [
      ['admin@northwind.example', admin],
      ['s.patel@northwind.example', viewer],
    ],
  },
  {
    name: 'Contoso Motors AG',
    domain: 'contoso.example',
    orgType: 'Channel',
    exportStatus: '',
    accessDisabled: false,
    fnp: false,
    ssl: 10,
    shared: false,
    named: false,
    elastic: 'full',
    currency: 'EUR',
    elasticFraction: 0.7,
    futureElastic: false,
    fsa: false,
    fsaFraction: 0,
    servers: [{ name: 'contoso-lic', type: 'ETHERNET', triad: false, inactive: false }],
    cloud: false,
    weight: 3,
    contacts: [
      ['viewer@contoso.example', viewer],
      ['e.rossi@contoso.example', admin],
    ],
  },
  {
    name: 'Fabrikam Semiconductors K.K.',
    domain: 'fabrikam.example',
    orgType: 'Direct',
    exportStatus: 'approved',
    accessDisabled: true,
    fnp: true,
    supportEmail: 'eda-admin@fabrikam.example',
    ssl: 9,
    shared: false,
    named: false,
    elastic: 'none',
    currency: 'USD',
    elasticFraction: 0,
    futureElastic: false,
    fsa: false,
    fsaFraction: 0,
    servers: [{ name: 'fab-lic01', type: 'FLEXID', triad: false, inactive: false }],
    cloud: false,
    weight: 0,
    contacts: [['licensing@fabrikam.example', viewer]],
  },
  {
    name: 'Tailspin Defense Systems Corp.',
    domain: 'tailspin.example',
    orgType: 'Direct',
    exportStatus: 'Denied',
    accessDisabled: false,
    fnp: false,
    ssl: 7,
    shared: false,
    named: false,
    elastic: 'full',
    currency: 'USD',
    elasticFraction: 0.5,
    futureElastic: false,
    fsa: false,
    fsaFraction: 0,
    servers: [{ name: 'ts-lic01', type: 'ETHERNET', triad: false, inactive: false }],
    cloud: false,
    weight: 1,
    contacts: [['cad@tailspin.example', admin]],
  },
  {
    name: 'Litware Medical Devices Oy',
    domain: 'litware.example',
    orgType: 'Indirect',
    exportStatus: 'Approved',
    accessDisabled: false,
    fnp: true,
    ssl: 5,
    shared: false,
    named: false,
    elastic: 'full',
    currency: 'EUR',
    elasticFraction: 0.92,
    futureElastic: false,
    fsa: false,
    fsaFraction: 0,
    servers: [],
    cloud: true,
    weight: 3,
    contacts: [['ops@litware.example', admin]],
  },
  {
    name: 'Proseware Photonics S.A.',
    domain: 'proseware.example',
    orgType: 'Direct',
    exportStatus: '',
    accessDisabled: true,
    fnp: false,
    supportEmail: 'optics-it@proseware.example',
    ssl: 6,
    shared: false,
    named: false,
    elastic: 'expired',
    currency: 'USD',
    elasticFraction: 0,
    futureElastic: false,
    fsa: true,
    fsaFraction: 0.8,
    servers: [{ name: 'optics-lic', type: 'DISK_SERIAL_NUM', triad: false, inactive: false }],
    cloud: false,
    weight: 0,
    contacts: [['jamie.rivera@proseware.example', admin]],
  },
];

const DAY = 86_400_000;
const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '');
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** Today's UTC date as 'YYYY-MM-DD': the anchor that keeps demo data recent. */
export const utcToday = (now = new Date()) => now.toISOString().slice(0, 10);

export function buildWorld(seed: number, today: string): DemoWorld {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new Error(`today must be YYYY-MM-DD, got ${today}`);
  const rng = new Rng(seed);
  const anchor = Date.parse(`${today}T00:00:00Z`);
  const day = (offset: number) => new Date(anchor + offset * DAY).toISOString().slice(0, 10);
  const at = (offset: number, secondOfDay: number) => new Date(anchor + offset * DAY + secondOfDay * 1000);
  const workTime = () => rng.int(7 * 3600, 19 * 3600);
  const daysFromToday = (date: string) => Math.round((Date.parse(`${date}T00:00:00Z`) - anchor) / DAY);
  const flexDate = (date: string) => {
    const [y, m, d] = date.split('-');
    return `${d}-${months[Number(m) - 1]}-${y}`;
  };

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
  const activationId = () => unique(() => `${rng.hex(4)}-${rng.hex(4)}-${rng.hex(4)}-${rng.hex(4)}`);
  const hostId = (type: ServerPlan['type']) =>
    unique(() =>
      type === 'ETHERNET' ? rng.hex(12) : type === 'DISK_SERIAL_NUM' ? rng.hex(8) : `9-${rng.hex(8)}`,
    );

  // ---- users
  const users: DemoUser[] = [
    ...vendorStaff,
    ...customerUsers.map((u) => ({ ...u, vendorRoles: [] as string[] })),
  ].map((u) => ({ id: rng.uuid(), ...u }));

  // ---- account plans: the designed ones first (lowest customer numbers, so they are the default selection)
  const plans: AccountPlan[] = [...designed];
  const names = new Set(plans.map((x) => x.name));
  const roleOf = () =>
    rng.weighted([
      [admin, 4],
      [viewer, 5],
      [coordinator, 1],
    ] as const);
  while (plans.length < 50) {
    const stem = rng.pick(companyStems);
    const name = `${stem} ${rng.pick(companySuffixes)} ${rng.pick(companyForms)}`;
    if (names.has(name)) continue;
    names.add(name);
    const domain = `${slug(stem)}.example`;
    const ssl = rng.chance(0.2) ? 0 : rng.int(3, 18);
    const elastic = rng.weighted<ElasticPlan>([
      ['full', 35],
      ['expired', 5],
      ['future', 4],
      ['none', 56],
    ]);
    const contacts: [string, string][] = [];
    for (let i = rng.int(1, 3); i > 0; i--) {
      const email = `${rng.pick(firstNames)}.${rng.pick(lastNames)}@${domain}`.toLowerCase();
      if (!contacts.some(([e]) => e === email)) contacts.push([email, roleOf()]);
    }
    const servers: ServerPlan[] = [];
    for (let i = ssl > 0 ? rng.int(0, 3) : 0; i > 0; i--) {
      const triad = rng.chance(0.15);
      const base = `${slug(stem).slice(0, 8)}-lic${String(servers.length + 1).padStart(2, '0')}`;
      servers.push({
        name: triad ? `${base}a,${base}b,${base}c` : base,
        type: rng.weighted([
          ['ETHERNET', 6],
          ['DISK_SERIAL_NUM', 3],
          ['FLEXID', 1.5],
        ] as const),
        triad,
        inactive: rng.chance(0.15),
      });
    }
    const supportKind = rng.int(0, 9);
    plans.push({
      name,
      domain,
      orgType: rng.weighted<OrgType>([
        ['Direct', 45],
        ['Channel', 20],
        ['Indirect', 20],
        ['Undefined', 15],
      ]),
      exportStatus: rng.weighted([
        ['', 40],
        ['Approved', 25],
        ['approved', 10],
        ['Pending', 12],
        ['Denied', 8],
        ['APPROVED', 5],
      ] as const),
      accessDisabled: rng.chance(0.1),
      fnp: rng.chance(0.08),
      supportEmail:
        supportKind < 6 ? `licensing@${domain}` : supportKind < 8 ? `it-support@${domain},cae@${domain}` : '',
      ssl,
      shared: ssl > 0 && rng.chance(0.25),
      named: ssl > 0 && rng.chance(0.2),
      elastic,
      currency: rng.chance(0.3) ? 'EUR' : 'USD',
      elasticFraction: rng.pick([0.15, 0.35, 0.5, 0.68, 0.82, 0.9, 0.96, 1]),
      futureElastic: rng.chance(0.3),
      fsa: rng.chance(0.2),
      fsaFraction: rng.pick([0.2, 0.45, 0.7, 0.85, 0.96]),
      servers,
      cloud: rng.chance(0.3),
      weight: rng.int(1, 3),
      contacts,
    });
  }

  const accountRows: AccountRow[] = [];
  const contactRows: ContactRow[] = [];
  const entitlementRows: EntitlementRow[] = [];
  const priceRows: FsaPriceRow[] = [];
  const serverRows: ServerRow[] = [];
  const fulfillmentRows: FulfillmentRow[] = [];
  const emailRows: EmailRow[] = [];
  const sessionAccounts: SessionAccount[] = [];
  const periods: ElasticPeriod[] = [];
  const targets: ElasticTarget[] = [];
  const sharedHosts = new Map<string, { hostId: string }>();
  let customerNumber = 1_000_123;
  let entitlementId = 0;
  let serverId = 0;
  let fulfillmentId = 0;
  let emailId = 0;
  const addEntitlement = (row: Omit<EntitlementRow, 'id' | 'activationId'> & { activationId?: string }) => {
    const e: EntitlementRow = {
      id: ++entitlementId,
      activationId: row.activationId ?? activationId(),
      ...row,
    };
    entitlementRows.push(e);
    return e;
  };
  const productByPart = new Map(catalogue.map((x) => [x.partNumber, x]));

  for (const [index, plan] of plans.entries()) {
    const cn = String(customerNumber);
    customerNumber += rng.int(7, 97);
    accountRows.push({
      customerNumber: cn,
      name: plan.name,
      orgType: plan.orgType,
      exportControlStatus: plan.exportStatus,
      supportEmail: plan.supportEmail ?? '',
      isAccessDisabled: plan.accessDisabled,
      isFnpLicenseGenerator: plan.fnp,
      createdAt: at(-rng.int(400, 3000), workTime()),
    });
    for (const [email, role] of plan.contacts) contactRows.push({ customerNumber: cn, email, role });
    const people = [...plan.contacts.map(([e]) => e), 'Automated Action', 'support@demo.example'];

    // ---- leases and perpetuals
    const allowed = sslProducts.filter(
      (x) =>
        (x.licenseType === 'server' && x.partNumber !== FSA_MANUAL_PART) ||
        (x.licenseType === 'shared' && plan.shared) ||
        (x.licenseType === 'named' && plan.named),
    );
    const forced = [
      'active',
      'perpetual',
      'expired',
      'active-30',
      'not-started',
      'evaluation',
      'perpetual-maintenance-expired',
      'active-90',
      'evaluation-expired',
    ];
    const ssl: EntitlementRow[] = [];
    for (let k = 0; k < plan.ssl; k++) {
      let product: CatalogueProduct;
      if (k === 1 && plan.shared) product = rng.pick(allowed.filter((x) => x.licenseType === 'shared'));
      else if (k === 2 && plan.named) product = rng.pick(allowed.filter((x) => x.licenseType === 'named'));
      else product = rng.pick(allowed);
      const scenario =
        plan.ssl >= forced.length && k < forced.length
          ? forced[k]
          : rng.weighted([
              ['active', 45],
              ['perpetual', 15],
              ['expired', 14],
              ['active-30', 5],
              ['active-90', 6],
              ['not-started', 5],
              ['evaluation', 4],
              ['evaluation-expired', 3],
              ['perpetual-maintenance-expired', 3],
            ] as const);
      const duration = rng.pick([365, 730, 1095]);
      let start: number;
      let end: number | null;
      let versionDate: string | null = null;
      switch (scenario) {
        case 'active':
          end = rng.int(91, 700);
          start = Math.min(end - duration + 1, -rng.int(1, 60));
          break;
        case 'active-30':
          end = rng.int(1, 30);
          start = end - 364;
          break;
        case 'active-90':
          end = rng.int(31, 90);
          start = end - 364;
          break;
        case 'expired':
          end = -rng.int(1, 500);
          start = end - duration + 1;
          break;
        case 'not-started':
          start = rng.int(1, 60);
          end = start + 364;
          break;
        case 'evaluation':
          start = -rng.int(1, 20);
          end = start + 29;
          break;
        case 'evaluation-expired':
          start = -rng.int(40, 200);
          end = start + 29;
          break;
        default:
          start = -rng.int(100, 2000);
          end = null;
          versionDate = day(scenario === 'perpetual' ? rng.int(30, 365) : -rng.int(10, 400));
      }
      const quantity = product.hpc
        ? rng.pick([8, 16, 32, 64, 128])
        : product.licenseType === 'server'
          ? rng.weighted([
              [1, 4],
              [2, 3],
              [rng.int(3, 10), 3],
              [rng.int(11, 40), 1],
            ] as const)
          : rng.int(5, 50);
      ssl.push(
        addEntitlement({
          customerNumber: cn,
          kind: 'SSL',
          licenseModel: end === null ? 'Perpetual' : 'Lease',
          licenseType: product.licenseType,
          partNumber: product.partNumber,
          quantity,
          startDate: day(start),
          endDate: end === null ? null : day(end),
          versionDate,
          isEvaluation: scenario.startsWith('evaluation'),
        }),
      );
    }

    // ---- elastic (Elastic-AEU) entitlements
    const poNumber = (offset: number) => `PO-${day(offset).slice(0, 4)}-${rng.int(10_000, 99_999)}`;
    let elasticServer: ServerRow | undefined;
    if (plan.elastic !== 'none') {
      serverId += 1;
      elasticServer = {
        id: serverId,
        customerNumber: cn,
        name: 'Elastic License Server',
        hostId: hostId('ETHERNET'),
        hostIdType: 'ETHERNET',
        kind: 'elastic',
        alias: `${plan.name.split(' ').slice(0, 2).map(slug).join('-')}-cls`,
        state: 'ACTIVE',
      };
      serverRows.push(elasticServer);
      const elastic = (start: number, end: number, version: string, quantity: number) =>
        addEntitlement({
          customerNumber: cn,
          kind: 'ELASTIC',
          licenseModel: 'Elastic-AEU',
          licenseType: 'server',
          partNumber: ELASTIC_PART,
          quantity,
          startDate: day(start),
          endDate: day(end),
          poNumber: poNumber(start),
          rateTableVersion: version,
          currency: plan.currency,
        });
      if (plan.elastic === 'full') {
        // Two back-to-back periods cover the 13 months of usage history without gaps or overlaps.
        const oldStart = -rng.int(400, 460);
        const oldEnd = -rng.int(100, 200);
        const curEnd = oldEnd + 365;
        const old = elastic(oldStart, oldEnd, rng.pick(rateTableVersions.slice(0, 2)), 0);
        const cur = elastic(oldEnd + 1, curEnd, rng.pick(rateTableVersions.slice(2)), 0);
        periods.push(
          {
            customerNumber: cn,
            entitlementId: old.id,
            fromDaysAgo: -oldStart,
            toDaysAgo: -oldEnd,
            currency: plan.currency,
          },
          {
            customerNumber: cn,
            entitlementId: cur.id,
            fromDaysAgo: -(oldEnd + 1),
            toDaysAgo: -curEnd,
            currency: plan.currency,
          },
        );
        targets.push(
          { entitlementId: old.id, usedFraction: rng.pick([0.78, 0.93, 1]) },
          { entitlementId: cur.id, usedFraction: plan.elasticFraction },
        );
        if (plan.futureElastic)
          elastic(curEnd + 1, curEnd + 365, rateTableVersions[3], rng.int(20, 100) * 1000);
        sessionAccounts.push({
          customerNumber: cn,
          weight: Math.max(plan.weight, 1),
          serverId: elasticServer.hostId,
          hostPrefix: slug(plan.name.split(' ')[0]),
          cloud: plan.cloud,
          userOffset: rng.int(0, 39),
          ipPrefix: rng.pick(['203.0.113', '198.51.100', '192.0.2']),
          ipBase: rng.int(10, 240),
        });
      } else if (plan.elastic === 'expired') {
        const start = -rng.int(800, 900);
        elastic(start, start + 364, rateTableVersions[0], rng.int(10, 60) * 1000);
      } else {
        const start = rng.int(5, 40);
        elastic(start, start + 364, rateTableVersions[3], rng.int(20, 100) * 1000);
      }
    }

    // ---- FSA contracts, their price tables and the leases ordered against them
    const fsaLines: EntitlementRow[] = [];
    if (plan.fsa) {
      const orderable = rng.shuffle(catalogue.filter((x) => x.annualPrice)).slice(0, rng.int(8, 11));
      const fx = plan.currency === 'EUR' ? 0.92 : 1;
      const contract = (start: number, end: number, orders: number, fraction: number, manual: boolean) => {
        const po = poNumber(start);
        const c = addEntitlement({
          customerNumber: cn,
          kind: 'FSA',
          licenseModel: 'FSA',
          licenseType: 'server',
          partNumber: FSA_CONTRACT_PART,
          quantity: 1,
          startDate: day(start),
          endDate: day(end),
          poNumber: po,
          currency: plan.currency,
          price: 0,
        });
        const prices = new Map<string, Map<number, number | null>>();
        for (const product of orderable) {
          const a = Math.round(product.annualPrice! * fx);
          const table = new Map<number, number | null>([
            [7, rng.chance(0.3) ? null : Math.round(a * 0.035)],
            [30, Math.round(a * 0.11)],
            [60, Math.round(a * 0.2)],
            [90, Math.round(a * 0.28)],
            [180, rng.chance(0.1) ? null : Math.round(a * 0.52)],
            [365, a],
          ]);
          prices.set(product.partNumber, table);
          priceRows.push({
            contractId: c.id,
            partNumber: product.partNumber,
            price7Days: table.get(7),
            price30Days: table.get(30),
            price60Days: table.get(60),
            price90Days: table.get(90),
            price180Days: table.get(180),
            price1Year: table.get(365),
          });
        }
        let used = 0;
        const elapsed = Math.max(Math.min(-start, end - start), 0);
        for (let i = 0; i < orders && elapsed > 0; i++) {
          const product = rng.pick(orderable);
          const table = prices.get(product.partNumber)!;
          const period = rng.pick([...table].filter(([, v]) => v !== null).map(([k]) => k));
          const orderDay = start + rng.int(0, elapsed - 1);
          const lineStart = Math.min(orderDay + rng.int(0, 14), end - 1);
          const count = rng.weighted([
            [1, 5],
            [2, 3],
            [rng.int(3, 6), 1],
          ] as const);
          const cost = count * table.get(period)!;
          used += cost;
          fsaLines.push(
            addEntitlement({
              customerNumber: cn,
              kind: 'SSL',
              licenseModel: 'Lease',
              licenseType: 'server',
              partNumber: product.partNumber,
              quantity: count,
              startDate: day(lineStart),
              endDate: day(Math.min(lineStart + period - 1, end)),
              poNumber: po,
              currency: plan.currency,
              price: cost,
              fsaContractId: c.id,
              orderedAt: at(orderDay, workTime()),
              orderedBy: rng.pick([...plan.contacts.map(([e]) => e), 'busops@demo.example']),
            }),
          );
        }
        if (manual && elapsed > 0) {
          const orderDay = start + rng.int(0, elapsed - 1);
          const cost = rng.int(3, 12) * 1250;
          used += cost;
          fsaLines.push(
            addEntitlement({
              customerNumber: cn,
              kind: 'SSL',
              licenseModel: 'Lease',
              licenseType: 'shared',
              partNumber: FSA_MANUAL_PART,
              productName: 'Fluids Solver - Shared Web',
              quantity: rng.int(5, 20),
              startDate: day(orderDay),
              endDate: day(Math.min(orderDay + 364, end)),
              poNumber: po,
              currency: plan.currency,
              price: cost,
              fsaContractId: c.id,
              orderedAt: at(orderDay, workTime()),
              orderedBy: 'busops@demo.example',
            }),
          );
        }
        // The budget is chosen so that the contract shows the planned used percentage.
        c.price = fraction >= 1 ? used : Math.max(Math.ceil(used / fraction / 1000) * 1000, 50_000);
        return c;
      };
      const start = -rng.int(60, 300);
      contract(start, start + 729, rng.int(5, 12), plan.fsaFraction, index === 0 || rng.chance(0.4));
      if (index === 0 || rng.chance(0.5)) {
        const old = -rng.int(800, 900);
        contract(old, old + 364, rng.int(2, 4), rng.pick([0.9, 1]), false);
      }
      if (index === 1 || rng.chance(0.2)) {
        const next = rng.int(10, 40);
        contract(next, next + 364, 0, 1, false).price = rng.int(5, 30) * 10_000;
      }
    }

    // ---- license servers and their fulfillment history
    const activatable = [...ssl, ...fsaLines].filter(
      (e) =>
        e.partNumber !== FSA_MANUAL_PART &&
        daysFromToday(e.startDate) < -7 &&
        (e.endDate === null || daysFromToday(e.endDate!) > 0),
    );
    const available = new Map(activatable.map((e) => [e.id, e.quantity]));
    const net = new Map<number, Map<number, number>>();
    const fulfil = (server: ServerRow, e: EntitlementRow, count: number, time: Date, who: string) => {
      fulfillmentRows.push({
        id: ++fulfillmentId,
        serverId: server.id,
        entitlementId: e.id,
        count,
        action: count > 0 ? 'ACTIVATE' : 'RETURN',
        time,
        modifiedBy: who,
      });
      available.set(e.id, available.get(e.id)! - count);
      const perServer = net.get(server.id) ?? new Map<number, number>();
      perServer.set(e.id, (perServer.get(e.id) ?? 0) + count);
      net.set(server.id, perServer);
    };
    const licenseServersOfAccount: ServerRow[] = [];
    for (const sp of plan.servers) {
      const shared = sp.shareKey ? sharedHosts.get(sp.shareKey) : undefined;
      const id =
        shared?.hostId ??
        (sp.triad ? [hostId(sp.type), hostId(sp.type), hostId(sp.type)].join(',') : hostId(sp.type));
      if (sp.shareKey && !shared) sharedHosts.set(sp.shareKey, { hostId: id });
      serverId += 1;
      const server: ServerRow = {
        id: serverId,
        customerNumber: cn,
        name: sp.name,
        hostId: id,
        hostIdType: sp.triad ? [sp.type, sp.type, sp.type].join(',') : sp.type,
        kind: sp.triad ? 'triad' : 'single',
        alias: null,
        state: sp.inactive ? 'INACTIVE' : 'ACTIVE',
      };
      serverRows.push(server);
      licenseServersOfAccount.push(server);
      // First group: several entitlements activated within a few seconds (one history group of spec 002).
      const t0 = -rng.int(20, 330);
      let t = at(t0, workTime()).getTime();
      const who = rng.pick(people);
      const first = rng
        .shuffle(activatable.filter((e) => daysFromToday(e.startDate) <= t0 && available.get(e.id)! > 0))
        .slice(0, rng.int(2, 6));
      for (const e of first) {
        fulfil(server, e, rng.int(1, available.get(e.id)!), new Date(t), who);
        t += rng.int(1, 4) * 1000;
      }
      if (first.length === 0) continue;
      if (sp.inactive) {
        // Deactivated host: everything returned in one later group.
        let t2 = at(t0 + rng.int(5, -t0 - 1), workTime()).getTime();
        for (const [eid, n] of net.get(server.id)!) {
          if (n > 0) {
            fulfil(server, entitlementRows[eid - 1], -n, new Date(t2), 'Automated Action');
            t2 += 2000;
          }
        }
      } else if (rng.chance(0.7) && -t0 > 3) {
        // A later change: part of one activation returned, another product added.
        let t2 = at(t0 + rng.int(2, -t0 - 1), workTime()).getTime();
        const who2 = rng.pick(people);
        const back = first[0];
        const n = net.get(server.id)!.get(back.id)!;
        if (n > 1) {
          fulfil(server, back, -rng.int(1, n - 1), new Date(t2), who2);
          t2 += 3000;
        }
        const more = activatable.find((e) => !first.includes(e) && available.get(e.id)! > 0);
        if (more && daysFromToday(more.startDate) <= t0)
          fulfil(server, more, rng.int(1, available.get(more.id)!), new Date(t2), who2);
      }
    }

    // ---- e-mails sent to the account
    const to = plan.supportEmail || plan.contacts[0]?.[0] || `licensing@${plan.domain}`;
    const emailCount =
      plan.emails ??
      (plan.orgType === 'Direct' || plan.orgType === 'Channel' ? rng.int(6, 18) : rng.int(0, 4));
    const kinds: string[] = ['access', 'expiry'];
    const licensed = licenseServersOfAccount.filter((x) => x.state === 'ACTIVE' && net.has(x.id));
    if (licensed.length) kinds.push('license', 'license');
    if (plan.elastic === 'full') kinds.push('weekly', 'weekly', 'monthly');
    if (plan.fsa) kinds.push('fsa');
    for (let i = 0; i < emailCount; i++) {
      const offset = -rng.int(0, 395);
      const kind = rng.pick(kinds);
      let sent = at(offset, workTime());
      const greeting = `<p>Dear ${esc(plan.name)} licensing contact,</p>`;
      const footer =
        '<p>Kind regards,<br>Licensing Operations</p><p style="color:#888">This message was sent automatically by the Licensing Portal. Please do not reply.</p>';
      let subject: string;
      let body: string;
      if (kind === 'license') {
        const server = rng.pick(licensed);
        const lines = [...(net.get(server.id) ?? new Map<number, number>())]
          .filter(([, n]) => n > 0)
          .map(([eid, n]) => {
            const e = entitlementRows[eid - 1];
            const product = productByPart.get(e.partNumber!)!;
            const exp = e.endDate ? flexDate(e.endDate) : 'permanent';
            return `INCREMENT ${product.featureName} ${product.daemon} ${(e.versionDate ?? e.endDate ?? today).slice(0, 4)}.1231 ${exp} ${n} \\\n    VENDOR_STRING=customer:${cn} ISSUED=${flexDate(day(offset))} SIGN="${rng.hex(4)} ${rng.hex(4)} ${rng.hex(4)} ${rng.hex(4)}"`;
          });
        const servers = server.name
          .split(',')
          .map((n, j) => `SERVER ${n} ${server.hostId.split(',')[j]} 1055`)
          .join('\n');
        subject = `License file for ${server.name} (${server.hostId})`;
        body = `${greeting}<p>The license file for host <b>${esc(server.name)}</b> (${esc(server.hostId)}) was generated. Install it on the license server and restart the license manager.</p><pre>${esc(`${servers}\nVENDOR ${daemons.Platform} PORT=1056\nUSE_SERVER\n${lines.join('\n')}`)}</pre>${footer}`;
      } else if (kind === 'weekly' || kind === 'monthly') {
        const from = kind === 'weekly' ? day(offset - 7) : `${day(offset - 30).slice(0, 7)}-01`;
        const period = kind === 'weekly' ? `${from} to ${day(offset - 1)}` : from.slice(0, 7);
        const used = rng.int(200, 9000) + rng.int(0, 99) / 100;
        subject = `${kind === 'weekly' ? 'Weekly' : 'Monthly'} Elastic Statement: ${plan.name} (${period})`;
        body = `${greeting}<p>Your ${kind} elastic usage statement for <b>${esc(period)}</b> is ready.</p><table border="1" cellpadding="4"><tr><th>Account</th><td>${cn}</td></tr><tr><th>Period used</th><td>${formatAmount(used)} ${plan.currency}</td></tr></table><p>See Elastic Statements in the Licensing Portal for details by purchase order and product.</p>${footer}`;
      } else if (kind === 'fsa') {
        const line = fsaLines.length ? rng.pick(fsaLines) : undefined;
        // The confirmation goes out a few minutes after the order.
        if (line?.orderedAt && line.orderedAt.getTime() < anchor)
          sent = new Date(line.orderedAt.getTime() + 180_000);
        subject = `FSA order confirmation ${line?.poNumber ?? poNumber(offset)}`;
        body = `${greeting}<p>Entitlements were created from your Flexible Spending Account.</p><ul><li>Entitlement: ${line?.activationId ?? '-'}</li><li>Cost: ${formatAmount(line?.price ?? 0)} ${plan.currency}</li></ul>${footer}`;
      } else if (kind === 'expiry') {
        const e = ssl.length ? rng.pick(ssl) : undefined;
        subject = e
          ? `Entitlement ${e.activationId} expires on ${e.endDate ?? 'maintenance end'}`
          : 'Your licensing summary';
        body = `${greeting}<p>${e ? `Entitlement <b>${e.activationId}</b> (${esc(productByPart.get(e.partNumber!)!.name)}) ends on ${e.endDate ?? e.versionDate}. Contact your account manager to renew.` : 'There are no changes to your entitlements this month.'}</p>${footer}`;
      } else {
        const [email, role] = plan.contacts.length
          ? rng.pick(plan.contacts)
          : [`licensing@${plan.domain}`, viewer];
        subject = 'Licensing Portal access updated';
        body = `${greeting}<p>Portal access for <b>${esc(email)}</b> was set to <i>${esc(role)}</i>.</p>${footer}`;
      }
      emailRows.push({ id: ++emailId, customerNumber: cn, to, subject, body, date: sent });
    }
  }

  return {
    today,
    users,
    accounts: accountRows,
    contacts: contactRows,
    products: catalogue.map(({ partNumber, name, family, daemon, featureName }) => ({
      partNumber,
      name,
      family,
      daemon,
      featureName,
    })),
    entitlements: entitlementRows,
    fsaPrices: priceRows,
    licenseServers: serverRows,
    fulfillments: fulfillmentRows,
    emails: emailRows,
    alerts: buildAlerts(at),
    features: buildFeatures(),
    sessionPlan: {
      accounts: sessionAccounts,
      periods,
      targets,
      products: catalogue.filter((x) => x.elasticRate).map((x) => ({ name: x.name, hpc: Boolean(x.hpc) })),
    },
    rateTables: rateTableVersions.flatMap((version, v) =>
      catalogue
        .filter((x) => x.elasticRate)
        .map((x) => ({
          version,
          product: x.name,
          rate: Math.round(x.elasticRate! * (1 - 0.05 * (rateTableVersions.length - 1 - v)) * 100) / 100,
        })),
    ),
  };
}

function buildAlerts(at: (offset: number, secondOfDay: number) => Date): AlertRow[] {
  const h = 3600;
  const link = (n: number) => ({ 'Status page': `https://status.example.com/incidents/${n}` });
  const rows: Omit<AlertRow, 'id'>[] = [
    // Active now, one per category, so every card of the Active tab has content.
    {
      category: 'CRITICAL',
      status: 'ACTIVE',
      date: at(-1, 14 * h),
      expires: at(2, 0),
      services: ['Elastic Licensing'],
      description: 'Elastic license servers in the EU region reject new sessions intermittently.',
      links: { ...link(4711), Workaround: 'https://status.example.com/kb/elastic-eu-retry' },
    },
    {
      category: 'WARNING',
      status: 'ACTIVE',
      date: at(-1, 9 * h),
      expires: null,
      services: ['Usage Reporting', 'Licensing Portal'],
      description: 'Usage transactions are delayed by up to 2 hours.',
      links: link(4712),
    },
    {
      category: 'INFO',
      status: 'ACTIVE',
      date: at(3, 20 * h),
      expires: at(3, 23 * h),
      services: ['Licensing Portal'],
      description: 'Planned maintenance: the portal is read-only during the upgrade.',
      links: { 'Maintenance notice': 'https://status.example.com/maintenance/2101' },
    },
    {
      category: 'OK',
      status: 'ACTIVE',
      date: at(-2, 8 * h),
      expires: at(12, 0),
      services: ['Elastic Licensing'],
      description: 'Rate table 2025.1.2 is published and applies to new elastic purchase orders.',
      links: { 'Release notes': 'https://docs.example.com/elastic/rate-tables' },
    },
    // INFO beyond the 5-day look-ahead: must not show yet.
    {
      category: 'INFO',
      status: 'ACTIVE',
      date: at(12, 18 * h),
      expires: at(12, 22 * h),
      services: ['License Server'],
      description: 'Planned maintenance of the license file signing service.',
      links: {},
    },
    // Status ACTIVE but already expired.
    {
      category: 'WARNING',
      status: 'ACTIVE',
      date: at(-9, 10 * h),
      expires: at(-8, 10 * h),
      services: ['Cloud Burst Compute'],
      description: 'Job submission to cloud burst compute was slow.',
      links: link(4690),
    },
    // Marked RESOLVED but its end lies ahead: not yet counted as resolved.
    {
      category: 'INFO',
      status: 'RESOLVED',
      date: at(-1, 22 * h),
      expires: at(1, 2 * h),
      services: ['Licensing Portal'],
      description: 'Emergency patch window for the portal login page.',
      links: {},
    },
  ];
  const history: [string, string[], string][] = [
    [
      'CRITICAL',
      ['Licensing Portal'],
      'Sign-in failed for all users after an identity provider certificate change.',
    ],
    [
      'CRITICAL',
      ['License Server', 'Elastic Licensing'],
      'License server pool outage in the US-East region.',
    ],
    ['WARNING', ['Elastic Licensing'], 'Elastic statement generation took longer than usual.'],
    ['WARNING', ['Usage Reporting'], 'Some usage sessions were reported twice; totals were corrected.'],
    ['WARNING', ['Licensing Portal'], 'Account search was slow for accounts with many entitlements.'],
    ['INFO', ['Licensing Portal'], 'Planned maintenance: database upgrade.'],
    ['INFO', ['License Server'], 'Planned maintenance: renewal of license signing keys.'],
    ['INFO', ['Cloud Burst Compute'], 'Planned maintenance of the cloud scheduler.'],
    ['OK', ['Licensing Portal'], 'New: export of activation history as CSV.'],
    ['OK', ['Elastic Licensing'], 'Elastic credentials page now supports allowed usernames.'],
    ['CRITICAL', ['Cloud Burst Compute'], 'Cloud burst jobs failed to start.'],
    ['WARNING', ['License Server'], 'License file e-mails were delayed.'],
  ];
  history.forEach(([category, services, description], i) => {
    const start = -(15 + i * 27);
    rows.push({
      category,
      status: 'RESOLVED',
      date: at(start, (8 + (i % 9)) * h),
      expires: at(start, (8 + (i % 9)) * h + (1 + (i % 5)) * 47 * 60 + (i % 3) * 86_400),
      services,
      description,
      links: link(4000 + i),
    });
  });
  return rows.map((r, i) => ({ id: i + 1, ...r }));
}

/** Guarded route paths of spec 000 §2.1 (one flag per top-level path) plus two mutually exclusive experiments. */
export const routeFeatures: [string, string][] = [
  ['elastic', 'Elastic Licensing'],
  ['ssl', 'Leases/Perpetuals'],
  ['entitlementsFSA', 'Flexible Spending Account'],
  ['activations', 'Activate Entitlements'],
  ['activations-history', 'Manage Activations'],
  ['web-assignments', 'Web Assignments'],
  ['web-transactions', 'Web Transactions'],
  ['web-reporting', 'Web Reporting'],
  ['transactions', 'Usage Transactions'],
  ['statementv2', 'Elastic Statements'],
  ['emails', 'Emails'],
  ['notifications', 'Alerts'],
  ['notification-details', 'Alert details'],
  ['notifications-category', 'Alerts by category'],
  ['portalaccess', 'Licensing Portal Access'],
  ['whitelistips', 'Elastic IP Settings'],
  ['clscredentials', 'Elastic Credentials'],
  ['nocustomer', 'Notice: no customer'],
  ['notypecustomer', 'Notice: customer type'],
  ['noselectedcustomer', 'Notice: no selected customer'],
  ['nopermissions', 'Notice: no permissions'],
  ['noaccess', 'Notice: export compliance'],
];

function buildFeatures(): FeatureRow[] {
  return [
    ...routeFeatures.map(([name, label]) => ({
      name,
      description: `Route /${name}: ${label}`,
      enabled: true,
      conflicts: [] as string[],
    })),
    {
      name: 'experimental-statement-charts',
      description: 'Experimental: interactive charts on the elastic statement',
      enabled: false,
      conflicts: ['experimental-statement-classic'],
    },
    {
      name: 'experimental-statement-classic',
      description: 'Experimental: classic tabular elastic statement without charts',
      enabled: false,
      conflicts: ['experimental-statement-charts'],
    },
  ];
}
