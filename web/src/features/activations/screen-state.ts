import type { LicenseServer } from '@lp/contract/license-servers/schemas';
import type { NewHost } from './add-host-rules.ts';
import type { SavePlan } from './save-plan.ts';

/** A confirmed save: the plan and whether the license file is e-mailed. */
export interface SaveJob {
  plan: SavePlan;
  email: boolean;
}

/**
 * Where the save flow of /activations is (spec 002 §4): nothing chosen, choosing what to change, confirming a plan,
 * running it, or stopped by a failure that "Clear error and retry" runs again (the same plan, so the same operation
 * keys, decision 034).
 */
export type SavePhase =
  | { kind: 'idle' }
  | { kind: 'editing' }
  | { kind: 'confirming'; job: SaveJob }
  | { kind: 'running'; job: SaveJob }
  | { kind: 'failed'; job: SaveJob; message: string };

/** A host being added or rehosted to: used at once, saved by the first create (spec 002 §4). */
export interface PendingHost {
  kind: 'new' | 'rehost';
  host: NewHost;
  /** Rehost: the host the seats leave */
  source?: LicenseServer;
}

export interface ScreenState {
  phase: SavePhase;
  /** The saved host chosen in the server bar */
  hostId: string | null;
  /** A new host, or a rehost's target, not saved yet */
  pending: PendingHost | null;
  /** The Borrowable box (decision 048) */
  borrowable: boolean;
  /** Other accounts share the chosen host */
  sharedWarning: string | null;
  /** The chosen host's accounts did not load */
  hostError: string | null;
  /** The add-server dialog: a new host or a rehost of `source` */
  dialog: { mode: 'new' | 'rehost'; source?: LicenseServer } | null;
  /** The chosen host's activations dialog is open */
  viewing: boolean;
}

export type ScreenAction =
  | { type: 'hostChosen'; host: LicenseServer | null }
  | { type: 'hostShared'; warning: string }
  | { type: 'hostAccountsFailed'; message: string }
  | { type: 'dialogOpened'; mode: 'new' | 'rehost'; source?: LicenseServer }
  | { type: 'dialogClosed' }
  | { type: 'hostAdded'; host: NewHost }
  | { type: 'borrowableSet'; value: boolean }
  | { type: 'cancelled'; savedBorrowable: boolean }
  | { type: 'viewingSet'; value: boolean }
  | { type: 'confirm'; job: SaveJob }
  | { type: 'confirmCancelled' }
  | { type: 'retry' }
  | { type: 'run'; job: SaveJob }
  | { type: 'runSucceeded' }
  | { type: 'runFailed'; message: string };

export const initialScreen: ScreenState = {
  phase: { kind: 'idle' },
  hostId: null,
  pending: null,
  borrowable: false,
  sharedWarning: null,
  hostError: null,
  dialog: null,
  viewing: false,
};

/** At rest: editing once a host is chosen or being added. */
const resting = (s: Pick<ScreenState, 'hostId' | 'pending'>): SavePhase =>
  s.hostId !== null || s.pending !== null ? { kind: 'editing' } : { kind: 'idle' };

export function screenReducer(state: ScreenState, action: ScreenAction): ScreenState {
  switch (action.type) {
    case 'hostChosen': {
      const next = {
        ...state,
        hostId: action.host?.serverId ?? null,
        pending: null,
        borrowable: action.host?.ansysborrowable ?? false,
        sharedWarning: null,
        hostError: null,
      };
      // A save choosing the host its seats are on now stays running until it has finished.
      return { ...next, phase: state.phase.kind === 'running' ? state.phase : resting(next) };
    }
    case 'hostShared':
      return { ...state, sharedWarning: action.warning };
    case 'hostAccountsFailed':
      return { ...state, hostError: action.message };
    case 'dialogOpened':
      return { ...state, dialog: { mode: action.mode, source: action.source } };
    case 'dialogClosed':
      return { ...state, dialog: null };
    case 'hostAdded': {
      const source = state.dialog?.mode === 'rehost' ? state.dialog.source : undefined;
      const next = {
        ...state,
        dialog: null,
        pending: { kind: source ? 'rehost' : 'new', host: action.host, source } as const,
        borrowable: source ? source.ansysborrowable : state.borrowable,
      };
      return { ...next, phase: state.phase.kind === 'idle' ? resting(next) : state.phase };
    }
    case 'borrowableSet':
      return { ...state, borrowable: action.value };
    case 'cancelled': {
      // Spec 002 §4: Cancel on a new or rehost server drops it and returns to the previous one.
      const next = { ...state, borrowable: action.savedBorrowable, pending: null };
      return { ...next, phase: state.phase.kind === 'editing' ? resting(next) : state.phase };
    }
    case 'viewingSet':
      return { ...state, viewing: action.value };
    case 'confirm':
      return { ...state, phase: { kind: 'confirming', job: action.job } };
    case 'confirmCancelled':
      return { ...state, phase: resting(state) };
    case 'retry':
      // Clear error and retry: the message goes; the caller runs the failed job again or reloads the host.
      return { ...state, hostError: null, phase: resting(state) };
    case 'run':
      return { ...state, phase: { kind: 'running', job: action.job } };
    case 'runSucceeded':
      return { ...state, phase: resting(state) };
    case 'runFailed':
      return state.phase.kind === 'running'
        ? { ...state, phase: { kind: 'failed', job: state.phase.job, message: action.message } }
        : state;
  }
}
