import { describe, expect, it } from 'vitest';
import { activationRow as row } from './activation-row-fixture.ts';
import { buildPlan, leavesNothing, previewRequests } from './save-plan.ts';
import {
  initialSelection,
  setCount,
  setKeep,
  type TabData,
  type TabSelection,
  toggleAssigned,
} from './selection.ts';

// A host with A (2 seats in two fulfillments) and B (3 seats); C is available.
const data: TabData = {
  assigned: [
    row('A', {
      ansysactivated: 2,
      fulfillments: [
        { FulfillmentID: 11, FulfillCount: 1 },
        { FulfillmentID: 12, FulfillCount: 1 },
      ],
    }),
    row('B', { ansysactivated: 3, fulfillments: [{ FulfillmentID: 13, FulfillCount: 3 }] }),
  ],
  available: [row('C', { ansysavailable: 5 })],
};
const host = { serverName: 'licsrv01', serverId: '0a1b2c3d4e5f', serverIdType: 'ETHERNET' };
const tab = (selection: TabSelection, customerNumber = '1000123') => ({
  customerNumber,
  customerName: `Customer ${customerNumber}`,
  data,
  selection,
});

describe('buildPlan (spec 002 §4 save flow)', () => {
  it('returns the unselected rows whole and creates the typed counts (default mode)', () => {
    const sel = setCount(toggleAssigned(initialSelection(data), 'A'), 'C', '4');
    const plan = buildPlan({
      key: 'k'.repeat(32),
      mode: 'default',
      target: { ...host, type: '' },
      source: host,
      sourceShared: false,
      borrowable: false,
      savedBorrowable: false,
      tabs: [tab(sel)],
    });
    const [c] = plan.customers;
    expect(c.returns).toEqual([
      { id: 11, count: -1 },
      { id: 12, count: -1 },
    ]);
    expect(c.creates).toEqual([{ id: 'C', count: 4 }]);
    // The dialog lists A once, with its two seats.
    expect(c.deactivate.map((l) => [l.row.activationid, l.count])).toEqual([['A', -2]]);
    expect(c.activate.map((l) => [l.row.activationid, l.count])).toEqual([['C', 4]]);
    expect(c.seatsAfter).toBe(3 + 4);
    expect(plan.total).toBe(3);
    expect(plan.group).toEqual(['1000123']);
    expect(leavesNothing(plan)).toBe(false);
  });

  it('leaves nothing when every seat is returned and nothing is created', () => {
    const sel = toggleAssigned(toggleAssigned(initialSelection(data), 'A'), 'B');
    const plan = buildPlan({
      key: 'k'.repeat(32),
      mode: 'default',
      target: host,
      source: host,
      sourceShared: false,
      borrowable: false,
      savedBorrowable: false,
      tabs: [tab(sel)],
    });
    expect(plan.customers[0].seatsAfter).toBe(0);
    expect(leavesNothing(plan)).toBe(true);
  });

  it('moves every kept seat to the target in a rehost, with the new seats added to the same line', () => {
    const sel = setCount(
      toggleAssigned(initialSelection({ ...data, available: [row('B', { ansysavailable: 7 })] }), 'A'),
      'B',
      '2',
    );
    const plan = buildPlan({
      key: 'k'.repeat(32),
      mode: 'rehost',
      target: { serverName: 'new01', serverId: '001122334455', serverIdType: 'ETHERNET', type: 'rehost' },
      source: host,
      sourceShared: true,
      borrowable: false,
      savedBorrowable: null,
      tabs: [{ ...tab(sel), data: { ...data, available: [row('B', { ansysavailable: 7 })] } }],
    });
    const [c] = plan.customers;
    // Everything leaves the source, the returned row A included.
    expect(c.returns).toEqual([
      { id: 11, count: -1 },
      { id: 12, count: -1 },
      { id: 13, count: -3 },
    ]);
    // B's 3 seats move and 2 more are added; A is not recreated.
    expect(c.creates).toEqual([{ id: 'B', count: 5 }]);
    expect(c.seatsAfter).toBe(5);
    const requests = previewRequests(plan);
    expect(requests.map((r) => r.serverId)).toEqual([host.serverId, '001122334455']);
    expect(requests[0].customers[0].creates).toEqual([]);
    expect(requests[1].customers[0].returns).toEqual([]);
  });

  it('groups every approved customer of a shared operation, in tab order', () => {
    const plan = buildPlan({
      key: 'k'.repeat(32),
      mode: 'default',
      target: host,
      source: host,
      sourceShared: false,
      borrowable: false,
      savedBorrowable: false,
      tabs: [tab(initialSelection(data)), tab(initialSelection(data), '1000124')],
    });
    expect(plan.group).toEqual(['1000123', '1000124']);
    expect(plan.total).toBe(0);
    expect(previewRequests(plan)[0].customers.map((c) => c.customerNumber)).toEqual(['1000123', '1000124']);
  });

  it('makes a Borrowable change on a saved host a change of its own, which the preview carries (decision 048)', () => {
    const args = {
      key: 'k'.repeat(32),
      mode: 'default' as const,
      target: host,
      source: host,
      sourceShared: false,
      tabs: [tab(initialSelection(data))],
    };
    const plan = buildPlan({ ...args, borrowable: true, savedBorrowable: false });
    expect(plan.total).toBe(0);
    expect(plan.borrowableChanged).toBe(true);
    expect(previewRequests(plan)[0].ansysborrowable).toBe(true);
    expect(buildPlan({ ...args, borrowable: true, savedBorrowable: true }).borrowableChanged).toBe(false);
    // A host not saved yet gets the setting from its first create batch.
    expect(buildPlan({ ...args, borrowable: true, savedBorrowable: null }).borrowableChanged).toBe(false);
  });

  it('returns part of a lowered row: the dialog lists the seats given back, the rest stays or moves (issue 21)', () => {
    const base = {
      key: 'k'.repeat(32),
      source: host,
      sourceShared: false,
      borrowable: false,
      savedBorrowable: false,
    };
    const sel = setKeep(initialSelection(data), 'B', '1');
    const plan = buildPlan({ ...base, mode: 'default', target: host, tabs: [tab(sel)] });
    const [c] = plan.customers;
    expect(c.returns).toEqual([{ id: 13, count: -2 }]);
    expect(c.deactivate.map((l) => [l.row.activationid, l.count])).toEqual([['B', -2]]);
    expect(c.seatsAfter).toBe(2 + 1);
    // In a rehost the lowered row moves with the seats it keeps.
    const target = {
      serverName: 'new01',
      serverId: '001122334455',
      serverIdType: 'ETHERNET',
      type: 'rehost' as const,
    };
    const moved = buildPlan({ ...base, mode: 'rehost', target, tabs: [tab(sel)] }).customers[0];
    expect(moved.creates).toEqual([
      { id: 'A', count: 2 },
      { id: 'B', count: 1 },
    ]);
  });
});
