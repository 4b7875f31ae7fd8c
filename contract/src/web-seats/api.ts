import { defineOperation } from '../common/operation.ts';
import {
  listWebPoolsRequestSchema,
  listWebPoolsResponseSchema,
  saveWebGroupTermsRequestSchema,
  saveWebPoolPolicyRequestSchema,
  saveWebPoolPolicyResponseSchema,
  setWebGroupPoolsRequestSchema,
  transferWebSeatRequestSchema,
  webSeatChangeResponseSchema,
  webSeatsRequestSchema,
} from './schemas.ts';

const previewNote =
  ' With `preview: true` it answers what the change would do (the same refusals included) and writes nothing. A change that changes nothing records nothing.';
const assignmentStatuses = {
  404: 'The part number is not a web seat pool of the account, or a person or group is not in its directory.',
  409: 'The change would pass the pool’s seats or transfer allowance, the pool is of the other kind, or a person is suspended or removed (the text names the pool and the numbers).',
} as const;

export const webSeatsApi = {
  pools: defineOperation({
    operationId: 'listWebPools',
    method: 'post',
    path: '/api/web/pools',
    summary: 'Web seat pools of the account',
    description:
      "The account's web seat pools (decision 071): one per product whose Deployed lines with a Named User or Shared Web license model cover today, with their seats (the sum of the lines' quantities), their term (earliest start, latest end; null end: permanent), the pool's lease policy (the defaults when none was saved), the named seats assigned, the leases open now and the most open at once over the last 30 days, the transfers of the rolling 30 days against their allowance, and a shared pool's group terms. The account is named by `customerNumber`; a user who may not see it gets 403, as for an unknown account.",
    auth: 'session',
    effect: 'read',
    body: listWebPoolsRequestSchema,
    response: listWebPoolsResponseSchema,
  }),
  savePolicy: defineOperation({
    operationId: 'saveWebPoolPolicy',
    method: 'post',
    path: '/api/web/pools/policy',
    summary: "Save a web seat pool's lease policy",
    description:
      "Replaces the lease policy of one web seat pool of the account (heartbeat window 60–3600 s, idle timeout 60–86400 s, sessions per user 1–10); the change is audited. The account's administrators and business operations only: view-only users get 403.",
    auth: 'session',
    effect: 'idempotent',
    statuses: {
      404: 'The part number is not a web seat pool of the account.',
    },
    body: saveWebPoolPolicyRequestSchema,
    response: saveWebPoolPolicyResponseSchema,
  }),
  assign: defineOperation({
    operationId: 'assignWebSeats',
    method: 'post',
    path: '/api/web/seats/assign',
    summary: 'Assign named seats to people',
    description:
      "Gives each person (ids of the account's directory, invited or active) a seat of a named pool, assigned directly: one who holds it through a group now holds it directly too. Refused when the pool would hold more seats than it has. Administrators and business operations; audited." +
      previewNote,
    auth: 'session',
    effect: 'idempotent',
    statuses: assignmentStatuses,
    body: webSeatsRequestSchema,
    response: webSeatChangeResponseSchema,
  }),
  unassign: defineOperation({
    operationId: 'unassignWebSeats',
    method: 'post',
    path: '/api/web/seats/unassign',
    summary: 'Unassign named seats',
    description:
      "Takes each person's direct seat of a named pool; one whom a group given the pool reaches keeps a seat through it (counted as keptThroughGroup). Not a transfer. Administrators and business operations; audited." +
      previewNote,
    auth: 'session',
    effect: 'idempotent',
    statuses: assignmentStatuses,
    body: webSeatsRequestSchema,
    response: webSeatChangeResponseSchema,
  }),
  transfer: defineOperation({
    operationId: 'transferWebSeat',
    method: 'post',
    path: '/api/web/seats/transfer',
    summary: "Transfer a person's named seat to another",
    description:
      "Takes `fromUserId`'s direct seat of a named pool and gives it to `toUserId` (who holds none), counted as one transfer: a pool allows as many per rolling 30 days as it has seats (at least 1). Sent again after it was made, it changes nothing. Administrators and business operations; audited." +
      previewNote,
    auth: 'session',
    effect: 'idempotent',
    statuses: assignmentStatuses,
    body: transferWebSeatRequestSchema,
    response: webSeatChangeResponseSchema,
  }),
  setGroupPools: defineOperation({
    operationId: 'setWebGroupPools',
    method: 'post',
    path: '/api/web/groups/pools',
    summary: 'Give named pools to a group',
    description:
      "Replaces the named pools given to a group of the account's directory: every invited or active member holds a seat of each; seats that came only from a pool taken away go (direct seats stay). Refused when a pool would hold more seats than it has. Administrators and business operations; audited." +
      previewNote,
    auth: 'session',
    effect: 'idempotent',
    statuses: assignmentStatuses,
    body: setWebGroupPoolsRequestSchema,
    response: webSeatChangeResponseSchema,
  }),
  saveGroupTerms: defineOperation({
    operationId: 'saveWebGroupTerms',
    method: 'post',
    path: '/api/web/pools/terms',
    summary: "Save the groups' terms of a shared pool",
    description:
      "Replaces the terms of a shared pool: per group of the account's directory, the seats kept free for its members (guaranteed, a whole number, 0 or more) and the most they may hold at once (cap: at least the guarantee and at most the pool's seats, or null for none). Refused when the guarantees pass the pool's seats. Administrators and business operations; audited." +
      previewNote,
    auth: 'session',
    effect: 'idempotent',
    statuses: assignmentStatuses,
    body: saveWebGroupTermsRequestSchema,
    response: webSeatChangeResponseSchema,
  }),
} as const;
