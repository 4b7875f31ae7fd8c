import type { ActivationRow } from '@lp/contract/activations/schemas';

/** A row of /api/fulfillments/allentitlements for the activations screen's unit tests: an active lease line. */
export function activationRow(activationid: string, over: Partial<ActivationRow> = {}): ActivationRow {
  return {
    activationid,
    ansysproduct: `Product ${activationid}`,
    partNumber: 'ANS-100',
    ansyslicensemodel: 'Network Lease',
    isEval: false,
    ansyscount: 10,
    ansysactivated: 4,
    ansysavailable: 6,
    ansysborrowable: false,
    startdate: '2025-01-01',
    enddate: '2030-12-31',
    versiondate: null,
    remainingdays: 400,
    usedDays: 300,
    usedDaysPercentage: 43,
    remainingdayscolor: 'green',
    maintenanceExpired: false,
    fulfillments: [],
    account: { AccountID: '1000123', AccountName: 'Acme Aerospace Inc.' },
    ...over,
  };
}
