import { z } from 'zod';
import { accountsApi } from './accounts/api.ts';
import { activationsApi } from './activations/api.ts';
import { alertsApi } from './alerts/api.ts';
import { apiTokensApi } from './api-tokens/api.ts';
import { auditApi } from './audit/api.ts';
import { authApi } from './auth/api.ts';
import { clsApi } from './cls/api.ts';
import { failureSchema } from './common/envelope.ts';
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
import { statementsApi } from './statements/api.ts';
import { transactionsApi } from './transactions/api.ts';
import { userApi } from './user/api.ts';

/**
 * Every call the server answers (besides the built-in OpenID provider under /oidc and the web app's files).
 * The server's routes are registered from these declarations and a test holds them equal.
 */
export const apiCatalogue: Operation[] = [
  platformApi,
  authApi,
  apiTokensApi,
  userApi,
  accountsApi,
  prefsApi,
  featureFlagsApi,
  alertsApi,
  emailsApi,
  portalAccessApi,
  ipRulesApi,
  entitlementsApi,
  leasesApi,
  licenseServersApi,
  activationsApi,
  fsaApi,
  licenseFilesApi,
  statementsApi,
  transactionsApi,
  credentialsApi,
  clsApi,
  auditApi,
  noticesApi,
].flatMap((group) => Object.values(group));

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
  for (const [name, def] of Object.entries($defs ?? {}))
    components[names.get(name)!] = rewrite(def) as JsonSchema;
  if (names.has('#')) components[`${prefix}Root`] = body;
  return body;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The OpenAPI 3.1 document served at /api/docs, built from the catalogue (linted with Redocly's rules). */
export function openApiDocument(version: string) {
  const components: Record<string, JsonSchema> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  const json = (schema: JsonSchema) => ({ content: { 'application/json': { schema } } });
  const failure = json(z.toJSONSchema(failureSchema) as JsonSchema);
  for (const op of apiCatalogue) {
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
          schema: property,
        }));
      }),
    ];
    const success =
      op.produces === 'redirect'
        ? { 302: { description: 'Redirect' } }
        : {
            200: op.response
              ? { description: 'SUCCESS', ...json(toSchema(op.response, 'output', 'Response')) }
              : {
                  description: 'SUCCESS',
                  content: {
                    [op.produces ?? 'application/json']: {
                      schema:
                        op.produces === 'application/pdf'
                          ? { type: 'string', format: 'binary' }
                          : { type: 'string' },
                    },
                  },
                },
          };
    paths[op.path] ??= {};
    paths[op.path][op.method] = {
      operationId: op.operationId,
      summary: op.summary,
      security:
        op.auth === 'public'
          ? []
          : op.auth === 'session'
            ? [{ session: [] }, { bearer: [] }]
            : [{ server: [] }],
      ...(parameters.length > 0 && { parameters }),
      ...(op.body && {
        requestBody: { required: true, ...json(toSchema(op.body, 'input', 'Body')) },
      }),
      responses: {
        ...success,
        400: { description: 'Bad input', ...failure },
        ...(op.auth !== 'public' && {
          401: { description: 'Not signed in (or no valid credential)', ...failure },
          403: { description: 'Not allowed', ...failure },
        }),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Licensing Portal API',
      version,
      description: 'Every answer is JSON {status: "SUCCESS", …} or {status: "FAILURE", err} unless stated.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    // Relative: the document is served by the portal it describes, wherever that is installed.
    servers: [{ url: '/', description: 'This portal' }],
    components: {
      schemas: components,
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'lp_session',
          description: 'Signed-in browser session',
        },
        bearer: { type: 'http', scheme: 'bearer', description: 'Personal API token' },
        server: { type: 'http', scheme: 'bearer', description: 'License-server credential (/cls/v1)' },
      },
    },
    paths,
  };
}
