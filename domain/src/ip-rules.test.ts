import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import {
  checkIpRules,
  firstIpRuleProblem,
  IP_RULES_MAX,
  ipRuleMessages,
  normaliseIp,
  sameIpRules,
} from './ip-rules.ts';

const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join('.'));
const v6 = fc.ipV6();

describe('normaliseIp', () => {
  it('accepts explicit addresses and CIDR ranges and writes them one canonical way', () => {
    expect(normaliseIp('192.168.1.10')).toBe('192.168.1.10');
    expect(normaliseIp(' 10.1.2.3/8 ')).toBe('10.0.0.0/8');
    expect(normaliseIp('10.0.0.0/0')).toBe('0.0.0.0/0');
    expect(normaliseIp('1.2.3.4/32')).toBe('1.2.3.4');
    expect(normaliseIp('2001:DB8:0:0:0:0:0:1')).toBe('2001:db8::1');
    expect(normaliseIp('2001:db8::1/128')).toBe('2001:db8::1');
    expect(normaliseIp('2001:db8:ffff::/32')).toBe('2001:db8::/32');
    expect(normaliseIp('::/0')).toBe('::/0');
  });

  it('refuses bad addresses, prefixes out of range, zones and loose IPv4 forms', () => {
    for (const bad of [
      '',
      ' ',
      '1.2.3',
      '256.1.1.1',
      '01.2.3.4',
      '127.1',
      '0x7f.0.0.1',
      '1.2.3.4/33',
      '1.2.3.4/-1',
      '1.2.3.4/08',
      '1.2.3.4/',
      '1.2.3.4/8/8',
      '::1/129',
      '1::2::3',
      'fe80::1%eth0',
      'localhost',
      '1.2.3.4 5',
    ]) {
      expect(normaliseIp(bad), bad).toBeNull();
    }
  });

  it('round-trips: a normalised address normalises to itself and means the same addresses', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          v4.map((a) => [a, 32] as const),
          v6.map((a) => [a, 128] as const),
        ),
        fc.nat(128),
        ([address, max], p) => {
          const prefix = p % (max + 1);
          const text = `${address}/${prefix}`;
          const n = normaliseIp(text);
          expect(n).not.toBeNull();
          expect(normaliseIp(n as string)).toBe(n);
          // The canonical range contains the original address and has the same size.
          const [range, bits] = n?.includes('/') ? ipaddr.parseCIDR(n) : [ipaddr.parse(n as string), max];
          expect(bits).toBe(prefix);
          expect(ipaddr.parse(address).match(range, bits)).toBe(true);
        },
      ),
    );
  });

  it('accepts every four-part IPv4 and every IPv6 address generated, whatever the case', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          v4,
          v6,
          v6.map((a) => a.toUpperCase()),
        ),
        (address) => {
          expect(normaliseIp(address)).toBe(ipaddr.parse(address).toString());
        },
      ),
    );
  });

  it('rejects random text that is not an address', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (s) => {
        const n = normaliseIp(s);
        if (n === null) return;
        // Anything accepted must really be an address or range.
        const [address] = n.split('/');
        expect(ipaddr.isValid(address)).toBe(true);
      }),
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[g-z ,;]{1,20}$/), (s) => {
        expect(normaliseIp(s)).toBeNull();
      }),
    );
  });
});

describe('checkIpRules', () => {
  it('needs a trimmed, non-empty name of at most 100 characters and a valid address', () => {
    const check = checkIpRules([
      { rulename: ' office ', ipaddress: ' 10.0.0.1 ' },
      { rulename: '  ', ipaddress: '10.0.0.2' },
      { rulename: 'x'.repeat(101), ipaddress: '10.0.0.3' },
      { rulename: 'vpn', ipaddress: '' },
      { rulename: 'vpn', ipaddress: '10.0.0.300' },
    ]);
    expect(check.valid).toBe(false);
    expect(check.rows).toEqual([
      {},
      { rulename: ipRuleMessages.nameRequired },
      { rulename: ipRuleMessages.nameTooLong },
      { ipaddress: ipRuleMessages.ipRequired },
      { ipaddress: ipRuleMessages.ipInvalid },
    ]);
    expect(check.normalised[0]).toEqual({ rulename: 'office', ipaddress: '10.0.0.1' });
    expect(firstIpRuleProblem(check)).toBe(`Rule 2: ${ipRuleMessages.nameRequired}`);
  });

  it('refuses the same address twice, also when written differently', () => {
    const check = checkIpRules([
      { rulename: 'a', ipaddress: '2001:db8::1' },
      { rulename: 'b', ipaddress: '2001:DB8:0::1/128' },
      { rulename: 'c', ipaddress: '10.1.2.3/8' },
      { rulename: 'd', ipaddress: '10.0.0.0/8' },
    ]);
    expect(check.rows).toEqual([
      {},
      { ipaddress: ipRuleMessages.duplicate },
      {},
      { ipaddress: ipRuleMessages.duplicate },
    ]);
  });

  it('limits a list to 500 rules', () => {
    const rules = Array.from({ length: IP_RULES_MAX + 1 }, (_, i) => ({
      rulename: `r${i}`,
      ipaddress: `10.0.${Math.floor(i / 256)}.${i % 256}`,
    }));
    expect(checkIpRules(rules.slice(0, IP_RULES_MAX)).valid).toBe(true);
    expect(firstIpRuleProblem(checkIpRules(rules))).toBe(ipRuleMessages.tooMany);
  });

  it('compares lists in order', () => {
    const a = [{ rulename: 'a', ipaddress: '1.1.1.1' }];
    expect(sameIpRules(a, [{ rulename: 'a', ipaddress: '1.1.1.1' }])).toBe(true);
    expect(sameIpRules(a, [{ rulename: 'b', ipaddress: '1.1.1.1' }])).toBe(false);
    expect(sameIpRules(a, [])).toBe(false);
  });
});
