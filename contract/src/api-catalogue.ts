import { z } from 'zod';
import { accountsApi } from './accounts/api.ts';
import { activationsApi } from './activations/api.ts';
import { alertsApi } from './alerts/api.ts';
import { apiTokensApi } from './api-tokens/api.ts';
import { auditApi } from './audit/api.ts';
import { authApi } from './auth/api.ts';
import { clsApi } from './cls/api.ts';
import { errorCatalogue } from './common/errors.ts';
import type { Operation } from './common/operation.ts';
import { credentialsApi } from './credentials/api.ts';
import { emailsApi } from './emails/api.ts';
import { entitlementsApi } from './entitlements/api.ts';
import { featureFlagsApi } from './featureflags/api.ts';
import { fsaApi } from './fsa/api.ts';
import { ipRulesApi } from './ip-rules/api.ts';
import { leasesApi } from './leases/api.ts';
import { licenseFilesApi } from './license-files/api.ts';
import { licenseServersApi } from './license-servers/api.ts';
import { noticesApi } from './notices/api.ts';
import { platformApi } from './platform/api.ts';
import { portalAccessApi } from './portal-access/api.ts';
import { prefsApi } from './prefs/api.ts';
import { scimApi } from './scim/api.ts';
import { statementsApi } from './statements/api.ts';
import { transactionsApi } from './transactions/api.ts';
import { userApi } from './user/api.ts';
import { webDirectoryApi } from './web-directory/api.ts';
import { webReportingApi } from './web-reporting/api.ts';
import { webSeatsApi } from './web-seats/api.ts';
import { webSessionsApi } from './web-sessions/api.ts';

/**
 * The features of the API, each named as its contract folder (the OpenAPI tag of its calls), with the line the
 * reference page shows above them.
 */
const features: { tag: string; description: string; operations: Record<string, Operation> }[] = [
  {
    tag: 'platform',
    description: 'Health, readiness, client configuration and this document',
    operations: platformApi,
  },
  {
    tag: 'auth',
    description: 'Sign-in through OpenID Connect, the session and sign-out',
    operations: authApi,
  },
  {
    tag: 'api-tokens',
    description: 'Personal API tokens: Bearer credentials for the API',
    operations: apiTokensApi,
  },
  { tag: 'user', description: 'The signed-in user', operations: userApi },
  { tag: 'accounts', description: 'Accounts the user may select and their flags', operations: accountsApi },
  { tag: 'prefs', description: 'Saved table views', operations: prefsApi },
  {
    tag: 'featureflags',
    description: 'Feature flags and the features in force for the user',
    operations: featureFlagsApi,
  },
  { tag: 'alerts', description: 'Service alerts and their administration', operations: alertsApi },
  { tag: 'emails', description: 'E-mails the portal sent for an account', operations: emailsApi },
  {
    tag: 'portal-access',
    description: "An account's portal contacts and their authorization",
    operations: portalAccessApi,
  },
  { tag: 'ip-rules', description: 'IP allow-lists of elastic license servers', operations: ipRulesApi },
  {
    tag: 'entitlements',
    description: 'Elastic entitlements with their ledger balances',
    operations: entitlementsApi,
  },
  {
    tag: 'leases',
    description: 'Leases and perpetuals, and seats activated per activation id',
    operations: leasesApi,
  },
  {
    tag: 'license-servers',
    description: 'License servers (hosts), their shared-server groups and settings',
    operations: licenseServersApi,
  },
  {
    tag: 'activations',
    description: 'Activating and returning seats on hosts, and their history',
    operations: activationsApi,
  },
  { tag: 'fsa', description: 'Flexible Spending Account contracts, products and orders', operations: fsaApi },
  {
    tag: 'license-files',
    description: 'Signed license files: generate, download, e-mail, preview and verify',
    operations: licenseFilesApi,
  },
  {
    tag: 'statements',
    description: 'Elastic usage statements: JSON, PDF and e-mail',
    operations: statementsApi,
  },
  {
    tag: 'transactions',
    description: 'Usage transactions (sessions) of an account',
    operations: transactionsApi,
  },
  {
    tag: 'credentials',
    description: 'PIN and allowed usernames of elastic license servers',
    operations: credentialsApi,
  },
  { tag: 'cls', description: 'The license-server API (/cls/v1) and its credentials', operations: clsApi },
  { tag: 'audit', description: 'The audit log and its signed checkpoints', operations: auditApi },
  {
    tag: 'notices',
    description: 'Proactive notices and the choices of who receives them',
    operations: noticesApi,
  },
  {
    tag: 'web-seats',
    description: 'Web licensing: seat pools of Named User and Shared Web products and their lease policy',
    operations: webSeatsApi,
  },
  {
    tag: 'web-directory',
    description: "Web licensing: the account's people and groups, invitations and CSV imports",
    operations: webDirectoryApi,
  },
  {
    tag: 'web-sessions',
    description:
      'Web licensing: the product API (/web/v1) that checks out, renews and releases seats, open sessions, and every session and denial (/web-transactions)',
    operations: webSessionsApi,
  },
  {
    tag: 'web-reporting',
    description:
      "Web licensing: utilisation of the account's seat pools, sessions by hour and weekday, denials and the named seats nobody uses",
    operations: webReportingApi,
  },
  {
    tag: 'scim',
    description:
      "Web licensing: the SCIM tokens an account's identity provider provisions people and groups with (the endpoint /scim/v2/{customerNumber} is SCIM's own, see docs/scim.md)",
    operations: scimApi,
  },
];

/**
 * Every call the server answers (besides the built-in OpenID provider under /oidc and the web app's files).
 * The server's routes are registered from these declarations and a test holds them equal.
 */
export const apiCatalogue: Operation[] = features.flatMap((feature) => Object.values(feature.operations));

type JsonSchema = Record<string, unknown>;

/**
 * zod writes the definitions a schema needs (recursive ones) into its own `$defs`; an OpenAPI document
 * keeps them in components. Moves them there under names unique to the operation and rewrites the refs.
 */
function hoistDefinitions(schema: JsonSchema, prefix: string, components: Record<string, JsonSchema>) {
  const { $defs, $schema: _dialect, ...rest } = schema as JsonSchema & { $defs?: Record<string, JsonSchema> };
  const names = new Map(
    Object.keys($defs ?? {}).map((name) => [name, `${prefix}${name.replace(/\W/g, '')}`]),
  );
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (typeof node !== 'object' || node === null) return node;
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')) {
        out.$ref = `#/components/schemas/${names.get(value.slice('#/$defs/'.length))}`;
      } else if (key === '$ref' && value === '#') {
        // A schema that refers to itself as a whole.
        out.$ref = `#/components/schemas/${prefix}Root`;
        names.set('#', `${prefix}Root`);
      } else {
        out[key] = rewrite(value);
      }
    }
    return out;
  };
  const body = rewrite(rest) as JsonSchema;
  for (const [name, def] of Object.entries($defs ?? {})) {
    const own = `#/components/schemas/${names.get(name)}`;
    components[names.get(name)!] = withoutSelfReference(rewrite(def), own) as JsonSchema;
  }
  if (names.has('#')) components[`${prefix}Root`] = body;
  return body;
}

/**
 * A definition nested in itself (a JSON value of a saved view) keeps its shape at the top, and any JSON value
 * where it nests: generated TypeScript clients cannot name a type inside its own declaration (TS2502).
 */
function withoutSelfReference(node: unknown, own: string): unknown {
  if (Array.isArray(node)) return node.map((n) => withoutSelfReference(n, own));
  if (typeof node !== 'object' || node === null) return node;
  if ((node as JsonSchema).$ref === own) return {};
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, withoutSelfReference(v, own)]));
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const envelopeRef = { $ref: '#/components/schemas/Failure' };
const failureJson = (description: string, schema: JsonSchema = envelopeRef) => ({
  description,
  content: { 'application/json': { schema } },
});

/** The failure answers every call of a kind gives (decision 058), shared as components and referred to. */
const sharedFailures = {
  BadRequest: failureJson(
    'Bad input: `err` names the field and the problem. Any call: a malformed URL, query, cookie or credential header.',
  ),
  NotSignedIn: failureJson('No valid session cookie or personal API token (`err`: Unauthorised).'),
  NoServerCredential: failureJson('No valid license-server credential.'),
  NoWebCredential: failureJson('No valid web-license credential (missing, unknown or revoked).'),
  Forbidden: failureJson(
    "Not allowed: the account is not one the user may see or change (an unknown account answers alike), the user's role may not do this, or a cookie session's write lacks the header `x-lp-csrf: 1`.",
  ),
  TooLarge: failureJson('The request body is larger than the server takes.'),
  NotJson: failureJson('The request body is not `application/json`.'),
  Unavailable: failureJson(
    'Unavailable, retry later: the database cannot be reached or did not answer in time, a change to the same data was saved at the same moment, this server is shutting down, or it cannot open its sealed keys (an operator must correct its key setting).',
  ),
  OtherFailure: failureJson(
    'Any other failure, in the same envelope: 500 for a defect (`err` carries a reference to quote to support), 408 or 431 when the HTTP request itself was refused.',
  ),
};
const shared = (name: keyof typeof sharedFailures) => ({ $ref: `#/components/responses/${name}` });

/** When a call with an upload form answers 413 and 415. */
const uploadFailures = (form: NonNullable<Operation['form']>) => ({
  413: failureJson(`The file (part \`${form.file}\`) is larger than this upload takes.`),
  415: failureJson('The request is not `multipart/form-data`.'),
});

/** A keyed write whose key travels in the Idempotency-Key header (decision 064); route() claims it. */
const keyedByHeader = (op: Operation) => op.effect === 'keyed' && !op.keyField;
const keyReused = 'The `Idempotency-Key` was already used for another request.';
const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'One key per logical call, sent again unchanged with every retry of it: the call is applied once, and a retry answers what the first call answered. Without it every call is applied.',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{8,100}$' },
};

/**
 * The failure statuses of one call (decision 058): derived from its declaration where the server answers them
 * for every call of the kind (400 any call; 401 signed calls; 403 a signed-in user's writes, which need the
 * anti-CSRF header; 413 and 415 any call but a GET, since the body parser reads what is sent; 503 any call, as the
 * database or shutdown can answer it), plus the ones the declaration names with when.
 */
function failureResponses(
  op: Operation,
  toSchema: (schema: z.ZodType) => JsonSchema,
): Record<string, unknown> {
  const conflict = op.statuses?.[409];
  const statuses = keyedByHeader(op)
    ? {
        ...op.statuses,
        409:
          typeof conflict === 'string'
            ? `${conflict.replace(/\.$/, '')}; or the ${keyReused.charAt(0).toLowerCase()}${keyReused.slice(1)}`
            : (conflict ?? keyReused),
      }
    : op.statuses;
  const declared = Object.fromEntries(
    Object.entries(statuses ?? {})
      .filter(([status]) => status !== '304')
      .map(([status, when]) => [
        status,
        typeof when === 'string'
          ? failureJson(when)
          : failureJson(when.when, { anyOf: [envelopeRef, toSchema(when.body)] }),
      ]),
  );
  return {
    400: shared('BadRequest'),
    ...(op.auth === 'session' && { 401: shared('NotSignedIn') }),
    ...(op.auth === 'server-credential' && { 401: shared('NoServerCredential') }),
    ...(op.auth === 'web-credential' && { 401: shared('NoWebCredential') }),
    ...(op.auth === 'session' && op.method !== 'get' && { 403: shared('Forbidden') }),
    // Fastify reads a body sent with any method but GET, whether the call takes one or not.
    ...(op.method !== 'get' && { 413: shared('TooLarge'), 415: shared('NotJson') }),
    ...(op.form && uploadFailures(op.form)),
    ...declared,
    503: shared('Unavailable'),
    default: shared('OtherFailure'),
  };
}

/** The failure envelope as the server's error handler sends it. */
const failureComponent = {
  type: 'object',
  description: 'Every failure: `{status: "FAILURE", err}`; `err` is meant for people, `code` for programs.',
  properties: {
    status: { const: 'FAILURE' },
    err: { type: 'string', description: 'What went wrong, in words a user can be shown' },
    code: {
      type: 'string',
      enum: Object.keys(errorCatalogue),
      description: 'The error catalogue code of the status',
    },
  },
  required: ['status', 'err'],
};

/** The OpenAPI 3.1 document served at /api/docs, built from the catalogue (decision 058). */
export function openApiDocument(version: string, supportUrl?: string) {
  const components: Record<string, JsonSchema> = { Failure: failureComponent };
  const paths: Record<string, Record<string, unknown>> = {};
  const json = (schema: JsonSchema) => ({ content: { 'application/json': { schema } } });
  for (const feature of features) {
    for (const op of Object.values(feature.operations)) {
      const prefix = capitalized(op.operationId);
      const toSchema = (schema: z.ZodType, io: 'input' | 'output', part: string) =>
        hoistDefinitions(
          z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema,
          `${prefix}${part}`,
          components,
        );
      const parameters = [
        ...(['params', 'query'] as const).flatMap((part) => {
          const schema = op[part];
          if (!schema) return [];
          const object = toSchema(schema, 'input', capitalized(part)) as {
            properties?: Record<string, JsonSchema>;
            required?: string[];
          };
          return Object.entries(object.properties ?? {}).map(([name, property]) => ({
            name,
            in: part === 'params' ? 'path' : 'query',
            required: part === 'params' || (object.required ?? []).includes(name),
            ...(typeof property.description === 'string' && { description: property.description }),
            schema: property,
          }));
        }),
        ...(keyedByHeader(op) ? [idempotencyKeyParameter] : []),
      ];
      const success =
        op.produces === 'redirect'
          ? {
              302: {
                description: 'Redirect',
                headers: {
                  Location: { description: 'Where the browser goes next', schema: { type: 'string' } },
                },
              },
            }
          : {
              200: op.response
                ? { description: 'SUCCESS', ...json(toSchema(op.response, 'output', 'Response')) }
                : {
                    description: 'SUCCESS',
                    content: {
                      [op.produces ?? 'application/json']: {
                        schema:
                          op.produces === 'application/pdf'
                            ? { type: 'string', contentMediaType: 'application/pdf' }
                            : { type: 'string' },
                      },
                    },
                  },
              ...(typeof op.statuses?.[304] === 'string' && { 304: { description: op.statuses[304] } }),
            };
      const requestBody = op.body
        ? { required: true, ...json(toSchema(op.body, 'input', 'Body')) }
        : op.form && {
            required: true,
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  properties: {
                    [op.form.file]: { type: 'string', contentMediaType: 'application/octet-stream' },
                    ...Object.fromEntries(op.form.fields.map((field) => [field, { type: 'string' }])),
                  },
                  required: [op.form.file, ...op.form.fields],
                },
              },
            },
          };
      paths[op.path] ??= {};
      paths[op.path][op.method] = {
        operationId: op.operationId,
        tags: [feature.tag],
        summary: op.summary,
        description: op.description,
        security:
          op.auth === 'public'
            ? []
            : op.auth === 'session'
              ? [{ session: [] }, { bearer: [] }]
              : op.auth === 'web-credential'
                ? [{ web: [] }]
                : [{ server: [] }],
        ...(parameters.length > 0 && { parameters }),
        ...(requestBody && { requestBody }),
        responses: {
          ...success,
          ...failureResponses(op, (schema) => toSchema(schema, 'output', 'Failure')),
        },
      };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Licensing Portal API',
      version,
      description:
        'Every JSON answer is `{status: "SUCCESS", …}` or, for a failure, `{status: "FAILURE", err}` (the `Failure` schema) unless a call states otherwise. Sign in with a personal API token (Settings › API Tokens) sent as `Authorization: Bearer …`.',
      ...(supportUrl && { contact: { name: 'Support', url: supportUrl } }),
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    // Relative: the document is served by the portal it describes, wherever that is installed.
    servers: [{ url: '/', description: 'This portal' }],
    tags: features.map(({ tag, description }) => ({ name: tag, description })),
    components: {
      schemas: components,
      responses: sharedFailures,
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'lp_session',
          description: 'Signed-in browser session (writes also send the header `x-lp-csrf: 1`)',
        },
        bearer: { type: 'http', scheme: 'bearer', description: 'Personal API token' },
        server: { type: 'http', scheme: 'bearer', description: 'License-server credential (/cls/v1)' },
        web: { type: 'http', scheme: 'bearer', description: 'Per-product web-license credential (/web/v1)' },
      },
    },
    paths,
  };
}
