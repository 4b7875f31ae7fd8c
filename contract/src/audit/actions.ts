/**
 * Every action the audit log records (decisions 039 and 062), declared once: `<feature>.<what happened>`. The
 * server's `recordAudit` takes only these, so a call site cannot invent a name that the log's readers and the
 * table of decision 039 do not know.
 */
export const auditActions = [
  'alerts.alert.created',
  'alerts.alert.edited',
  'alerts.alert.resolved',
  'auth.api-token.created',
  'auth.api-token.revoked',
  'auth.sign-in.failed',
  'auth.sign-in.succeeded',
  'auth.user.added',
  'auth.user.disabled',
  'auth.user.enabled',
  'auth.user.password-link-issued',
  'auth.user.password-set',
  'auth.user.relinked',
  'auth.user.removed',
  'cls-api.credential.issued',
  'cls-api.credential.revoked',
  'credentials.pin.changed',
  'credentials.pin.generated',
  'credentials.users.changed',
  'featureflags.selection.saved',
  'fsa.ordered',
  'fulfillments.created',
  'fulfillments.rehosted',
  'fulfillments.returned',
  'ip-rules.changed',
  'ledger.adjustment.posted',
  'license-files.downloaded',
  'license-files.emailed',
  'license-files.generated',
  'license-servers.activated',
  'license-servers.added',
  'license-servers.changed',
  'license-servers.deactivated',
  'license-servers.deleted',
  'license-servers.removed',
  'license-servers.shared-group.changed',
  'notices.choices.changed',
  'notices.types.changed',
  'portal-access.contact.added',
  'portal-access.contact.changed',
  'portal-access.contact.removed',
  'web-directory.group.created',
  'web-directory.group.deleted',
  'web-directory.group.members.changed',
  'web-directory.group.renamed',
  'web-directory.user.created',
  'web-directory.user.updated',
  'web-directory.users.invited',
  'web-directory.users.removed',
  'web-seats.pool.policy.changed',
] as const;

export type AuditAction = (typeof auditActions)[number];

/** The actions of one prefix, e.g. `AuditActionOf<'auth.user.'>` for a feature's helper that records several. */
export type AuditActionOf<Prefix extends string> = Extract<AuditAction, `${Prefix}${string}`>;
