import { messages } from '@lp/contract/common/errors';
import { contactRoles } from '@lp/domain/policy';
import { BALANCE_ADJUSTMENT, UNCOVERED_ACTIVATION, UNCOVERED_PO } from '@lp/domain/statement';
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildElasticEntitlement,
  buildElasticServer,
  buildRateTable,
  recordUsage,
} from '../../../harness/elastic-factories.ts';
import { addContact, buildAccount, buildEntitlement } from '../../../harness/factories.ts';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import {
  outline,
  pdfCatalog,
  pdfObject,
  refOf,
  type StructNode,
  structTree,
} from '../../../test/pdf-structure.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import { emails } from '../../db/schema.ts';
import type { StoredAttachment } from '../../platform/mail/mailer.ts';
import { postAdjustment } from '../ledger/service.ts';

let database: TestDatabase;
let app: FastifyInstance;
const headers: Record<string, Record<string, string>> = {};

const ACME = '5200001';
const OVER = '5200002';
const EMPTY = '5200003';
const OTHER = '5200004';
let acmeServer: string;
let otherServer: string;
const march = { from: '2026-03-01', to: '2026-03-31' };

/** Charges land on the day a session ends (rate × count × hours). */
const session = (product: string, start: string, hours: number, count = 1) => ({
  product,
  count,
  start,
  end: new Date(Date.parse(start) + hours * 3_600_000).toISOString(),
});

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  app = await createTestApp(database);
  await buildAccount(db, { customerNumber: ACME, name: 'Acme Statements Ltd' });
  await buildAccount(db, { customerNumber: OVER, name: 'Overdrawn Inc' });
  await buildAccount(db, { customerNumber: EMPTY, name: 'No Elastic Corp' });
  await buildAccount(db, { customerNumber: OTHER, name: 'Other Corp' });
  for (const cn of [ACME, OVER, EMPTY]) await addContact(db, cn, 'admin@acme.example', contactRoles.admin);
  await addContact(db, ACME, 'viewer@acme.example', contactRoles.viewer);
  await addContact(db, OTHER, 'admin@other.example', contactRoles.admin);
  await buildRateTable(db, '2025.1.0', { Fluent: 10, Mechanical: 4 });

  acmeServer = await buildElasticServer(db, ACME, 'CLS-ACME-1');
  otherServer = await buildElasticServer(db, OTHER, 'CLS-OTHER-1');
  // Drawn first (earliest expiry), then the big one.
  await buildElasticEntitlement(db, ACME, {
    activationId: 'ACT-SMALL',
    poNumber: 'PO-SMALL',
    quantity: 100,
    startDate: '2026-01-01',
    endDate: '2026-06-30',
  });
  await buildElasticEntitlement(db, ACME, {
    activationId: 'ACT-BIG',
    poNumber: 'PO-BIG',
    quantity: 1000,
    startDate: '2026-01-01',
    endDate: '2026-12-31',
  });
  // Ended before the period and unused in it: not on the statement.
  await buildElasticEntitlement(db, ACME, {
    activationId: 'ACT-OLD',
    poNumber: 'PO-OLD',
    quantity: 50,
    startDate: '2025-01-01',
    endDate: '2025-12-31',
  });
  await buildEntitlement(db, ACME, { activationId: 'ACT-SSL', kind: 'SSL', licenseModel: 'Lease' });
  await buildElasticEntitlement(db, OTHER, {
    activationId: 'ACT-OTHER',
    quantity: 100,
    startDate: '2026-01-01',
    endDate: '2026-12-31',
  });

  await recordUsage(db, { customerNumber: ACME, clsId: acmeServer }, [
    session('Fluent', '2026-02-10T08:00:00Z', 5), // 50 before the period, from ACT-SMALL
    session('Fluent', '2026-03-05T08:00:00Z', 8), // 80: 50 empties ACT-SMALL, 30 from ACT-BIG
    session('Mechanical', '2026-03-20T08:00:00Z', 2.5, 2), // 20 from ACT-BIG
    session('Fluent', '2026-04-10T08:00:00Z', 1), // 10 after the period
  ]);
  // A credit of 5 units on ACT-BIG within the period: a negative product total.
  await db.transaction((tx) =>
    postAdjustment(tx, {
      customerNumber: ACME,
      activationId: 'ACT-BIG',
      amount: -5,
      product: 'Service credit',
      note: 'goodwill',
      day: '2026-03-25',
      createdBy: 'ops@vendor.example',
    }),
  );

  await buildElasticServer(db, OVER, 'CLS-OVER-1');
  await buildElasticEntitlement(db, OVER, {
    activationId: 'ACT-TINY',
    poNumber: 'PO-TINY',
    quantity: 10,
    startDate: '2026-01-01',
    endDate: '2026-12-31',
  });
  await recordUsage(db, { customerNumber: OVER, clsId: 'CLS-OVER-1' }, [
    session('Fluent', '2026-03-10T08:00:00Z', 2.5), // 25: 10 covered, 15 overage
  ]);

  headers.admin = (await signInAs(db, 'admin@acme.example')).headers;
  headers.viewer = (await signInAs(db, 'viewer@acme.example')).headers;
  headers.outsider = (await signInAs(db, 'nobody@elsewhere.example')).headers;
  headers.otherAdmin = (await signInAs(db, 'admin@other.example')).headers;
  headers.support = (await signInAs(db, 'support@vendor.example', { vendorRoles: ['support'] })).headers;
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

const post = (url: string, who: string | null, payload: object) =>
  app.inject({ method: 'POST', url, headers: who ? headers[who] : {}, payload });
const statementBody = (over: object = {}) => ({
  ...march,
  today: '2026-04-15',
  customerNumber: ACME,
  customerName: 'Acme Statements Ltd',
  ...over,
});
const pdfInfo = async (data: Buffer): Promise<Record<string, unknown>> => {
  const parser = new PDFParse({ data: new Uint8Array(data) });
  try {
    return (await parser.getInfo()).info;
  } finally {
    await parser.destroy();
  }
};
const pdfText = async (data: Buffer) => {
  const parser = new PDFParse({ data: new Uint8Array(data) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
};

describe('POST /api/statements', () => {
  it('computes balances and period usage per purchase order from the ledger rollups', async () => {
    const res = await post('/api/statements', 'admin', statementBody());
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('SUCCESS');
    expect(body.data.Customer).toEqual({
      ReportDate: '2026-04-15',
      AccountId: ACME,
      AccountName: 'Acme Statements Ltd',
      PeriodStart: '2026-03-01',
      PeriodEnd: '2026-03-31',
    });
    expect(body.data.Records).toEqual([
      {
        PONumber: 'PO-BIG',
        ActivationId: 'ACT-BIG',
        StartDate: '2026-01-01',
        EndDate: '2026-12-31',
        BalanceBeforeStart: 1000,
        BalanceAtEnd: 955,
        Used: 45,
        Currency: 'USD',
        LineItemQuantity: 1000,
        TotalUsed: 45,
        Products: [
          { product: 'Fluent', total: 30, currency: 'USD' },
          { product: 'Mechanical', total: 20, currency: 'USD' },
          { product: 'Service credit', total: -5, currency: 'USD' },
        ],
      },
      {
        PONumber: 'PO-SMALL',
        ActivationId: 'ACT-SMALL',
        StartDate: '2026-01-01',
        EndDate: '2026-06-30',
        BalanceBeforeStart: 50,
        BalanceAtEnd: 0,
        Used: 50,
        Currency: 'USD',
        LineItemQuantity: 100,
        TotalUsed: 100,
        Products: [{ product: 'Fluent', total: 50, currency: 'USD' }],
      },
    ]);
    expect(body.data.Products).toEqual([
      { product: 'Fluent', total: 80, currency: 'USD' },
      { product: 'Mechanical', total: 20, currency: 'USD' },
      { product: 'Service credit', total: -5, currency: 'USD' },
    ]);
  });

  it('counts usage through the end day and none before the start day', async () => {
    const feb = (
      await post('/api/statements', 'admin', statementBody({ from: '2026-02-10', to: '2026-02-10' }))
    )
      .json()
      .data.Records.find((r: { ActivationId: string }) => r.ActivationId === 'ACT-SMALL');
    expect(feb).toMatchObject({ BalanceBeforeStart: 100, Used: 50, BalanceAtEnd: 50 });
    const april = (
      await post('/api/statements', 'admin', statementBody({ from: '2026-04-01', to: '2026-04-30' }))
    )
      .json()
      .data.Records.find((r: { ActivationId: string }) => r.ActivationId === 'ACT-BIG');
    expect(april).toMatchObject({ BalanceBeforeStart: 955, Used: 10, BalanceAtEnd: 945, TotalUsed: 55 });
  });

  it('lists usage no entitlement covered as its own Overage row', async () => {
    const res = await post('/api/statements', 'admin', statementBody({ customerNumber: OVER }));
    const { Records, Products } = res.json().data;
    expect(Records).toEqual([
      expect.objectContaining({
        ActivationId: 'ACT-TINY',
        BalanceBeforeStart: 10,
        BalanceAtEnd: 0,
        Used: 10,
      }),
      expect.objectContaining({
        PONumber: UNCOVERED_PO,
        ActivationId: UNCOVERED_ACTIVATION,
        BalanceBeforeStart: 0,
        BalanceAtEnd: -15,
        Used: 15,
        Currency: 'USD',
        Products: [{ product: 'Fluent', total: 15, currency: 'USD' }],
      }),
    ]);
    expect(Products).toEqual([{ product: 'Fluent', total: 25, currency: 'USD' }]);
  });

  it('answers an account without elastic entitlements with the spec text', async () => {
    const res = await post('/api/statements', 'admin', statementBody({ customerNumber: EMPTY }));
    expect(res.json()).toMatchObject({ status: 'FAILURE', err: messages.noActiveEntitlements });
    expect(messages.noActiveEntitlements).toBe('No active entitlements for account');
  });

  it('lets view-only contacts and vendor staff read, with the report date defaulting to today', async () => {
    expect((await post('/api/statements', 'viewer', statementBody())).statusCode).toBe(200);
    const res = await post('/api/statements', 'support', statementBody({ today: undefined }));
    expect(res.json().data.Customer.ReportDate).toBe(new Date().toISOString().slice(0, 10));
  });

  it('answers 401 without a session and 403 to outsiders, naming nothing of the account', async () => {
    expect((await post('/api/statements', null, statementBody())).statusCode).toBe(401);
    for (const who of ['outsider', 'otherAdmin']) {
      const res = await post('/api/statements', who, statementBody());
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toContain('ACT-');
      expect(res.json().err).toBe(messages.noPermissionPage);
    }
  });

  it('refuses bad periods with 400', async () => {
    for (const bad of [
      { from: '2026-02-30' },
      { to: '31/03/2026' },
      { from: '2026-04-01', to: '2026-03-31' },
      { customerNumber: '' },
      { from: undefined },
    ]) {
      const res = await post('/api/statements', 'admin', statementBody(bad));
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().status).toBe('FAILURE');
    }
    const reversed = await post('/api/statements', 'admin', statementBody({ from: '2026-04-01' }));
    expect(reversed.json().err).toMatch(/start date is after the end date/);
  });
});

describe('POST /api/getPdf', () => {
  it('answers a PDF named after customer and period with the header, both tables and pie legends', async () => {
    const res = await post('/api/getPdf', 'admin', statementBody());
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="ElasticLicensingSummaryStatement ${ACME} 2026-03-01 2026-03-31.pdf"`,
    );
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(res.rawPayload);
    for (const expected of [
      'Elastic Licensing Summary Statement',
      'Report Date: 2026-04-15',
      `Account: ${ACME} (Acme Statements Ltd)`,
      'Period Start Date: 2026-03-01',
      'Period End Date: 2026-03-31',
      'Usage by Purchase Order',
      'PO-BIG',
      'ACT-BIG',
      'PO-SMALL',
      '1,000',
      'Usage by Product',
      'Mechanical',
      BALANCE_ADJUSTMENT,
      'Period Used by Product',
      'Fluent: 80.00 (80.0 %)',
    ]) {
      expect(text).toContain(expected);
    }
    // The credit is relabelled, and dropped from the pie legend.
    expect(text).not.toContain('Service credit');
  });

  it('is tagged for screen readers: structure in reading order, column headers, language and title', async () => {
    const pdf = (await post('/api/getPdf', 'admin', statementBody())).rawPayload;
    const catalog = pdfCatalog(pdf);
    expect(pdfObject(pdf, refOf(catalog, 'MarkInfo'))).toMatch(/\/Marked true/);
    expect(catalog).toMatch(/\/Lang \(en-US\)/);
    // The viewer shows the title, not the file name.
    expect(pdfObject(pdf, refOf(catalog, 'ViewerPreferences'))).toMatch(/\/DisplayDocTitle true/);
    const info = await pdfInfo(pdf);
    expect(info.Title).toBe(`Elastic Licensing Summary Statement ${ACME}`);
    expect(info.Language).toBe('en-US');

    const [document, ...others] = structTree(pdf);
    expect(others).toEqual([]);
    expect(document?.role).toBe('Document');
    const sections = document?.children ?? [];
    expect(sections.map((n) => n.role)).toEqual([
      'H1',
      'P',
      'P',
      'P',
      'H2',
      'Table',
      'H3',
      'L',
      'H2',
      'Table',
      'H3',
      'L',
    ]);
    const [poTable, productTable] = sections.filter((n) => n.role === 'Table') as [StructNode, StructNode];
    const header = poTable.children[0] as StructNode;
    expect(outline([header])).toBe(`TR(${Array(8).fill('TH').join(',')})`);
    for (const th of header.children) expect(th.attributes).toMatch(/\/O \/Table[\s\S]*\/Scope \/Column/);
    // PO-BIG's row, then its three products as a table in one cell spanning the eight columns; then PO-SMALL's.
    expect(outline(poTable.children.slice(1))).toBe(
      `TR(${Array(8).fill('TD').join(',')}),TR(TD(Table(TR(TD,TD,TD),TR(TD,TD,TD),TR(TD,TD,TD)))),` +
        `TR(${Array(8).fill('TD').join(',')}),TR(TD(Table(TR(TD,TD,TD))))`,
    );
    expect(poTable.children[2]?.children[0]?.attributes).toMatch(/\/ColSpan 8/);
    expect(outline(productTable.children)).toBe('TR(TH,TH,TH),TR(TD,TD,TD),TR(TD,TD,TD),TR(TD,TD,TD)');
    // Every leaf holds drawn content, so nothing the reader is told about is empty.
    const leaves = (nodes: StructNode[]): StructNode[] =>
      nodes.flatMap((n) => (n.children.length ? leaves(n.children) : [n]));
    for (const leaf of leaves(sections)) expect(leaf.content.length, leaf.role).toBeGreaterThan(0);
  });

  it('refuses like the statement call', async () => {
    expect((await post('/api/getPdf', null, statementBody())).statusCode).toBe(401);
    expect((await post('/api/getPdf', 'outsider', statementBody())).statusCode).toBe(403);
    const bad = await post('/api/getPdf', 'admin', statementBody({ to: '2026-02-01' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toMatch(/application\/json/);
    const empty = await post('/api/getPdf', 'admin', statementBody({ customerNumber: EMPTY }));
    expect(empty.json()).toMatchObject({ status: 'FAILURE', err: messages.noActiveEntitlements });
  });
});

describe('POST /api/emailweek and /api/emailmonth', () => {
  const emailBody = (over: object = {}) => ({
    customerid: ACME,
    customername: 'Acme Statements Ltd',
    server: 'CLS-ACME-1',
    activationid: 'ACT-BIG',
    date: '2026-03-31T10:00:00.000Z',
    ...over,
  });
  const latestEmail = async () => {
    const [row] = await database.db
      .select()
      .from(emails)
      .where(eq(emails.customerNumber, ACME))
      .orderBy(desc(emails.id))
      .limit(1);
    return row;
  };

  it('records the weekly statement of the entitlement in the account e-mails, PDF attached', async () => {
    const res = await post('/api/emailweek', 'admin', emailBody());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'SUCCESS' });
    const mail = await latestEmail();
    expect(mail.to).toBe('admin@acme.example');
    expect(mail.subject).toBe('Weekly Statement ACT-BIG 2026-03-25 to 2026-03-31');
    expect(mail.body).toContain('CLS-ACME-1');
    expect(mail.body).toContain('-5'); // the credit of 2026-03-25 is the only movement that week
    const [attachment] = mail.attachments as StoredAttachment[];
    expect(attachment).toMatchObject({
      filename: `ElasticLicensingSummaryStatement ${ACME} 2026-03-25 2026-03-31.pdf`,
      contentType: 'application/pdf',
    });
    const text = await pdfText(Buffer.from(attachment.contentBase64, 'base64'));
    expect(text).toContain('Period Start Date: 2026-03-25');
    expect(text).toContain('ACT-BIG');
    expect(text).not.toContain('ACT-SMALL');

    // The account's e-mail list shows it.
    const list = await post('/api/getemails', 'admin', { customerNumber: ACME });
    expect(list.json().data[0]).toMatchObject({ subject: mail.subject, to: 'admin@acme.example' });
  });

  it('sends the monthly statement for the month through the date, to the requesting user', async () => {
    const res = await post('/api/emailmonth', 'admin', emailBody({ date: '2026-03-31' }));
    expect(res.json()).toEqual({ status: 'SUCCESS' });
    const mail = await latestEmail();
    expect(mail.to).toBe('admin@acme.example');
    expect(mail.subject).toBe('Monthly Statement ACT-BIG 2026-03-01 to 2026-03-31');
    expect(mail.body).toContain('45.00 USD'); // period used
    expect(mail.body).toContain('955.00 USD'); // balance at the end
  });

  it('refuses unknown or foreign activation ids and servers with 404, sending nothing', async () => {
    const before = await database.db.$count(emails);
    for (const over of [
      { activationid: 'ACT-NOPE' },
      { activationid: 'ACT-OTHER' },
      { activationid: 'ACT-SSL' },
      { server: 'CLS-NOPE' },
      { server: otherServer },
    ]) {
      const res = await post('/api/emailweek', 'admin', emailBody(over));
      expect(res.statusCode, JSON.stringify(over)).toBe(404);
      expect(res.json().status).toBe('FAILURE');
    }
    expect(await database.db.$count(emails)).toBe(before);
  });

  it('refuses view-only users and view-only support staff with 403, sending nothing (decision 022)', async () => {
    const before = await database.db.$count(emails);
    for (const [url, who] of [
      ['/api/emailweek', 'viewer'],
      ['/api/emailmonth', 'viewer'],
      ['/api/emailweek', 'support'],
    ] as const) {
      const res = await post(url, who, emailBody());
      expect(res.statusCode, `${url} ${who}`).toBe(403);
      expect(res.json()).toEqual({ status: 'FAILURE', err: messages.noPermission, code: 'FORBIDDEN' });
    }
    expect(await database.db.$count(emails)).toBe(before);
  });

  it('checks session, access and input', async () => {
    expect((await post('/api/emailweek', null, emailBody())).statusCode).toBe(401);
    expect((await post('/api/emailmonth', null, emailBody())).statusCode).toBe(401);
    const outsider = await post('/api/emailweek', 'outsider', emailBody());
    expect(outsider.statusCode).toBe(403);
    expect(outsider.body).not.toContain('ACT-BIG');
    expect((await post('/api/emailmonth', 'otherAdmin', emailBody())).statusCode).toBe(403);
    for (const bad of [
      { date: 'yesterday' },
      { activationid: '' },
      { server: undefined },
      { customerid: '' },
    ]) {
      expect((await post('/api/emailweek', 'admin', emailBody(bad))).statusCode, JSON.stringify(bad)).toBe(
        400,
      );
    }
  });
});

describe('saved statement view (elasticTransaction)', () => {
  it('keeps a date range saved without filters, and forgets it when reset', async () => {
    const save = (pref: object) =>
      post('/api/featureflag/pref', 'admin', {
        tables: [{ customerNumber: ACME, tableName: 'elasticTransaction', ...pref }],
      });
    const saved = async () =>
      (await app.inject({ method: 'GET', url: '/api/featureflag/pref', headers: headers.admin }))
        .json()
        .data.find((p: { tableName: string }) => p.tableName === 'elasticTransaction');
    expect((await save({ dateRange: 'This week' })).statusCode).toBe(200);
    expect(await saved()).toMatchObject({ dateRange: 'This week' });
    await save({ startDate: '2026-03-01', endDate: '2026-03-31' });
    expect(await saved()).toMatchObject({ startDate: '2026-03-01', endDate: '2026-03-31' });
    await save({});
    expect(await saved()).toBeUndefined();
  });
});
