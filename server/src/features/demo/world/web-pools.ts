import { addEntitlement, type WorldContext } from './context.ts';

/** The designed account whose people use the web products (its directory and history: demo/web-world.ts). */
export const WEB_DEMO_ACCOUNT = 'Acme Automotive GmbH';

/**
 * Small web seat pools for the web demo account (issue 24, decision 071): a Named User line of 10 seats and a
 * Shared Web line of 8, live for years around the anchor day, so its ~30 people's demand meets the seats (denials
 * when full). Added after every other area and drawing only activation ids, so nothing else in the world moves.
 */
export function addWebPools(ctx: WorldContext): void {
  const account = ctx.rows.accounts.find((a) => a.name === WEB_DEMO_ACCOUNT);
  if (!account) return;
  for (const [partNumber, licenseModel, licenseType, quantity] of [
    ['ELC0030140', 'Named User', 'named', 10],
    ['CFD0010140', 'Shared Web', 'shared', 5],
  ] as const)
    addEntitlement(ctx, {
      customerNumber: account.customerNumber,
      kind: 'SSL',
      licenseModel,
      licenseType,
      partNumber,
      quantity,
      startDate: ctx.day(-420),
      endDate: ctx.day(700),
      versionDate: null,
      isEvaluation: false,
    });
}
