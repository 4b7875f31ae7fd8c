import { defineOperation } from '../common/operation.ts';
import {
  listWebPoolsRequestSchema,
  listWebPoolsResponseSchema,
  saveWebPoolPolicyRequestSchema,
  saveWebPoolPolicyResponseSchema,
} from './schemas.ts';

export const webSeatsApi = {
  pools: defineOperation({
    operationId: 'listWebPools',
    method: 'post',
    path: '/api/web/pools',
    summary: 'Web seat pools of the account',
    description:
      "The account's web seat pools (decision 071): one per product whose Deployed lines with a Named User or Shared Web license model cover today, with their seats (the sum of the lines' quantities), their term (earliest start, latest end; null end: permanent) and the pool's lease policy (the defaults when none was saved). The account is named by `customerNumber`; a user who may not see it gets 403, as for an unknown account.",
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
} as const;
