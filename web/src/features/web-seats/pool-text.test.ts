import { describe, expect, it } from 'vitest';
import { durationText, groupTermsText, policyText, termText } from './pool-text.ts';

describe('pool texts', () => {
  it('shows whole minutes as minutes and other durations in seconds', () => {
    expect(durationText(300)).toBe('5 min');
    expect(durationText(90)).toBe('90 s');
  });

  it('names an open end permanent', () => {
    expect(termText({ start: '2026-01-01', end: null })).toBe('2026-01-01 – permanent');
    expect(termText({ start: '2026-01-01', end: '2026-12-31' })).toBe('2026-01-01 – 2026-12-31');
  });

  it('says the policy in one line', () => {
    expect(policyText({ heartbeatWindowSeconds: 300, idleTimeoutSeconds: 900, sessionsPerUser: 1 })).toBe(
      'Heartbeat 5 min, idle 15 min, 1 session per user',
    );
    expect(policyText({ heartbeatWindowSeconds: 90, idleTimeoutSeconds: 3600, sessionsPerUser: 2 })).toBe(
      'Heartbeat 90 s, idle 60 min, 2 sessions per user',
    );
  });

  it('lists the group terms of a shared pool', () => {
    expect(
      groupTermsText([
        { groupId: 'g1', groupName: 'Engineering', guaranteed: 5, cap: 10 },
        { groupId: 'g2', groupName: 'Sales', guaranteed: 0, cap: null },
      ]),
    ).toBe('Engineering: guaranteed 5, cap 10; Sales: guaranteed 0, no cap');
  });
});
