import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_HOST_PORT,
  flexlmHostId,
  formatHostId,
  HOST_NAME_MAX,
  type HostIdType,
  hostIdentifier,
  hostIdMessages,
  hostIdTypes,
  humanHostIdType,
  normaliseHostId,
  normaliseHostIdType,
  parseFlexlmHostId,
  parseHostIdentity,
  serialiseHostIdentity,
  TRIAD_SIZE,
  validateHostId,
  validateHostName,
} from './host-ids.ts';

const hex = (length: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${length}}$`));
const canonicalId: Record<HostIdType, fc.Arbitrary<string>> = {
  ETHERNET: hex(12),
  DISK_SERIAL_NUM: hex(8),
  FLEXID: hex(8).map((h) => `9-${h}`),
};
const typeAndId = fc
  .constantFrom(...hostIdTypes)
  .chain((type) => canonicalId[type].map((id) => ({ type, id })));
const canonicalShape: Record<HostIdType, RegExp> = {
  ETHERNET: /^[0-9a-f]{12}$/,
  DISK_SERIAL_NUM: /^[0-9a-f]{8}$/,
  FLEXID: /^9-[0-9a-f]{8}$/,
};
const invalidMessage: Record<HostIdType, (id: string) => string> = {
  ETHERNET: hostIdMessages.invalidEthernet,
  DISK_SERIAL_NUM: hostIdMessages.invalidDisk,
  FLEXID: hostIdMessages.invalidFlexid,
};
/** Upper-cases a random subset of the letters. */
const anyCase = (text: string) =>
  fc
    .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
    .map((flags) => [...text].map((c, i) => (flags[i] ? c.toUpperCase() : c)).join(''));

describe('constants and messages', () => {
  it('has the spec values', () => {
    expect(hostIdTypes).toEqual(['ETHERNET', 'DISK_SERIAL_NUM', 'FLEXID']);
    expect(DEFAULT_HOST_PORT).toBe(1055);
    expect(TRIAD_SIZE).toBe(3);
  });

  it('words every message as the spec does, or in the same style where the spec only describes it', () => {
    expect(hostIdMessages.invalidEthernet('12:34')).toBe(
      'Invalid ETHERNET server id: 12:34. It must be 12 hexadecimal (0-9, a-f, or A-F) digits.',
    );
    expect(hostIdMessages.invalidDisk('abc')).toBe(
      'Invalid DISK_SERIAL_NUM server id: abc. It must be 8 hexadecimal (0-9, a-f, or A-F) digits. Check for missing characters and add leading zeroes.',
    );
    expect(hostIdMessages.invalidFlexid('7-1234')).toBe(
      "Invalid FLEXID server id: 7-1234. It must start with '9-' followed by 8 hexadecimal (0-9, a-f, or A-F) digits.",
    );
    expect(hostIdMessages.unsupportedType('HOSTNAME')).toBe('Unsupported host id type: HOSTNAME');
    expect(hostIdMessages.idNotDefined).toBe('Server id is not defined');
    expect(hostIdMessages.typeNotDefined).toBe('Server id type is not defined');
    expect(hostIdMessages.notSingleOrTriad('a,b')).toBe('Server id a,b is not a single or triad server');
    expect(hostIdMessages.countMismatch(3, 1)).toBe(
      'Server id count (3) does not match server id type count (1)',
    );
    expect(hostIdMessages.triadTypesDiffer).toBe('Triad servers must all be the same host id type');
    expect(hostIdMessages.triadIdsRepeat('0050569a1b2c')).toBe(
      'Triad servers must have three different server ids: 0050569a1b2c appears twice.',
    );
    expect(hostIdMessages.inUse('licsrv01', '0050569a1b2c')).toBe(
      'Host identifier licsrv01 (0050569a1b2c) is already in use.',
    );
    expect(hostIdMessages.inUseRehostHint('licsrv01', '0050569a1b2c')).toBe(
      'Host identifier licsrv01 (0050569a1b2c) is already in use. To move activations between hosts, use Rehost on the Manage Activations page.',
    );
    expect(hostIdMessages.active('licsrv01', 'DISK_SERIAL_NUM=3e2e17fd')).toBe(
      'Host licsrv01 (DISK_SERIAL_NUM=3e2e17fd) is active.',
    );
    expect(hostIdMessages.invalidHostName).toBe('Please remove spaces and special characters.');
    expect(hostIdMessages.hostNameTooLong).toBe('Host name must be at most 64 characters.');
  });
});

describe('normaliseHostIdType', () => {
  it('maps the type codes 1/2/3 and D/E/F, in any case and trimmed', () => {
    expect(normaliseHostIdType('1')).toBe('DISK_SERIAL_NUM');
    expect(normaliseHostIdType('2')).toBe('ETHERNET');
    expect(normaliseHostIdType('3')).toBe('FLEXID');
    expect(normaliseHostIdType('D')).toBe('DISK_SERIAL_NUM');
    expect(normaliseHostIdType('e')).toBe('ETHERNET');
    expect(normaliseHostIdType(' f ')).toBe('FLEXID');
  });

  it('accepts the names in any case and MAC_ADDRESS for ETHERNET', () => {
    for (const type of hostIdTypes) {
      expect(normaliseHostIdType(type)).toBe(type);
      expect(normaliseHostIdType(` ${type.toLowerCase()}\t`)).toBe(type);
    }
    expect(normaliseHostIdType('MAC_ADDRESS')).toBe('ETHERNET');
    expect(normaliseHostIdType('mac_address')).toBe('ETHERNET');
  });

  it('gives null for anything else', () => {
    for (const bad of ['', ' ', '0', '4', 'X', 'HOSTNAME', 'ANY', 'DISK', 'ETHER', 'toString', '__proto__']) {
      expect(normaliseHostIdType(bad), bad).toBeNull();
    }
  });
});

describe('normaliseHostId', () => {
  it('cleans the forms people paste', () => {
    expect(normaliseHostId('ETHERNET', '8:0:20:0:5:ac')).toBe('0800200005ac');
    expect(normaliseHostId('ETHERNET', '00-00-12-42-41-BC')).toBe('0000124241bc');
    expect(normaliseHostId('ETHERNET', ' 0050569A1B2C ')).toBe('0050569a1b2c');
    expect(normaliseHostId('DISK_SERIAL_NUM', 'BC09-8AE4')).toBe('bc098ae4');
    expect(normaliseHostId('DISK_SERIAL_NUM', 'DISK_SERIAL_NUM=3E2E17FD')).toBe('3e2e17fd');
    expect(normaliseHostId('DISK_SERIAL_NUM', 'disk_serial_num=BC09-8AE4')).toBe('bc098ae4');
    expect(normaliseHostId('FLEXID', 'FLEXID=9-6B3366B2')).toBe('9-6b3366b2');
    expect(normaliseHostId('FLEXID', ' 9-6b3366b2 ')).toBe('9-6b3366b2');
  });

  it('returns invalid text cleaned but not repaired', () => {
    expect(normaliseHostId('ETHERNET', ' 00-00-12-42-41 ')).toBe('00-00-12-42-41');
    expect(normaliseHostId('ETHERNET', '00:00-12:42-41:BC')).toBe('00:00-12:42-41:bc');
    expect(normaliseHostId('DISK_SERIAL_NUM', '3E2E17F')).toBe('3e2e17f');
    expect(normaliseHostId('DISK_SERIAL_NUM', 'BC9-8AE4')).toBe('bc9-8ae4');
    expect(normaliseHostId('FLEXID', 'FLEXID=7-6B3366B2')).toBe('7-6b3366b2');
    // Only the type's own prefix is stripped.
    expect(normaliseHostId('ETHERNET', 'FLEXID=9-6b3366b2')).toBe('flexid=9-6b3366b2');
  });

  it('writes any MAC with ":" or "-", dropped leading zeros or upper case as the one canonical id', () => {
    const written = fc
      .record({
        bytes: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 6, maxLength: 6 }),
        separator: fc.constantFrom(':', '-'),
        shortened: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
      })
      .chain(({ bytes, separator, shortened }) => {
        const text = bytes
          .map((b, i) => (shortened[i] ? b.toString(16) : b.toString(16).padStart(2, '0')))
          .join(separator);
        const expected = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
        return fc.tuple(anyCase(text), fc.constant(expected));
      });
    fc.assert(
      fc.property(
        written,
        fc.constantFrom('', ' ', '\t', 'ETHERNET=', 'mac_address = '),
        ([text, expected], prefix) => {
          expect(normaliseHostId('ETHERNET', `${prefix}${text} `)).toBe(expected);
          expect(normaliseHostId('ETHERNET', expected.toUpperCase())).toBe(expected);
          expect(validateHostId('ETHERNET', text)).toBeNull();
        },
      ),
    );
  });

  it('is the identity after format on every canonical id of each type', () => {
    fc.assert(
      fc.property(typeAndId, ({ type, id }) => {
        expect(normaliseHostId(type, formatHostId(type, id))).toBe(id);
        expect(formatHostId(type, id)).toBe(id);
      }),
    );
  });

  it('changes nothing the second time, so format(normalise(x)) is normalise(x) for any text', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...hostIdTypes),
        fc.oneof(
          fc.string(),
          fc.string({ unit: 'binary' }),
          fc
            .array(
              fc.constantFrom('DISK_SERIAL_NUM=', 'FLEXID=', 'ETHERNET=', 'mac_address', '=', ' ', '-', ':'),
            )
            .chain((parts) => typeAndId.map(({ id }) => `${parts.join('')}${id}`)),
        ),
        (type, text) => {
          const once = normaliseHostId(type, text);
          expect(formatHostId(type, once)).toBe(once);
        },
      ),
    );
  });
});

describe('validateHostId', () => {
  it('accepts the canonical shapes and the pasted forms', () => {
    expect(validateHostId('ETHERNET', '0050569a1b2c')).toBeNull();
    expect(validateHostId('ETHERNET', ' 00-00-12-42-41-BC ')).toBeNull();
    expect(validateHostId('DISK_SERIAL_NUM', 'DISK_SERIAL_NUM=3E2E17FD')).toBeNull();
    expect(validateHostId('DISK_SERIAL_NUM', 'BC09-8AE4')).toBeNull();
    expect(validateHostId('FLEXID', 'FLEXID=9-6b3366b2')).toBeNull();
  });

  it('quotes the id as typed (trimmed) in the type’s message', () => {
    expect(validateHostId('ETHERNET', ' 00-00-12-42-41 ')).toBe(
      hostIdMessages.invalidEthernet('00-00-12-42-41'),
    );
    expect(validateHostId('ETHERNET', '0050569A1B2G')).toBe(hostIdMessages.invalidEthernet('0050569A1B2G'));
    expect(validateHostId('ETHERNET', '')).toBe(hostIdMessages.invalidEthernet(''));
    expect(validateHostId('DISK_SERIAL_NUM', '3E2E17F')).toBe(hostIdMessages.invalidDisk('3E2E17F'));
    expect(validateHostId('DISK_SERIAL_NUM', 'DISK_SERIAL_NUM=3E2E17F')).toBe(
      hostIdMessages.invalidDisk('DISK_SERIAL_NUM=3E2E17F'),
    );
    expect(validateHostId('FLEXID', '6b3366b2')).toBe(hostIdMessages.invalidFlexid('6b3366b2'));
    expect(validateHostId('FLEXID', '9-6b3366b')).toBe(hostIdMessages.invalidFlexid('9-6b3366b'));
    expect(validateHostId('FLEXID', '9_6b3366b2')).toBe(hostIdMessages.invalidFlexid('9_6b3366b2'));
  });

  it('refuses hex of any other length with the type’s message', () => {
    const lengths: Record<HostIdType, number> = { ETHERNET: 12, DISK_SERIAL_NUM: 8, FLEXID: 8 };
    fc.assert(
      fc.property(
        fc.constantFrom(...hostIdTypes),
        fc.stringMatching(/^[0-9a-fA-F]{0,30}$/),
        fc.boolean(),
        (type, digits, withPrefix) => {
          fc.pre(digits.length !== lengths[type]);
          const text = type === 'FLEXID' && withPrefix ? `9-${digits}` : digits;
          expect(validateHostId(type, text)).toBe(invalidMessage[type](text));
        },
      ),
    );
  });

  it('accepts exactly what normalises to the canonical shape, for any text', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...hostIdTypes),
        fc.oneof(
          fc.string(),
          fc.stringMatching(/^[\s0-9a-fA-F:=-]{0,20}$/),
          typeAndId.chain(({ id }) => anyCase(id)),
        ),
        (type, text) => {
          const accepted = canonicalShape[type].test(normaliseHostId(type, text));
          expect(validateHostId(type, text)).toBe(accepted ? null : invalidMessage[type](text.trim()));
        },
      ),
    );
  });
});

describe('parseHostIdentity', () => {
  const mac = (n: number) => `0050569a1b2${n}`;

  it('reads a single server, normalising the type code and the id', () => {
    expect(parseHostIdentity(' 00-50-56-9A-1B-2C ', ' e ')).toEqual({
      ok: true,
      identity: { ids: ['0050569a1b2c'], types: ['ETHERNET'] },
    });
    expect(parseHostIdentity('BC09-8AE4', '1')).toEqual({
      ok: true,
      identity: { ids: ['bc098ae4'], types: ['DISK_SERIAL_NUM'] },
    });
    expect(parseHostIdentity('FLEXID=9-6B3366B2', 'flexid')).toEqual({
      ok: true,
      identity: { ids: ['9-6b3366b2'], types: ['FLEXID'] },
    });
  });

  it('reads a triad in the order entered, tolerating whitespace around the commas', () => {
    expect(parseHostIdentity(`${mac(3)} , ${mac(1)},${mac(2).toUpperCase()}`, 'ETHERNET , 2,e')).toEqual({
      ok: true,
      identity: { ids: [mac(3), mac(1), mac(2)], types: ['ETHERNET', 'ETHERNET', 'ETHERNET'] },
    });
  });

  it('applies the spec’s checks in order, the first failure winning', () => {
    const refused = (serverId: string | null | undefined, serverIdType: string | null | undefined) => {
      const result = parseHostIdentity(serverId, serverIdType);
      return result.ok ? null : result.err;
    };
    expect(refused('', '')).toBe(hostIdMessages.idNotDefined);
    expect(refused(' ', 'ETHERNET')).toBe(hostIdMessages.idNotDefined);
    expect(refused(undefined, 'ETHERNET')).toBe(hostIdMessages.idNotDefined);
    expect(refused(mac(1), ' ')).toBe(hostIdMessages.typeNotDefined);
    expect(refused(mac(1), null)).toBe(hostIdMessages.typeNotDefined);
    expect(refused(` ${mac(1)}, ${mac(2)} `, 'HOSTNAME')).toBe(
      hostIdMessages.notSingleOrTriad(`${mac(1)}, ${mac(2)}`),
    );
    expect(refused(`${mac(1)},`, 'ETHERNET')).toBe(hostIdMessages.notSingleOrTriad(`${mac(1)},`));
    expect(refused('a,b,c,d', 'ETHERNET')).toBe(hostIdMessages.notSingleOrTriad('a,b,c,d'));
    expect(refused(`${mac(1)},${mac(2)},${mac(3)}`, 'ETHERNET')).toBe(hostIdMessages.countMismatch(3, 1));
    expect(refused(mac(1), 'ETHERNET,ETHERNET')).toBe(hostIdMessages.countMismatch(1, 2));
    expect(refused('x', ' HOSTNAME ')).toBe(hostIdMessages.unsupportedType('HOSTNAME'));
    expect(refused('x,y,z', 'ETHERNET,ETHERNET,ANY')).toBe(hostIdMessages.unsupportedType('ANY'));
    expect(refused(`${mac(1)},3e2e17fd,${mac(3)}`, 'ETHERNET,DISK_SERIAL_NUM,ETHERNET')).toBe(
      hostIdMessages.triadTypesDiffer,
    );
    expect(refused('x,y,z', 'E,ETHERNET,F')).toBe(hostIdMessages.triadTypesDiffer);
    expect(refused(`${mac(1)}, 12:34 ,${mac(3)}`, 'ETHERNET,ETHERNET,ETHERNET')).toBe(
      hostIdMessages.invalidEthernet('12:34'),
    );
    expect(refused('3e2e17f', 'D')).toBe(hostIdMessages.invalidDisk('3e2e17f'));
    expect(refused(`${mac(1)},${mac(2)},${mac(1).toUpperCase()}`, 'E,E,E')).toBe(
      hostIdMessages.triadIdsRepeat(mac(1).toUpperCase()),
    );
  });

  it('round-trips any single server or triad through the wire form', () => {
    const identity = fc.constantFrom(...hostIdTypes).chain((type) =>
      fc
        .constantFrom(1, TRIAD_SIZE)
        .chain((size) => fc.uniqueArray(canonicalId[type], { minLength: size, maxLength: size }))
        .map((ids) => ({ ids, types: ids.map(() => type) })),
    );
    fc.assert(
      fc.property(identity, (x) => {
        expect(
          parseHostIdentity(serialiseHostIdentity(x).serverId, serialiseHostIdentity(x).serverIdType),
        ).toEqual({ ok: true, identity: x });
      }),
    );
  });
});

describe('serialiseHostIdentity and hostIdentifier', () => {
  const triad = {
    ids: ['3e2e17fd', '00aa11bb', 'deadbeef'],
    types: ['DISK_SERIAL_NUM', 'DISK_SERIAL_NUM', 'DISK_SERIAL_NUM'] as HostIdType[],
  };

  it('writes the wire form with commas', () => {
    expect(serialiseHostIdentity(triad)).toEqual({
      serverId: '3e2e17fd,00aa11bb,deadbeef',
      serverIdType: 'DISK_SERIAL_NUM,DISK_SERIAL_NUM,DISK_SERIAL_NUM',
    });
  });

  it('prefixes every type but ETHERNET', () => {
    expect(hostIdentifier({ ids: ['0050569a1b2c'], types: ['ETHERNET'] })).toBe('0050569a1b2c');
    expect(hostIdentifier({ ids: ['9-6b3366b2'], types: ['FLEXID'] })).toBe('FLEXID=9-6b3366b2');
    expect(hostIdentifier(triad)).toBe(
      'DISK_SERIAL_NUM=3e2e17fd,DISK_SERIAL_NUM=00aa11bb,DISK_SERIAL_NUM=deadbeef',
    );
  });
});

describe('flexlmHostId and parseFlexlmHostId', () => {
  it('writes and reads the license file forms', () => {
    expect(flexlmHostId('ETHERNET', '0050569a1b2c')).toBe('0050569a1b2c');
    expect(flexlmHostId('DISK_SERIAL_NUM', '3e2e17fd')).toBe('DISK_SERIAL_NUM=3e2e17fd');
    expect(flexlmHostId('FLEXID', '9-6b3366b2')).toBe('FLEXID=9-6b3366b2');
    expect(parseFlexlmHostId('0050569A1B2C')).toEqual({ type: 'ETHERNET', id: '0050569a1b2c' });
    expect(parseFlexlmHostId('disk_serial_num=3E2E17FD')).toEqual({
      type: 'DISK_SERIAL_NUM',
      id: '3e2e17fd',
    });
    expect(parseFlexlmHostId('3e2e17fd')).toEqual({ type: 'DISK_SERIAL_NUM', id: '3e2e17fd' });
    expect(parseFlexlmHostId(' FLEXID=9-6B3366B2 ')).toEqual({ type: 'FLEXID', id: '9-6b3366b2' });
    expect(parseFlexlmHostId('9-6b3366b2')).toEqual({ type: 'FLEXID', id: '9-6b3366b2' });
  });

  it('gives null for the types the portal does not accept and for malformed ids', () => {
    for (const token of [
      'ANY',
      'DEMO',
      'HOSTNAME=storage',
      'INTERNET=10.0.0.1',
      'ID=1234-5678-9012',
      'VM_UUID=4c4c4544-0047-3610-8034-b4c04f4b4e31',
      '',
      '0050569a1b2',
      '8:0:20:0:5:ac',
      'DISK_SERIAL_NUM=3e2e17f',
      'FLEXID=7-6b3366b2',
      'FLEXID=',
    ]) {
      expect(parseFlexlmHostId(token), token).toBeNull();
    }
  });

  it('reads back what it writes', () => {
    fc.assert(
      fc.property(typeAndId, ({ type, id }) => {
        expect(parseFlexlmHostId(flexlmHostId(type, id))).toEqual({ type, id });
      }),
    );
  });
});

describe('humanHostIdType', () => {
  it('shows ETHERNET as MAC_ADDRESS', () => {
    expect(humanHostIdType('ETHERNET')).toBe('MAC_ADDRESS');
    expect(humanHostIdType('DISK_SERIAL_NUM')).toBe('DISK_SERIAL_NUM');
    expect(humanHostIdType('FLEXID')).toBe('FLEXID');
  });
});

describe('validateHostName', () => {
  it('accepts host names, judged after trimming', () => {
    for (const name of ['licsrv01', ' lic-srv_1.example.com ', 'A', 'x'.repeat(HOST_NAME_MAX)]) {
      expect(validateHostName(name), name).toBeNull();
    }
  });

  it('refuses empty names, spaces and each special character of the spec', () => {
    expect(validateHostName('')).toBe(hostIdMessages.invalidHostName);
    expect(validateHostName('   ')).toBe(hostIdMessages.invalidHostName);
    for (const c of [' ', '\t', '\n', ...'`!@#$%^&*()+=[]{};\':"\\|,<>/?~']) {
      expect(validateHostName(`lic${c}srv`), JSON.stringify(c)).toBe(hostIdMessages.invalidHostName);
    }
  });

  it('limits the length', () => {
    expect(validateHostName('x'.repeat(HOST_NAME_MAX + 1))).toBe(hostIdMessages.hostNameTooLong);
  });

  it('refuses invisible, bidirectional and other non-ASCII characters with the same message (issue 20 §7)', () => {
    const lookAlikes = [
      'lic\u200bsrv', // zero-width space
      'lic\u200dsrv', // zero-width joiner
      'licsrv\u202e10', // right-to-left override
      'lic\u2066srv\u2069', // bidirectional isolate
      'l\u0456csrv', // Cyrillic i
      'licsrv\u00a0b', // no-break space
      'ｌｉｃｓｒｖ', // fullwidth letters
      'lic\u00adsrv', // soft hyphen
      'lic\ufeffsrv', // zero-width no-break space inside
      'licsrv\u0301', // combining accent
      'münchen-01',
      'lic\u{1f600}',
      'lic\u007fsrv', // DEL
    ];
    for (const name of lookAlikes) {
      expect(validateHostName(name), JSON.stringify(name)).toBe(hostIdMessages.invalidHostName);
    }
  });

  it('accepts only names of printable ASCII, whatever the input', () => {
    const anyText = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.string({ unit: 'grapheme', maxLength: 80 }),
      fc.string({ maxLength: 80 }),
      fc.stringMatching(/^[A-Za-z0-9._\-\u0080-\u2fff]{1,20}$/),
    );
    fc.assert(
      fc.property(anyText, (name) => {
        if (validateHostName(name) !== null) return;
        expect(name.trim()).toMatch(/^[\x21-\x7e]{1,64}$/);
        expect(name.trim()).not.toMatch(/[`!@#$%^&*()+=[\]{};':"\\|,<>/?~]/);
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts any name of letters, digits, dots, hyphens and underscores', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9._-]{1,64}$/), (name) => {
        expect(validateHostName(name)).toBeNull();
      }),
    );
  });
});
