import { defineOperation } from '../common/operation.ts';
import { queryOperations } from '../query/operations.ts';
import { countResponseSchema } from '../query/schemas.ts';
import {
  fulfillmentCountRequestSchema,
  fulfillmentCountResponseSchema,
  leasesCountRequestSchema,
  leasesDistinctRequestSchema,
  leasesPageRequestSchema,
  leasesPageResponseSchema,
} from './schemas.ts';

/** Spec 002 §7: every lease and perpetual of the account (state Deployed). */
export const leasesQuery = queryOperations({
  name: 'Leases',
  path: '/api/fetchEntitlements',
  summary: 'Leases and perpetuals of an account',
  description:
    'Every lease and perpetual (state Deployed) of the account. The account is named by `customerNumber`; a user who may not see it gets 403, as for an unknown account.',
  page: { body: leasesPageRequestSchema, response: leasesPageResponseSchema },
  count: { body: leasesCountRequestSchema },
  distinct: { body: leasesDistinctRequestSchema },
});

/**
 * The Active and Inactive tables of /ssl, split in SQL from today's UTC date: active = started and (permanent or
 * ending today or later); NOT STARTED and EXPIRED rows are inactive.
 */
export const leasesApi = {
  ...leasesQuery,
  active: defineOperation({
    operationId: 'listActiveLeases',
    method: 'post',
    path: '/api/fetchEntitlements/active',
    summary: 'Active leases and perpetuals of an account (filter, sort, page)',
    description:
      'The Active table of /ssl: leases and perpetuals that have started and are permanent or end today or later (UTC). Paged and filtered like `/api/fetchEntitlements`.',
    auth: 'session',
    effect: 'read',
    body: leasesPageRequestSchema,
    response: leasesPageResponseSchema,
  }),
  inactive: defineOperation({
    operationId: 'listInactiveLeases',
    method: 'post',
    path: '/api/fetchEntitlements/inactive',
    summary: 'Inactive (not started or expired) leases of an account (filter, sort, page)',
    description:
      'The Inactive table of /ssl: leases not started yet or expired (UTC today). Paged and filtered like `/api/fetchEntitlements`.',
    auth: 'session',
    effect: 'read',
    body: leasesPageRequestSchema,
    response: leasesPageResponseSchema,
  }),
  activeCount: defineOperation({
    operationId: 'countActiveLeases',
    method: 'post',
    path: '/api/fetchEntitlementsActive/count',
    summary: 'Count of active leases and perpetuals matching a filter',
    description: 'The number of active leases and perpetuals the filter selects.',
    auth: 'session',
    effect: 'read',
    body: leasesCountRequestSchema,
    response: countResponseSchema,
  }),
  inactiveCount: defineOperation({
    operationId: 'countInactiveLeases',
    method: 'post',
    path: '/api/fetchEntitlementsInactive/count',
    summary: 'Count of inactive leases matching a filter',
    description: 'The number of inactive leases the filter selects.',
    auth: 'session',
    effect: 'read',
    body: leasesCountRequestSchema,
    response: countResponseSchema,
  }),
  fulfillmentCount: defineOperation({
    operationId: 'countFulfillments',
    method: 'post',
    path: '/api/fulfillments/count',
    summary: 'Seats activated on license servers per activation id',
    description:
      "For each activation id asked, the seats activated on the account's license servers, to show used against available.",
    auth: 'session',
    effect: 'read',
    body: fulfillmentCountRequestSchema,
    response: fulfillmentCountResponseSchema,
  }),
} as const;
