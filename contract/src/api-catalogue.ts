import { z } from 'zod';
import {
  accountInfoResponseSchema,
  accountsCheckRequestSchema,
  accountsCountRequestSchema,
  accountsDistinctRequestSchema,
  getAccountsRequestSchema,
  getAccountsResponseSchema,
} from './accounts/schemas.ts';
import {
  activeAlertsResponseSchema,
  alertInputSchema,
  alertResponseSchema,
  alertsCountRequestSchema,
  alertsDistinctRequestSchema,
  alertsPageRequestSchema,
  alertsPageResponseSchema,
} from './alerts/schemas.ts';
import { elasticServerApi } from './cls/api.ts';
import { failureSchema } from './common/envelope.ts';
import type { Operation } from './common/operation.ts';
import { credentialsApi } from './credentials/api.ts';
import {
  emailsCountRequestSchema,
  emailsDistinctRequestSchema,
  getEmailRequestSchema,
  getEmailResponseSchema,
  getEmailsRequestSchema,
  getEmailsResponseSchema,
} from './emails/schemas.ts';
import { entitlementsApi } from './entitlements/api.ts';
import {
  featuresResponseSchema,
  saveFeaturesRequestSchema,
  saveFeaturesResponseSchema,
} from './featureflags/schemas.ts';
import {
  activatedElasticServersRequestSchema,
  activatedElasticServersResponseSchema,
  getIpsRequestSchema,
  getIpsResponseSchema,
  setIpsRequestSchema,
  setIpsResponseSchema,
} from './ip-rules/schemas.ts';
import {
  buildInfoResponseSchema,
  clientConfigSchema,
  lastUpdatedResponseSchema,
} from './platform/schemas.ts';
import {
  getPortalAccessRequestSchema,
  getPortalAccessResponseSchema,
  setPortalAccessRequestSchema,
  setPortalAccessResponseSchema,
} from './portal-access/schemas.ts';
import { prefsResponseSchema, savePrefsRequestSchema } from './prefs/schemas.ts';
import { countResponseSchema, distinctResponseSchema } from './query/schemas.ts';
import { statementsApi } from './statements/api.ts';
import { transactionsApi } from './transactions/api.ts';
import { userDetailsResponseSchema } from './user/schemas.ts';

const ok = z.object({ status: z.literal('SUCCESS') });

/** Every call the server answers, with its contract schemas; the OpenAPI document at /api/docs is built from it. */
export const apiCatalogue: Operation[] = [
  {
    method: 'get',
    path: '/api/config',
    summary: 'Client configuration loaded at start',
    public: true,
    response: clientConfigSchema,
  },
  { method: 'get', path: '/api/environment', summary: 'Environment: dev, uat or prod (text)', public: true },
  {
    method: 'get',
    path: '/api/auth/login',
    summary: 'Starts the OpenID Connect sign-in (redirect)',
    public: true,
  },
  {
    method: 'get',
    path: '/api/auth/callback',
    summary: 'OpenID Connect redirect target (redirect)',
    public: true,
  },
  { method: 'post', path: '/api/auth/logout', summary: 'Ends the session; answers the IdP sign-out URL' },
  { method: 'get', path: '/api/auth/session', summary: 'Who is signed in (401 when nobody)', public: true },
  {
    method: 'get',
    path: '/api/getUserDetails',
    summary: 'The signed-in user',
    response: userDetailsResponseSchema,
  },
  {
    method: 'get',
    path: '/api/getBuildInfo',
    summary: 'Build information text',
    response: buildInfoResponseSchema,
  },
  {
    method: 'get',
    path: '/api/lastupdatedon',
    summary: 'Last received usage transaction',
    response: lastUpdatedResponseSchema,
  },
  {
    method: 'post',
    path: '/api/getaccounts',
    summary: 'Accounts the user may select',
    body: getAccountsRequestSchema,
    response: getAccountsResponseSchema,
  },
  {
    method: 'post',
    path: '/api/getaccounts/count',
    summary: 'Count of accounts',
    body: accountsCountRequestSchema,
    response: countResponseSchema,
  },
  {
    method: 'post',
    path: '/api/getaccounts/distinct',
    summary: 'Distinct account ids or names',
    body: accountsDistinctRequestSchema,
    response: distinctResponseSchema,
  },
  {
    method: 'post',
    path: '/api/getCustomerAccounts',
    summary: 'Accounts, optionally of one customer e-mail',
    body: getAccountsRequestSchema,
    response: getAccountsResponseSchema,
  },
  {
    method: 'post',
    path: '/api/accounts',
    summary: 'Single-account check',
    body: accountsCheckRequestSchema,
  },
  {
    method: 'get',
    path: '/api/getaccountinfo/{customerNumber}',
    summary: 'Account info flags',
    response: accountInfoResponseSchema,
  },
  {
    method: 'get',
    path: '/api/featureflag/pref',
    summary: 'Saved table views of the user',
    response: prefsResponseSchema,
  },
  {
    method: 'post',
    path: '/api/featureflag/pref',
    summary: 'Save or reset table views',
    body: savePrefsRequestSchema,
    response: ok,
  },
  {
    method: 'get',
    path: '/api/featureflag/features',
    summary: 'Feature flags and the set in force for the user',
    response: featuresResponseSchema,
  },
  {
    method: 'post',
    path: '/api/featureflag/features',
    summary: 'Save the user feature set (non-production, vendor staff; 422 on conflict)',
    body: saveFeaturesRequestSchema,
    response: saveFeaturesResponseSchema,
  },
  {
    method: 'get',
    path: '/api/notifications',
    summary: 'Active service alerts',
    response: activeAlertsResponseSchema,
  },
  {
    method: 'post',
    path: '/api/notifications',
    summary: 'Service alerts (filter, sort, page)',
    body: alertsPageRequestSchema,
    response: alertsPageResponseSchema,
  },
  {
    method: 'post',
    path: '/api/notifications/count',
    summary: 'Count of alerts',
    body: alertsCountRequestSchema,
    response: countResponseSchema,
  },
  {
    method: 'post',
    path: '/api/notifications/distinct',
    summary: 'Distinct alert values',
    body: alertsDistinctRequestSchema,
    response: distinctResponseSchema,
  },
  {
    method: 'post',
    path: '/api/notifications/admin',
    summary: 'Create an alert (vendor staff)',
    body: alertInputSchema,
    response: alertResponseSchema,
  },
  {
    method: 'put',
    path: '/api/notifications/admin/{id}',
    summary: 'Edit an alert (vendor staff)',
    body: alertInputSchema,
    response: alertResponseSchema,
  },
  {
    method: 'post',
    path: '/api/notifications/admin/{id}/resolve',
    summary: 'Resolve an alert (vendor staff)',
    response: alertResponseSchema,
  },
  {
    method: 'post',
    path: '/api/getemails',
    summary: 'E-mails sent for an account (filter, sort, page)',
    body: getEmailsRequestSchema,
    response: getEmailsResponseSchema,
  },
  {
    method: 'post',
    path: '/api/getemails/count',
    summary: 'Count of e-mails',
    body: emailsCountRequestSchema,
    response: countResponseSchema,
  },
  {
    method: 'post',
    path: '/api/getemails/distinct',
    summary: 'Distinct e-mail values',
    body: emailsDistinctRequestSchema,
    response: distinctResponseSchema,
  },
  {
    method: 'post',
    path: '/api/getemail',
    summary: 'One e-mail of the account',
    body: getEmailRequestSchema,
    response: getEmailResponseSchema,
  },
  {
    method: 'delete',
    path: '/api/emails/{id}',
    summary: 'Delete an e-mail record (vendor staff)',
    response: ok,
  },
  {
    method: 'post',
    path: '/api/getportalaccess',
    summary: 'Portal-access contacts of the account',
    body: getPortalAccessRequestSchema,
    response: getPortalAccessResponseSchema,
  },
  {
    method: 'post',
    path: '/api/setportalaccess',
    summary: 'Replace the contacts (refused when oldContacts are stale)',
    body: setPortalAccessRequestSchema,
    response: setPortalAccessResponseSchema,
  },
  {
    method: 'post',
    path: '/api/activatedelasticservers',
    summary: 'Elastic license servers of the account',
    body: activatedElasticServersRequestSchema,
    response: activatedElasticServersResponseSchema,
  },
  {
    method: 'post',
    path: '/api/getips',
    summary: 'IP allow-list of a server',
    body: getIpsRequestSchema,
    response: getIpsResponseSchema,
  },
  {
    method: 'post',
    path: '/api/setips',
    summary: 'Replace the IP allow-list',
    body: setIpsRequestSchema,
    response: setIpsResponseSchema,
  },
  ...entitlementsApi,
  ...statementsApi,
  ...transactionsApi,
  ...credentialsApi,
  ...elasticServerApi,
];

export function openApiDocument(version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  const failure = { content: { 'application/json': { schema: z.toJSONSchema(failureSchema) } } };
  for (const op of apiCatalogue) {
    paths[op.path] ??= {};
    paths[op.path][op.method] = {
      summary: op.summary,
      security: op.public ? [] : [{ session: [] }, { bearer: [] }],
      ...(op.body && {
        requestBody: {
          required: true,
          content: { 'application/json': { schema: z.toJSONSchema(op.body, { io: 'input' }) } },
        },
      }),
      responses: {
        200: op.response
          ? {
              description: 'SUCCESS',
              content: {
                'application/json': { schema: z.toJSONSchema(op.response, { unrepresentable: 'any' }) },
              },
            }
          : { description: 'SUCCESS' },
        400: { description: 'Bad input', ...failure },
        ...(op.public
          ? {}
          : {
              401: { description: 'Not signed in', ...failure },
              403: { description: 'Not allowed', ...failure },
            }),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Licensing Portal API', version },
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'lp_session' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
    },
    paths,
  };
}
