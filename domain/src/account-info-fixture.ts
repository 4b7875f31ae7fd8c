import type { AccountInfo } from '@lp/contract/accounts/schemas';

/** Account info for tests: a Direct customer with nothing set, plus the given overrides. */
export const accountInfo = (over: Partial<AccountInfo> = {}): AccountInfo => ({
  isPortalView: false,
  isPortalEdit: false,
  isAsc: false,
  isFNPLicenseGenerator: false,
  isAccessDisabled: false,
  isSalesAccess: false,
  isSales: false,
  hasSSL: 0,
  hasSharedLicense: 0,
  hasNamedLicense: 0,
  hasFSA: 0,
  hasElastic: 0,
  orgType: 'Direct',
  supportEmail: '',
  exportControlStatus: '',
  ...over,
});
