import { defineOperation } from '../common/operation.ts';
import {
  heatmapRequestSchema,
  reclaimRequestSchema,
  reportPeriodSchema,
  webDenialsResponseSchema,
  webReclaimResponseSchema,
  webUsageHeatmapResponseSchema,
  webUtilisationResponseSchema,
} from './schemas.ts';

const gate =
  'The account is named by `customerNumber`; a user who may not see it gets 403, as for an unknown account, and an export-blocked account is refused with the export-compliance text. View-only users read the reports too.';

/** /web-reporting (decision 071): reports over the account's web-license sessions and seats. */
export const webReportingApi = {
  utilisation: defineOperation({
    operationId: 'webUtilisation',
    method: 'post',
    path: '/api/web/reports/utilisation',
    summary: 'Utilisation of the web seat pools over a period',
    description: `Per pool of the account today: its seats, named seats assigned, people with a session in the period (\`from\`..\`to\`, UTC days, at most 366), the most sessions open at once, each day's seats against its peak, and for shared pools each group with terms (its people and peak, by the sessions that counted to it). ${gate}`,
    auth: 'session',
    effect: 'read',
    body: reportPeriodSchema,
    response: webUtilisationResponseSchema,
  }),
  heatmap: defineOperation({
    operationId: 'webUsageHeatmap',
    method: 'post',
    path: '/api/web/reports/heatmap',
    summary: 'Web sessions by hour and weekday',
    description: `168 cells (weekday 0 Monday … 6 Sunday, hour 0–23, UTC) over the period: sessions started in the hour, and sessions open at some time in it, summed over the weeks; of one pool (\`partNumber\`) or all. ${gate}`,
    auth: 'session',
    effect: 'read',
    body: heatmapRequestSchema,
    response: webUsageHeatmapResponseSchema,
  }),
  denials: defineOperation({
    operationId: 'webDenials',
    method: 'post',
    path: '/api/web/reports/denials',
    summary: 'Denied web checkouts and the seats that would have avoided them',
    description: `Per pool with denials in the period: the denials by reason and the seats that would have avoided those for capacity (pool full, group at its cap): the most different people refused for capacity within one clock hour. ${gate}`,
    auth: 'session',
    effect: 'read',
    body: reportPeriodSchema,
    response: webDenialsResponseSchema,
  }),
  reclaim: defineOperation({
    operationId: 'webReclaim',
    method: 'post',
    path: '/api/web/reports/reclaim',
    summary: 'Named web seats nobody used for 30, 60 or 90 days',
    description: `One page (\`offset\`, \`limit\` up to 500, default 100) of the named seats held for longer than \`inactiveDays\` (30, 60 or 90) whose person had no session of the pool in that time: the person, the pool, when the seat was assigned, the group that gives it (null: assigned directly) and the end of the last session; \`total\` counts the whole list. Reclaim a direct seat with \`unassignWebSeats\`. ${gate}`,
    auth: 'session',
    effect: 'read',
    body: reclaimRequestSchema,
    response: webReclaimResponseSchema,
  }),
} as const;
