import type { WebPool, WebPoolPolicy, WebPoolUse } from '@lp/contract/web-seats/schemas';

export const poolKindText: Record<WebPool['kind'], string> = { named: 'Named', shared: 'Shared' };

/** Seconds as the policy is thought of: whole minutes as minutes, anything else in seconds. */
export const durationText = (seconds: number) =>
  seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;

/** "2026-01-01 – 2026-12-31"; an open end (a permanent line) reads "permanent". */
export const termText = ({ start, end }: Pick<WebPool, 'start' | 'end'>) =>
  `${start ?? ''} – ${end ?? 'permanent'}`;

export const policyText = (p: WebPoolPolicy) =>
  `Heartbeat ${durationText(p.heartbeatWindowSeconds)}, idle ${durationText(p.idleTimeoutSeconds)}, ` +
  `${p.sessionsPerUser} ${p.sessionsPerUser === 1 ? 'session' : 'sessions'} per user`;

/** "guaranteed 5, cap 10" or "guaranteed 2, no cap". */
export const termsText = (t: { guaranteed: number; cap: number | null }) =>
  `guaranteed ${t.guaranteed}, ${t.cap === null ? 'no cap' : `cap ${t.cap}`}`;

/** A shared pool's terms per group: "Engineering: guaranteed 5, cap 10; Sales: guaranteed 0, no cap". */
export const groupTermsText = (terms: WebPoolUse['groupTerms']) =>
  terms.map((t) => `${t.groupName}: ${termsText(t)}`).join('; ');
