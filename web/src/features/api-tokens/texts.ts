/** The API Tokens page's texts (issue 20 §3; the spec has no such page). */
export const apiTokenTexts = {
  title: 'API Tokens',
  referenceIntro: 'Every call of the portal API, its answers and errors, and a way to try it:',
  referenceLink: 'API reference',
  mineTitle: 'My API tokens',
  mineIntro:
    'A personal API token lets a script call the portal API as you ("Authorization: Bearer <token>"). It acts with your access, stops when it expires or is revoked, and uses vendor roles only while your identity provider confirmed them recently.',
  mineEmpty: 'You have no API tokens.',
  accountTitle: (name: string) => `Tokens that can act on ${name}`,
  accountIntro: "Tokens of this account's portal users. Revoking one stops it at once.",
  accountEmpty: "None of this account's portal users has an API token.",
  name: 'Name',
  expires: 'Expires in (days)',
  create: 'Create token',
  created: 'Token created.',
  revoked: 'Token revoked.',
  newTitle: 'New API token',
  newOnce: 'Copy the token now. It will not be shown again.',
  confirmRevoke:
    'Are you sure you want to revoke this token? Scripts using it can no longer call the portal.',
} as const;
