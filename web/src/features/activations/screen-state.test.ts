import type { LicenseServer } from '@lp/contract/license-servers/schemas';
import { describe, expect, it } from 'vitest';
import type { SavePlan } from './save-plan.ts';
import { initialScreen, type SaveJob, type ScreenState, screenReducer } from './screen-state.ts';

const host = { serverId: '0a1b2c3d4e5f', ansysborrowable: true } as LicenseServer;
const job: SaveJob = { plan: { key: 'k', total: 3 } as SavePlan, email: false };
const run = (state: ScreenState, ...actions: Parameters<typeof screenReducer>[1][]) =>
  actions.reduce(screenReducer, state);

describe('the save flow of /activations', () => {
  it('is idle until a host is chosen, then editing with the host’s Borrowable', () => {
    expect(initialScreen.phase).toEqual({ kind: 'idle' });
    const s = run(initialScreen, { type: 'hostChosen', host });
    expect(s.phase).toEqual({ kind: 'editing' });
    expect(s.borrowable).toBe(true);
  });

  it('confirms, runs and comes back to editing', () => {
    const chosen = run(initialScreen, { type: 'hostChosen', host });
    expect(run(chosen, { type: 'confirm', job }).phase).toEqual({ kind: 'confirming', job });
    expect(run(chosen, { type: 'confirm', job }, { type: 'confirmCancelled' }).phase.kind).toBe('editing');
    const running = run(chosen, { type: 'confirm', job }, { type: 'run', job });
    expect(running.phase).toEqual({ kind: 'running', job });
    // The save chooses the host its seats are on now while it still runs.
    expect(run(running, { type: 'hostChosen', host }).phase.kind).toBe('running');
    expect(run(running, { type: 'hostChosen', host }, { type: 'runSucceeded' }).phase.kind).toBe('editing');
  });

  it('keeps the failed job for Clear error and retry', () => {
    const failed = run(
      initialScreen,
      { type: 'hostChosen', host },
      { type: 'run', job },
      {
        type: 'runFailed',
        message: 'Error creating',
      },
    );
    expect(failed.phase).toEqual({ kind: 'failed', job, message: 'Error creating' });
    expect(run(failed, { type: 'retry' }).phase.kind).toBe('editing');
    // Choosing another host drops the failure.
    expect(run(failed, { type: 'hostChosen', host: null }).phase.kind).toBe('idle');
  });

  it('drops a host being added on Cancel and restores the saved Borrowable', () => {
    const adding = run(
      initialScreen,
      { type: 'dialogOpened', mode: 'rehost', source: host },
      {
        type: 'hostAdded',
        host: {
          serverName: 'new',
          serverId: 'ffeeddccbbaa',
          serverIdType: 'ETHERNET',
          triad: false,
          portNumber: 1055,
        },
      },
    );
    expect(adding.pending?.kind).toBe('rehost');
    expect(adding.phase.kind).toBe('editing');
    expect(adding.dialog).toBeNull();
    const cancelled = run(adding, { type: 'cancelled', savedBorrowable: false });
    expect(cancelled.pending).toBeNull();
    expect(cancelled.borrowable).toBe(false);
    expect(cancelled.phase.kind).toBe('idle');
  });
});
