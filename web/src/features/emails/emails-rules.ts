import type { OrgType } from '@lp/contract/accounts/schemas';

/** Spec 000 §6: the e-mail pages are for channel and direct customers only (the server checks the same). */
export const emailsAllowedFor = (orgType: OrgType | null | undefined): boolean =>
  orgType === 'Channel' || orgType === 'Direct';
