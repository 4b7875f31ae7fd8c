import { apiCatalogue } from '@lp/contract/api-catalogue';
import { contactRoles } from '@lp/domain/policy';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Db } from '../src/db/database.ts';
import { issueServerCredential } from '../src/features/cls-api/server-credentials.ts';
import { buildElasticEntitlement, buildElasticServer, buildRateTable } from './elastic-factories.ts';
import { addContact, buildAccount } from './factories.ts';
import { signInAs } from './sign-in.ts';

/*
 * The request fuzz (decision 020): every operation of the API catalogue, the built-in IdP's login form, the
 * license-server API, static and unknown paths, with random and malformed bodies, NUL, unpaired surrogates,
 * deep nesting, huge strings, impossible dates, wrong types, bad query strings and path parameters, and (one
 * request in five) multipart uploads with random boundaries, truncated bodies and bad parts, as each of the
 * given identities. The answer must never be a 5xx, and every error must be the {status:'FAILURE', err}
 * envelope (the IdP's own pages under /oidc answer HTML or OAuth errors by design: only 5xx counts there).
 */

export interface FuzzIdentity {
  name: string;
  headers: Record<string, string>;
}

export interface FuzzWorld {
  customerNumber: string;
  identities: FuzzIdentity[];
}

/** An account with an elastic server and entitlement, and the callers: anonymous, customer, staff, license server. */
export async function buildFuzzWorld(db: Db): Promise<FuzzWorld> {
  const customerNumber = '5500001';
  await buildRateTable(db, '2025.1.0', { Solver: 2 });
  await buildAccount(db, { customerNumber, name: 'Fuzz' });
  const elasticServerId = await buildElasticServer(db, customerNumber, 'CLS-FUZZ');
  await buildElasticEntitlement(db, customerNumber, {
    quantity: 1e6,
    startDate: '2020-01-01',
    endDate: '2099-12-31',
  });
  await addContact(db, customerNumber, 'admin@fuzz.example', contactRoles.admin);
  const credential = await issueServerCredential(db, { customerNumber, elasticServerId, createdBy: 'fuzz' });
  return {
    customerNumber,
    identities: [
      { name: 'anonymous', headers: {} },
      { name: 'customer', headers: (await signInAs(db, 'admin@fuzz.example')).headers },
      {
        name: 'staff',
        headers: (await signInAs(db, 'ops@vendor.example', { vendorRoles: ['busops', 'admin'] })).headers,
      },
      { name: 'license server', headers: { authorization: `Bearer ${credential.token}` } },
    ],
  };
}

export interface FuzzTally {
  requests: number;
  byStatus: Record<number, number>;
  /** 5xx answers and errors outside the envelope, with the request that caused them */
  failures: { request: InjectOptions; status: number; body: string }[];
}

const extraPaths = [
  { method: 'get', path: '/cls/v1/policy' },
  { method: 'post', path: '/cls/v1/usage' },
  { method: 'get', path: '/oidc/interaction/{id}' },
  { method: 'post', path: '/oidc/interaction/{id}/login' },
  { method: 'get', path: '/oidc/auth' },
  { method: 'post', path: '/oidc/token' },
  { method: 'get', path: '/oidc/.well-known/openid-configuration' },
  { method: 'get', path: '/assets/{id}.js' },
  { method: 'get', path: '/healthz' },
  { method: 'get', path: '/readyz' },
  { method: 'get', path: '/{id}' },
  { method: 'post', path: '/api/{id}' },
] as const;

const operations = [...apiCatalogue.map((o) => ({ method: o.method, path: o.path })), ...extraPaths];

const hostile = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00',
  '%00',
  '%zz',
  '../../etc/passwd',
  "' or 1=1 --",
  '2026-02-30',
  '0000-01-01',
  '0050-03-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '10000-01-01',
  '2026-13-01',
  'NaN',
  '',
  ' ',
  '<script>',
  '\u202e',
];

const hostileText = fc.oneof(
  fc.constantFrom(...hostile),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer({ min: 1000, max: 300_000 }).map((n) => 'x'.repeat(n)),
);

const deep = fc.tuple(fc.integer({ min: 15, max: 5000 }), fc.boolean()).map(([depth, arrays]) => {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = arrays ? [v] : { a: v };
  return v;
});

const scalar = fc.oneof(
  hostileText,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, -1, 0, 1e308, -1e308),
);

// Field names the contract uses, so random bodies reach past the first schema check now and then.
const fieldNames = [
  'customerNumber',
  'customerid',
  'customerId',
  'filter',
  'criteria',
  'sorting',
  'offset',
  'limit',
  'token',
  'key',
  'from',
  'to',
  'today',
  'date',
  'expires',
  'events',
  'tables',
  'tableName',
  'filterModel',
  'server',
  'activationid',
  'pin',
  'users',
  'ips',
  'contacts',
  'email',
  'password',
  'day',
  'amount',
  'clsId',
  'category',
  'service',
  'description',
  'links',
  'name',
  'method',
  'value',
];

const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('v'), { maxLength: 5 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...fieldNames), hostileText), tie('v'), { maxKeys: 5 }),
  ),
})).v;

const body = (customerNumber: string) =>
  fc.oneof(
    value,
    deep,
    fc.record({ customerNumber: fc.constant(customerNumber), filter: value, key: value, limit: value }),
    fc.record({
      customerNumber: fc.constant(customerNumber),
      filter: fc.record({
        condition: fc.constantFrom('ALL', 'ANY', 'x'),
        criteria: fc.array(
          fc.record({
            name: fc.oneof(fc.constantFrom('User', 'StartTime', 'date', 'category', 'id'), hostileText),
            method: fc.constantFrom('EQUALS', 'DATERANGE', 'CONTAINS', 'BEFOREDAY', 'INRANGE', 'RANGE', '>'),
            value: fc.oneof(scalar, fc.array(scalar, { maxLength: 3 })),
          }),
          { maxLength: 3 },
        ),
      }),
    }),
    fc.record({
      customerNumber: fc.constant(customerNumber),
      from: hostileText,
      to: hostileText,
      today: hostileText,
    }),
    fc.record({ events: fc.array(value, { maxLength: 5 }) }),
    fc.record({
      tables: fc.array(
        fc.record({ customerNumber: fc.constant(customerNumber), tableName: value, filterModel: value }),
        { maxLength: 2 },
      ),
    }),
  );

const rawPayload = fc.oneof(
  fc.constantFrom('{', '{"a":', 'null', '[]', '"x"', '{"__proto__":{"x":1}}', '\u0000', 'a=1&b=%00'),
  fc.string({ maxLength: 100 }),
);

const segment = fc.oneof(
  fc.constantFrom(
    '1',
    '0',
    '-1',
    '99999999999999999999',
    'abc',
    '%00',
    '%zz',
    '%E0%A4%A',
    '..',
    'x'.repeat(300),
  ),
  fc.string({ maxLength: 20 }).map(encodeURIComponent),
);

const queryString = fc.oneof(
  fc.constant(''),
  fc.constantFrom(
    '?customerNumber=%00',
    '?a=%zz',
    '?returnTo=//evil.example',
    '?a[b][c]=1',
    '?customerNumber=',
    '?&&==',
  ),
  fc
    .dictionary(fc.constantFrom(...fieldNames), fc.string({ maxLength: 20 }), { maxKeys: 3 })
    .map((q) => `?${new URLSearchParams(q as Record<string, string>).toString()}`),
);

const contentType = fc.constantFrom(
  'application/json',
  'application/json',
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'multipart/form-data; boundary=x',
  undefined,
);

// ---- multipart bodies (issue 20 §7): the upload routes' forms, well-formed and broken ----

const uploadPaths = ['/api/uploadserverid', '/api/license-files/verify'] as const;

const boundary = fc.oneof(
  fc.constantFrom('lp-fuzz', '----WebKitFormBoundary7MA4YWxkTrZu0gW', 'a', '"quoted"', 'x'.repeat(70)),
  fc.string({ unit: fc.constantFrom(...'abcXYZ019-_=+/.:'), minLength: 1, maxLength: 80 }),
);

const partHeader = fc.constantFrom(
  'Content-Type: text/plain',
  'Content-Type: application/json',
  'Content-Type: application/octet-stream',
  'Content-Transfer-Encoding: base64',
  `X-Pad: ${'p'.repeat(100_000)}`,
  'garbage header line',
  '',
);

const partName = fc.oneof(
  fc.constantFrom('file', 'customerNumber', '__proto__', 'constructor', 'file[]', ''),
  hostileText.map((t) => t.slice(0, 200)),
);

const partContent = fc.oneof(
  fc.constantFrom(
    'SERVER licsrv01 0050569a1b2c 27000\nVENDOR cfdlmd\n',
    'INCREMENT cfd_solver cfdlmd 2026.1 permanent 1 SIGN=0\n',
    '"0050569a1b2c"\n',
    'licsrv01 0050569a1b2c ETHERNET\n',
  ),
  hostileText,
);

/** One part: a field or a file, with a hostile name, headers and content now and then. */
const part = fc
  .record({
    name: partName,
    isFile: fc.boolean(),
    filename: fc.oneof(
      fc.constant('host.lic'),
      hostileText.map((t) => t.slice(0, 100)),
    ),
    disposition: fc.constantFrom('form-data', 'form-data', 'form-data', 'attachment', 'zzz', ''),
    headers: fc.array(partHeader, { maxLength: 2 }),
    content: partContent,
  })
  .map(({ name, isFile, filename, disposition, headers, content }) => ({
    head: [
      `Content-Disposition: ${disposition}; name="${name}"${isFile ? `; filename="${filename}"` : ''}`,
      ...headers,
    ].join('\r\n'),
    content,
  }));

/** A multipart/form-data request to an upload route (now and then another route), broken in one of many ways. */
export function multipartRequest(
  identities: readonly FuzzIdentity[],
  customerNumber: string,
): fc.Arbitrary<InjectOptions> {
  return fc
    .record({
      url: fc.oneof(
        { arbitrary: fc.constantFrom(...uploadPaths), weight: 9 },
        { arbitrary: fc.constantFrom(...operations.map((o) => o.path)), weight: 1 },
      ),
      identity: fc.constantFrom(...identities),
      boundary,
      typeBoundary: fc.oneof(
        { arbitrary: fc.constant('same'), weight: 6 },
        { arbitrary: fc.constantFrom('none', 'empty', 'other', 'twice'), weight: 1 },
      ),
      withCustomer: fc.boolean(),
      parts: fc.array(part, { maxLength: 4 }),
      closing: fc.constantFrom('--\r\n', '--', '\r\n', '', '--\r\nepilogue'),
      cut: fc.oneof(
        { arbitrary: fc.constant(1), weight: 3 },
        { arbitrary: fc.double({ min: 0, max: 1, noNaN: true }), weight: 1 },
      ),
    })
    .map(({ url, identity, boundary: b, typeBoundary, withCustomer, parts, closing, cut }) => {
      const all = withCustomer
        ? [
            { head: 'Content-Disposition: form-data; name="customerNumber"', content: customerNumber },
            ...parts,
          ]
        : parts;
      const body = `${all.map((p) => `--${b}\r\n${p.head}\r\n\r\n${p.content}\r\n`).join('')}--${b}${closing}`;
      const type = {
        same: `multipart/form-data; boundary=${b}`,
        none: 'multipart/form-data',
        empty: 'multipart/form-data; boundary=',
        other: 'multipart/form-data; boundary=not-the-one',
        twice: `multipart/form-data; boundary=${b}; boundary=x`,
      }[typeBoundary];
      return {
        method: 'POST' as const,
        url,
        headers: { ...identity.headers, 'content-type': type },
        payload: body.slice(0, Math.ceil(body.length * cut)),
      };
    });
}

/** One random request as one of the identities. */
export function fuzzRequest(
  identities: readonly FuzzIdentity[],
  customerNumber: string,
): fc.Arbitrary<InjectOptions> {
  return fc
    .record({
      op: fc.constantFrom(...operations),
      method: fc.oneof(
        fc.constant(undefined),
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'),
      ),
      seg: segment,
      query: queryString,
      identity: fc.constantFrom(...identities),
      type: contentType,
      payload: fc.oneof(
        body(customerNumber).map((b) => {
          try {
            return JSON.stringify(b);
          } catch {
            return '{}';
          }
        }),
        rawPayload,
      ),
      extraHeaders: fc.oneof(
        fc.constant({}),
        fc.constantFrom(
          { authorization: 'Bearer \u0000' },
          { authorization: 'Bearer cls_x' },
          { authorization: 'Basic abc' },
          { cookie: 'lp_session=%00' },
          { cookie: 'lp_session=%ED%A0%80' },
          { 'content-length': '5' },
          { 'x-request-id': '\u0000' },
          { 'if-none-match': '"x"' },
        ),
      ),
    })
    .map(({ op, method, seg, query, identity, type, payload, extraHeaders }) => {
      const m = (method ?? op.method.toUpperCase()) as InjectOptions['method'];
      const url = op.path.replace(/\{[^}]+\}/g, seg) + query;
      const headers: Record<string, string> = {
        ...identity.headers,
        ...(extraHeaders as Record<string, string>),
      };
      if (type) headers['content-type'] = type;
      const hasBody = m !== 'GET' && m !== 'HEAD';
      return { method: m, url, headers, ...(hasBody ? { payload } : {}) };
    });
}

function isEnvelope(res: LightMyRequestResponse): boolean {
  try {
    const b = res.json() as { status?: unknown; err?: unknown };
    return b.status === 'FAILURE' && typeof b.err === 'string';
  } catch {
    return false;
  }
}

/** Generous on a loaded 2-core machine: answers take milliseconds. */
const ANSWER_WITHIN_MS = 15_000;

/**
 * Sends `count` random requests (fixed seed: the same requests every run) and tallies the answers. `concurrency`
 * requests are in flight at once, as a browser and a license server send them: the server's wait on its database
 * is then overlapped with the next request's work (the PostgreSQL run took 92 s one at a time), and answers must
 * hold under concurrency too.
 */
export async function runFuzz(
  app: FastifyInstance,
  { identities, customerNumber }: FuzzWorld,
  count: number,
  { seed = 20_260_000, concurrency = 1 }: { seed?: number; concurrency?: number } = {},
): Promise<FuzzTally> {
  const tally: FuzzTally = { requests: 0, byStatus: {}, failures: [] };
  const request = fc.oneof(
    { arbitrary: fuzzRequest(identities, customerNumber), weight: 4 },
    { arbitrary: multipartRequest(identities, customerNumber), weight: 1 },
  );
  const requests = fc.sample(request, { numRuns: count, seed });
  const send = async (request: InjectOptions) => {
    let res: LightMyRequestResponse | undefined;
    let cancel = () => {};
    try {
      // A request that is never answered (a parser waiting for a part that will not come) is a failure too.
      res = await Promise.race([
        app.inject(request),
        new Promise<undefined>((resolve) => {
          const timer = setTimeout(resolve, ANSWER_WITHIN_MS);
          cancel = () => clearTimeout(timer);
        }),
      ]);
    } catch (e) {
      // light-my-request refuses some headers (invalid characters) itself, as Node's HTTP parser would.
      if ((e as { code?: string }).code === 'ERR_INVALID_CHAR') return;
      throw e;
    } finally {
      cancel();
    }
    if (!res) {
      tally.requests++;
      tally.failures.push({ request, status: 0, body: `no answer within ${ANSWER_WITHIN_MS} ms` });
      return;
    }
    tally.requests++;
    tally.byStatus[res.statusCode] = (tally.byStatus[res.statusCode] ?? 0) + 1;
    const url = String(request.url);
    const oidcPage = url.startsWith('/oidc/') || url === '/oidc';
    // HEAD answers carry no body by definition.
    const bodiless = request.method === 'HEAD';
    if (res.statusCode >= 500 || (res.statusCode >= 400 && !oidcPage && !bodiless && !isEnvelope(res))) {
      tally.failures.push({ request, status: res.statusCode, body: res.body.slice(0, 300) });
    }
  };
  let next = 0;
  const lane = async () => {
    while (next < requests.length) await send(requests[next++]!);
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return tally;
}
