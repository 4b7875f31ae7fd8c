import type { LicenseServer } from '@lp/contract/license-servers/schemas';
import { type HostIdType, hostIdTypes } from '@lp/domain/host-ids';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkHost,
  DEFAULT_HOST_ID_TYPE,
  type HostRow,
  hostIdTypeOptions,
  initialRows,
  rowProblems,
  rowsForTriad,
  rowsFromUpload,
  serverCheck,
} from './add-host-rules.ts';

const NAME_TEXT = 'Please remove spaces and special characters.';
const FORBIDDEN = [...' `!@#$%^&*()+=[]{};\':"\\|,<>/?~'];

const hex = (length: number) => fc.stringMatching(new RegExp(`^[0-9a-fA-F]{${length}}$`));
const idOf: Record<HostIdType, fc.Arbitrary<string>> = {
  ETHERNET: hex(12),
  DISK_SERIAL_NUM: hex(8),
  FLEXID: hex(8).map((h) => `9-${h}`),
};
const goodName = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,30}$/);
/** Surrounding blanks the dialog trims. */
const padded = (text: fc.Arbitrary<string>) =>
  fc
    .tuple(fc.constantFrom('', ' ', '  '), text, fc.constantFrom('', ' ', '\t'))
    .map(([a, t, b]) => `${a}${t}${b}`);
const type = fc.constantFrom(...hostIdTypes);

const none: LicenseServer[] = [];
const row = (name: string, id: string, t: string = 'ETHERNET'): HostRow => ({ name, id, type: t });
const rowsOf = (...given: HostRow[]) => [...given, ...initialRows()].slice(0, 3);

function known(over: Partial<LicenseServer>): LicenseServer {
  return {
    id: 1,
    name: 'licsrv01',
    serverName: 'licsrv01',
    state: 'Active',
    serverId: '0050569a1b2c',
    serverIdType: 'ETHERNET',
    hostIdentifier: '0050569a1b2c',
    displayName: 'licsrv01 (MAC_ADDRESS=0050569a1b2c)',
    portNumber: 1055,
    triad: false,
    ansysborrowable: false,
    shared: false,
    ...over,
  };
}

describe('the dialog defaults', () => {
  it('offers the three types, ETHERNET first chosen, and starts empty', () => {
    expect(hostIdTypeOptions).toEqual(['DISK_SERIAL_NUM', 'ETHERNET', 'FLEXID']);
    expect(DEFAULT_HOST_ID_TYPE).toBe('ETHERNET');
    expect(initialRows()).toEqual([row('', ''), row('', ''), row('', '')]);
  });

  it('an empty form cannot be saved and says what is missing', () => {
    const check = checkHost(initialRows(), false, 'new', none);
    expect(check.value).toBeNull();
    expect(check.rows).toEqual([{ name: NAME_TEXT, id: 'Server id is not defined', type: null }]);
  });

  it('turning Triad on gives the untouched rows the first row type, keeping typed ones', () => {
    const rows = [row('a', '', 'FLEXID'), row('', ''), row('c', '', 'DISK_SERIAL_NUM')];
    expect(rowsForTriad(rows).map((r) => r.type)).toEqual(['FLEXID', 'FLEXID', 'DISK_SERIAL_NUM']);
  });
});

describe('row messages as the user types', () => {
  it('gives the spec text for each type', () => {
    expect(rowProblems(row('h', '12:34')).id).toBe(
      'Invalid ETHERNET server id: 12:34. It must be 12 hexadecimal (0-9, a-f, or A-F) digits.',
    );
    expect(rowProblems(row('h', 'abc', 'DISK_SERIAL_NUM')).id).toMatch(
      /^Invalid DISK_SERIAL_NUM server id: abc\. It must be 8 hexadecimal .*leading zeroes\.$/,
    );
    expect(rowProblems(row('h', '12345678', 'FLEXID')).id).toMatch(
      /^Invalid FLEXID server id: 12345678\. It must start with '9-' followed by 8 hexadecimal/,
    );
    expect(rowProblems(row('h', '0050569a1b2c', 'HOSTNAME'))).toEqual({
      name: null,
      id: null,
      type: 'Unsupported host id type: HOSTNAME',
    });
    expect(rowProblems(row('h', '0050569a1b2c', ' ')).type).toBe('Server id type is not defined');
  });

  it('refuses any name holding a forbidden character with the spec text', () => {
    fc.assert(
      fc.property(goodName, fc.constantFrom(...FORBIDDEN), goodName, (before, bad, after) => {
        expect(rowProblems(row(`${before}${bad}${after}`, '0050569a1b2c')).name).toBe(NAME_TEXT);
      }),
    );
  });

  it('refuses a blank name and accepts names made of letters, digits, dot, dash and underscore', () => {
    expect(rowProblems(row('   ', '0050569a1b2c')).name).toBe(NAME_TEXT);
    fc.assert(
      fc.property(padded(goodName), (name) => {
        expect(rowProblems(row(name, '')).name).toBeNull();
      }),
    );
  });
});

describe('a valid single host', () => {
  it('is accepted and joined: trimmed name, normalised lower-case id, canonical type', () => {
    fc.assert(
      fc.property(
        padded(goodName),
        type.chain((t) => fc.tuple(fc.constant(t), padded(idOf[t]))),
        (name, [t, id]) => {
          const check = checkHost(rowsOf(row(name, id, t)), false, 'new', none);
          expect(check.host).toBeNull();
          expect(check.value).toEqual({
            serverName: name.trim(),
            serverId: id.trim().toLowerCase(),
            serverIdType: t,
            triad: false,
            portNumber: 1055,
          });
        },
      ),
    );
  });

  it('takes what users paste: a MAC address with separators and a type code', () => {
    const check = checkHost(rowsOf(row('lic', ' 00:50:56:9A:1B:2C ', '2')), false, 'new', none);
    expect(check.value).toEqual({
      serverName: 'lic',
      serverId: '0050569a1b2c',
      serverIdType: 'ETHERNET',
      triad: false,
      portNumber: 1055,
    });
  });

  it('ignores the hidden triad rows when Triad is off', () => {
    const rows = [row('lic', '0050569a1b2c'), row('bad name', 'x'), row('', '', 'FLEXID')];
    expect(checkHost(rows, false, 'new', none).value?.serverId).toBe('0050569a1b2c');
  });
});

describe('a triad', () => {
  const triadOf = (t: HostIdType) =>
    fc.uniqueArray(idOf[t], { minLength: 3, maxLength: 3, selector: (id) => id.toLowerCase() });

  it('of three valid rows of one type is accepted and comma-joined in order', () => {
    fc.assert(
      fc.property(
        fc.array(goodName, { minLength: 3, maxLength: 3 }),
        type.chain((t) => fc.tuple(fc.constant(t), triadOf(t))),
        (names, [t, ids]) => {
          const rows = names.map((n, i) => row(n, ids[i], t));
          expect(checkHost(rows, true, 'new', none).value).toEqual({
            serverName: names.join(','),
            serverId: ids.map((id) => id.toLowerCase()).join(','),
            serverIdType: [t, t, t].join(','),
            triad: true,
            portNumber: 1055,
          });
        },
      ),
    );
  });

  it('with mixed types is refused with the spec text, even before the ids are typed', () => {
    fc.assert(
      fc.property(
        fc.array(type, { minLength: 3, maxLength: 3 }).filter((ts) => new Set(ts).size > 1),
        fc.array(fc.string(), { minLength: 3, maxLength: 3 }),
        (types, ids) => {
          const rows = types.map((t, i) => row(`h${i}`, ids[i], t));
          const check = checkHost(rows, true, 'new', none);
          expect(check.host).toBe('Triad servers must all be the same host id type');
          expect(check.value).toBeNull();
        },
      ),
    );
  });

  it('with one id twice (in any case) is refused', () => {
    const rows = [row('a', '0050569a1b2c'), row('b', '0050569A1B2C'), row('c', '0050569a1b2d')];
    const check = checkHost(rows, true, 'new', none);
    expect(check.host).toBe(
      'Triad servers must have three different server ids: 0050569A1B2C appears twice.',
    );
    expect(check.value).toBeNull();
  });

  it('with any invalid row is not saveable, and the message sits on that row', () => {
    const rows = [row('a', '0050569a1b2c'), row('b c', '0050569a1b2d'), row('c', '0050569a1b2')];
    const check = checkHost(rows, true, 'new', none);
    expect(check.value).toBeNull();
    expect(check.rows[1].name).toBe(NAME_TEXT);
    expect(check.rows[2].id).toBe(
      'Invalid ETHERNET server id: 0050569a1b2. It must be 12 hexadecimal (0-9, a-f, or A-F) digits.',
    );
  });
});

describe('server checks against the known hosts', () => {
  const single = known({});
  const triad = known({
    id: 2,
    name: 'lic-a1',
    serverName: 'lic-a1,lic-a2,lic-a3',
    serverId: '9-0000000a,9-0000000b,9-0000000c',
    serverIdType: 'FLEXID,FLEXID,FLEXID',
    hostIdentifier: 'FLEXID=9-0000000a,FLEXID=9-0000000b,FLEXID=9-0000000c',
    triad: true,
  });

  it('a new host with an identifier in use under the same name is refused', () => {
    const check = checkHost(rowsOf(row('licsrv01', '0050569A1B2C')), false, 'new', [single]);
    expect(check.host).toBe('Host identifier licsrv01 (0050569a1b2c) is already in use.');
    expect(check.value).toBeNull();
  });

  it('under another name the same text, naming the host that holds the id, is followed by the rehost hint', () => {
    const check = checkHost(rowsOf(row('other', '0050569a1b2c')), false, 'new', [single]);
    expect(check.host).toMatch(/^Host identifier licsrv01 \(0050569a1b2c\) is already in use\. .*Rehost/);
  });

  it('a triad is matched by its identifier, TYPE= prefixes included', () => {
    const rows = ['a', 'b', 'c'].map((s, i) => row(`lic-a${i + 1}`, `9-0000000${s}`, 'FLEXID'));
    expect(checkHost(rows, true, 'new', [single, triad]).host).toBe(
      'Host identifier lic-a1 (FLEXID=9-0000000a,FLEXID=9-0000000b,FLEXID=9-0000000c) is already in use.',
    );
  });

  it('a new host may not share an id with a host in use: a triad taking in a single host, or a triad member alone', () => {
    const rows = [row('t1', '0a0a0a0a0a01'), row('t2', '0050569a1b2c'), row('t3', '0a0a0a0a0a03')];
    expect(checkHost(rows, true, 'new', [single]).host).toBe(
      'Host identifier licsrv01 (0050569a1b2c) is already in use.',
    );
    expect(checkHost(rowsOf(row('member', '9-0000000b', 'FLEXID')), false, 'new', [triad]).host).toBe(
      'Host identifier lic-a1 (9-0000000b) is already in use.',
    );
    // An inactive host's ids are free again.
    expect(checkHost(rows, true, 'new', [known({ state: 'Inactive' })]).host).toBeNull();
  });

  it('a rehost target that is an active host of the same name is refused', () => {
    expect(checkHost(rowsOf(row('licsrv01', '0050569a1b2c')), false, 'rehost', [single]).host).toBe(
      'Host licsrv01 (0050569a1b2c) is active.',
    );
  });

  it('a rehost target is checked as a new host: an id in use under another name is refused, never merged (issue 21)', () => {
    const source = known({ id: 3, name: 'src', serverId: '0a0a0a0a0a0a', hostIdentifier: '0a0a0a0a0a0a' });
    const hosts = [single, triad, source];
    expect(serverCheck('rehost', 'renamed', '0050569a1b2c', hosts, source)).toMatch(
      /^Host identifier licsrv01 \(0050569a1b2c\) is already in use\. .*Rehost/,
    );
    expect(serverCheck('rehost', 'member', 'FLEXID=9-0000000b', hosts, source)).toBe(
      'Host identifier lic-a1 (9-0000000b) is already in use.',
    );
    // The source itself is no target; its ids may serve the target (it is Inactive by the time it is created).
    expect(serverCheck('rehost', 'src', '0a0a0a0a0a0a', hosts, source)).toBe(
      'Host src (0a0a0a0a0a0a) is active.',
    );
    expect(serverCheck('rehost', 't1', '0a0a0a0a0a0a,0a0a0a0a0a0b,0a0a0a0a0a0c', hosts, source)).toBeNull();
  });

  it('a rehost target may be a known host that is inactive', () => {
    expect(serverCheck('rehost', 'licsrv01', '0050569a1b2c', [known({ state: 'Inactive' })])).toBeNull();
    expect(serverCheck('rehost', 'renamed', '0050569a1b2c', [known({ state: 'Inactive' })])).toBeNull();
  });

  it('any host not among the known ones passes (the server has the last word)', () => {
    fc.assert(
      fc.property(
        goodName,
        idOf.ETHERNET,
        fc.constantFrom('new' as const, 'rehost' as const),
        (name, id, mode) => {
          fc.pre(id.toLowerCase() !== single.serverId);
          expect(checkHost(rowsOf(row(name, id)), false, mode, [single, triad]).value).not.toBeNull();
        },
      ),
    );
  });
});

describe('rows from an uploaded host file', () => {
  it('a single server fills the first row', () => {
    const data = {
      serverName: 'licsrv09',
      serverId: '0050569a1b2c',
      serverIdType: 'ETHERNET',
      quorum: 'licsrv09',
      numServers: 1,
    };
    const { triad, rows } = rowsFromUpload(data);
    expect(triad).toBe(false);
    expect(rows[0]).toEqual(row('licsrv09', '0050569a1b2c'));
    expect(checkHost(rows, triad, 'new', none).value).toEqual({
      serverName: 'licsrv09',
      serverId: '0050569a1b2c',
      serverIdType: 'ETHERNET',
      triad: false,
      portNumber: 1055,
    });
  });

  it("keeps the SERVER line's port of the file (issue 21: it became 1055)", () => {
    const upload = rowsFromUpload({
      serverName: 'licsrv09',
      serverId: '0050569a1b2c',
      serverIdType: 'ETHERNET',
      quorum: 'licsrv09',
      numServers: 1,
      portNumber: 27000,
    });
    expect(upload.port).toBe('27000');
    expect(checkHost(upload.rows, upload.triad, 'new', none, { port: upload.port }).value?.portNumber).toBe(
      27000,
    );
  });

  it('refuses a port outside 1-65535 or not a whole number', () => {
    const rows = rowsOf(row('licsrv09', '0050569a1b2c'));
    for (const port of ['0', '65536', '27000.5', '-1', '', 'abc'])
      expect(checkHost(rows, false, 'new', none, { port })).toMatchObject({
        port: 'Port must be a whole number from 1 to 65535.',
        value: null,
      });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 65_535 }), (port) => {
        expect(checkHost(rows, false, 'new', none, { port: ` ${port} ` }).value?.portNumber).toBe(port);
      }),
    );
  });

  it('three servers turn Triad on, splitting names, ids and types on commas', () => {
    const { triad, rows } = rowsFromUpload({
      serverName: 'n1,n2,n3',
      serverId: 'aaaaaaaa,bbbbbbbb,cccccccc',
      serverIdType: 'DISK_SERIAL_NUM,DISK_SERIAL_NUM,DISK_SERIAL_NUM',
      quorum: 'n1 n2 n3',
      numServers: 3,
    });
    expect(triad).toBe(true);
    expect(rows).toEqual([
      row('n1', 'aaaaaaaa', 'DISK_SERIAL_NUM'),
      row('n2', 'bbbbbbbb', 'DISK_SERIAL_NUM'),
      row('n3', 'cccccccc', 'DISK_SERIAL_NUM'),
    ]);
  });

  it('names come from the quorum when serverName lacks them; a missing name stays empty to be typed', () => {
    expect(
      rowsFromUpload({
        serverName: '',
        serverId: '0050569a1b2c',
        serverIdType: 'ETHERNET',
        quorum: 'q1',
        numServers: 1,
      }).rows[0].name,
    ).toBe('q1');
    expect(
      rowsFromUpload({
        serverName: '',
        serverId: '0050569a1b2c',
        serverIdType: 'ETHERNET',
        quorum: '',
        numServers: 1,
      }).rows[0].name,
    ).toBe('');
  });

  it('type codes are shown as type names', () => {
    const { rows } = rowsFromUpload({
      serverName: 'h',
      serverId: '9-0000000a',
      serverIdType: '3',
      quorum: 'h',
      numServers: 1,
    });
    expect(rows[0].type).toBe('FLEXID');
  });
});
