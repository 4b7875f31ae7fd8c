import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  alwaysReachable,
  conflictingPairs,
  effectiveEnabled,
  hasConflict,
  isRouteEnabled,
  routeFeatureDescription,
  routeFeatures,
  topSegment,
} from './feature-flags.ts';

const defs = [
  { name: 'a', conflicts: ['b'] },
  { name: 'b', conflicts: ['a'] },
  { name: 'c', conflicts: ['d'] },
  { name: 'd', conflicts: [] },
  { name: 'e', conflicts: [] },
];

describe('feature conflicts', () => {
  it('finds features that list each other, or where one lists the other', () => {
    expect(conflictingPairs(defs, ['a', 'b', 'e'])).toEqual([['a', 'b']]);
    expect(conflictingPairs(defs, ['d', 'c'])).toEqual([['c', 'd']]);
    expect(hasConflict(defs, ['a', 'c', 'e'])).toBe(false);
    expect(hasConflict(defs, [])).toBe(false);
  });

  it('a conflict needs both sides enabled, and order of selection does not matter', () => {
    const names = fc.subarray(['a', 'b', 'c', 'd', 'e']);
    fc.assert(
      fc.property(names, (chosen) => {
        const expected =
          (chosen.includes('a') && chosen.includes('b')) || (chosen.includes('c') && chosen.includes('d'));
        expect(hasConflict(defs, chosen)).toBe(expected);
        expect(conflictingPairs(defs, [...chosen].reverse())).toEqual(conflictingPairs(defs, chosen));
      }),
    );
  });

  it('removing one side of every pair clears the conflict', () => {
    fc.assert(
      fc.property(fc.subarray(['a', 'b', 'c', 'd', 'e']), (chosen) => {
        const pairs = conflictingPairs(defs, chosen);
        const drop = new Set(pairs.map(([first]) => first));
        expect(
          hasConflict(
            defs,
            chosen.filter((n) => !drop.has(n)),
          ),
        ).toBe(false);
      }),
    );
  });
});

describe('route gating', () => {
  const defined = new Set(['elastic', 'emails', 'web-assignments']);
  const enabled = new Set(['elastic', 'web-assignments']);

  it('reaches a route only when its top segment is enabled; child paths follow the parent', () => {
    expect(isRouteEnabled('/elastic', defined, enabled)).toBe(true);
    expect(isRouteEnabled('/elastic/fromLeftMenu', defined, enabled)).toBe(true);
    expect(isRouteEnabled('/web-assignments/users', defined, enabled)).toBe(true);
    expect(isRouteEnabled('/emails', defined, enabled)).toBe(false);
    expect(isRouteEnabled('/emails/42', defined, enabled)).toBe(false);
  });

  it('keeps the shell, notice and error pages and undefined segments reachable', () => {
    for (const path of ['/', '/noselectedcustomer', '/nopermissions', '/error/404', '/notifications-admin']) {
      expect(isRouteEnabled(path, defined, new Set())).toBe(true);
    }
    expect(topSegment('//emails/1')).toBe('emails');
  });

  it('uses the saved set when there is one, else the features on by default', () => {
    const all = [
      { name: 'x', enabled: true, conflicts: [] },
      { name: 'y', enabled: false, conflicts: [] },
    ];
    expect(effectiveEnabled(all, null)).toEqual(['x']);
    expect(effectiveEnabled(all, ['y', 'gone'])).toEqual(['y']);
    expect(effectiveEnabled(all, [])).toEqual([]);
  });
});

describe('route features', () => {
  it('name each guarded path once, as a single path segment', () => {
    const names = routeFeatures.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(topSegment(`/${name}/child`)).toBe(name);
    expect(names).toEqual(expect.arrayContaining(['elastic', 'transactions', 'statementv2', 'emails']));
  });

  it('switch their route off when not enabled, except the notice pages', () => {
    const defined = new Set(routeFeatures.map((f) => f.name));
    for (const { name } of routeFeatures)
      expect(isRouteEnabled(`/${name}`, defined, new Set())).toBe(alwaysReachable.has(name));
  });

  it('describe their row by path and label', () => {
    expect(routeFeatureDescription({ name: 'emails', label: 'Emails' })).toBe('Route /emails: Emails');
  });
});
