import { defineOperation } from '../common/operation.ts';
import { queryOperations } from '../query/operations.ts';
import {
  listOpenWebSessionsRequestSchema,
  listOpenWebSessionsResponseSchema,
  releaseWebSessionRequestSchema,
  releaseWebSessionResponseSchema,
  webCheckoutRequestSchema,
  webCheckoutResponseSchema,
  webHeartbeatRequestSchema,
  webHeartbeatResponseSchema,
  webReleaseRequestSchema,
  webReleaseResponseSchema,
  webTransactionsAsOfRequestSchema,
  webTransactionsAsOfResponseSchema,
  webTransactionsCountRequestSchema,
  webTransactionsDistinctRequestSchema,
  webTransactionsPageRequestSchema,
  webTransactionsPageResponseSchema,
} from './schemas.ts';

const leaseNotFound =
  'No such lease, or one of a part number the credential is not issued for (answered alike).';

/**
 * The web-license product API (/web/v1, decision 071): a vendor product checks out, renews and releases seats of
 * the part numbers its per-product credential is issued for, in any account; and the portal's open sessions.
 */
export const webSessionsApi = {
  // /web-transactions: one row per lease or denial (listWebTransactions, countWebTransactions, distinct…).
  ...queryOperations({
    name: 'WebTransactions',
    path: '/api/web/transactions',
    summary: 'Web-license sessions and denials of an account',
    description:
      "One row per web-license session (lease) or denied checkout of the account: start, end, duration in minutes, the person, the group the seat counted to, the pool's part number and product, the vendor application and its client, the outcome (Open, Released, Timed out (idle), Timed out (no heartbeat), Released by an administrator, Ended: user removed, Denied) and a denial's reason. Newest first unless sorted. A page may hold up to 10 000 rows (the CSV export). The account is named by `customerNumber`; a user who may not see it gets 403, as for an unknown account, and an export-blocked account is refused with the export-compliance text.",
    page: { body: webTransactionsPageRequestSchema, response: webTransactionsPageResponseSchema },
    count: { body: webTransactionsCountRequestSchema },
    distinct: { body: webTransactionsDistinctRequestSchema },
  }),
  transactionsAsOf: defineOperation({
    operationId: 'webTransactionsAsOf',
    method: 'post',
    path: '/api/web/transactions/as-of',
    summary: 'When the web transactions were last written',
    description:
      "The latest start or end of a web-license session or denial of the account ('YYYY-MM-DD HH:mm:ss', UTC; null when there is none): the page's \"Data as of\". Readers of the account, as for the transactions.",
    auth: 'session',
    effect: 'read',
    body: webTransactionsAsOfRequestSchema,
    response: webTransactionsAsOfResponseSchema,
  }),
  checkout: defineOperation({
    operationId: 'webCheckout',
    method: 'post',
    path: '/web/v1/checkout',
    summary: 'Web-license product: check out a seat for a person of an account',
    description: [
      "For a vendor product (its per-product bearer credential): a lease of a web seat of `partNumber` for the person with `email` in the account's directory. A named pool grants the person's assigned seat; a shared pool a seat of the person's groups' guarantees first, then one nobody is guaranteed, never above a group's cap or the pool's seats. The pool's sessions per user apply to both.",
      '',
      'A refusal is an answer, not an error: **200 with `granted: false`**, the `reason` code (`unknown-user`, `suspended-user`, `no-pool`, `no-seat-assigned`, `session-limit`, `group-cap`, `pool-full`) and a `message` a person can be shown; every refusal is recorded and shows on /web-transactions. A grant answers the `leaseId`, the heartbeat deadline `expiresAt` and `heartbeatSeconds` (send a heartbeat that often).',
      '',
      'Retrying after a timeout: send the same `operationKey` (8–100 letters, digits, - or _) and the checkout is applied once; the retry answers what the first call answered.',
    ].join('\n'),
    auth: 'web-credential',
    effect: 'keyed',
    keyField: 'operationKey',
    statuses: {
      403: 'The credential is not issued for the part number, or the account is disabled or export-blocked.',
      404: 'No such account.',
      409: 'The `operationKey` was already used for another request.',
    },
    body: webCheckoutRequestSchema,
    response: webCheckoutResponseSchema,
  }),
  heartbeat: defineOperation({
    operationId: 'webHeartbeat',
    method: 'post',
    path: '/web/v1/heartbeat',
    summary: 'Web-license product: renew a lease (and report activity)',
    description:
      "Renews an open lease: the heartbeat deadline moves to now plus the pool's heartbeat window. `active: true` says the person did something since the last heartbeat (a lease without activity past the idle timeout ends `idle-timeout`). A lease that has ended answers 410 naming how it ended (`released`, `heartbeat-lost`, `idle-timeout`, `admin-released`, `user-removed`): check out again.",
    auth: 'web-credential',
    effect: 'idempotent',
    statuses: {
      404: leaseNotFound,
      410: 'The lease has ended; `err` says how.',
    },
    body: webHeartbeatRequestSchema,
    response: webHeartbeatResponseSchema,
  }),
  release: defineOperation({
    operationId: 'webRelease',
    method: 'post',
    path: '/web/v1/release',
    summary: 'Web-license product: release a lease',
    description:
      'Ends an open lease (`released`) and frees its seat. Releasing a lease that has already ended is no error: the answer is the lease as it ended.',
    auth: 'web-credential',
    effect: 'idempotent',
    statuses: {
      404: leaseNotFound,
    },
    body: webReleaseRequestSchema,
    response: webReleaseResponseSchema,
  }),
  listOpen: defineOperation({
    operationId: 'listOpenWebSessions',
    method: 'post',
    path: '/api/web/sessions',
    summary: 'Open web-license sessions of the account',
    description:
      "The account's open web-license sessions (leases), of one person of its directory when `userId` is given, newest first. A user who may not see the account gets 403, as for an unknown account.",
    auth: 'session',
    effect: 'read',
    body: listOpenWebSessionsRequestSchema,
    response: listOpenWebSessionsResponseSchema,
  }),
  adminRelease: defineOperation({
    operationId: 'releaseWebSession',
    method: 'post',
    path: '/api/web/sessions/release',
    summary: 'Release a web-license session of the account',
    description:
      "Ends an open session of the account (`admin-released`) and frees its seat; audited. Releasing a session that has already ended changes nothing and answers it as it ended. The account's administrators and business operations only: view-only users get 403.",
    auth: 'session',
    effect: 'idempotent',
    statuses: {
      404: 'No such session of the account.',
    },
    body: releaseWebSessionRequestSchema,
    response: releaseWebSessionResponseSchema,
  }),
} as const;
