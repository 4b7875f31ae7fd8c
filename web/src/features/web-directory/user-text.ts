import type { WebUser } from '@lp/contract/web-directory/schemas';

const sourceTexts: Record<WebUser['source'], string> = {
  manual: 'Invited',
  csv: 'CSV import',
  'sign-in': 'Sign-in',
  scim: 'Identity provider (SCIM)',
};
const stateTexts: Record<WebUser['state'], string> = {
  invited: 'Invited',
  active: 'Active',
  suspended: 'Suspended',
  removed: 'Removed',
};
const roleTexts: Record<WebUser['role'], string> = { member: 'Member', administrator: 'Administrator' };

export const userSourceText = (u: Pick<WebUser, 'source'>) => sourceTexts[u.source];
export const userStateText = (u: Pick<WebUser, 'state'>) => stateTexts[u.state];
export const userRoleText = (u: Pick<WebUser, 'role'>) => roleTexts[u.role];

/** The part numbers of the seats a person holds directly. */
export const directSeats = (u: Pick<WebUser, 'seats'>) =>
  u.seats.filter((s) => s.groupId === null).map((s) => s.partNumber);

/** "FLU-PREM-NU (Engineering)" for each seat a group gives. */
export const inheritedSeats = (u: Pick<WebUser, 'seats'>) =>
  u.seats.filter((s) => s.groupId !== null).map((s) => `${s.partNumber} (${s.groupName ?? ''})`);
