import { activationsApi } from '@lp/contract/activations/api';
import { messages } from '@lp/contract/common/errors';
import { licenseFilesApi } from '@lp/contract/license-files/api';
import { licenseServersApi } from '@lp/contract/license-servers/api';
import { ApiError } from '../../../lib/api-client.ts';
import { call } from '../../../lib/call.ts';

/**
 * The write steps of spec 002 §4 "Save flow" and "Host lifecycle", shared by the activations and history pages.
 * Every write carries an operation key derived from the plan's key, so running a plan again (clear and retry)
 * replays the batches that were saved and performs only what is left (decision 029). A batch carries the time it is
 * sent: the server claims the key over the fields it reads, never the client's time, so a retry sent later is still
 * replayed (decision 063).
 */

/** Spec 002 §9: batch size 25 and a pool of 6 for fulfillment batches. */
export const BATCH_SIZE = 25;
const POOL_SIZE = 6;

/** Spec 002 §8: raw texts with their own shown message. */
const rawMessages: [RegExp, string][] = [
  [
    /ESOCKETTIMEDOUT/,
    'Unable to complete the activation due to request timeout. Please clear the error and retry.',
  ],
  [
    /activation of the fulfillment is denied by the activation policy/i,
    'Unable to complete the activation as the fulfillment is denied by the activation policy. Please clear the error and retry.',
  ],
  [
    /caught an exception|500 Internal Server Error/i,
    'Unable to complete the activation due to an exception. Please clear the error and retry.',
  ],
];

const rawText = (e: unknown) =>
  e instanceof ApiError ? e.err : e instanceof Error ? e.message : String(e ?? '');

/**
 * The banner text of a failed step (spec 002 §8): the catalogue's message for a known raw text, else the step's
 * message with the server's words as detail when asked; a 32-hex reference id in the raw text is appended.
 */
export function shownMessage(step: string, e: unknown, withDetail = false): string {
  const raw = rawText(e);
  const known = rawMessages.find(([re]) => re.test(raw))?.[1];
  const base = known ?? (withDetail && raw && raw !== step ? `${step} ${raw}` : step);
  const reference = raw.match(/(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])/i)?.[0];
  return reference && !base.includes(reference) ? `${base} (${reference})` : base;
}

/** A failed step: `message` is what the banner shows. */
export class StepError extends Error {
  readonly cause: unknown;

  constructor(message: string, cause: unknown) {
    super(message);
    this.cause = cause;
    this.name = 'StepError';
  }
}

async function step<T>(message: string, run: () => Promise<T>, withDetail = false): Promise<T> {
  try {
    return await run();
  } catch (e) {
    throw new StepError(shownMessage(message, e, withDetail), e);
  }
}

const chunks = <T>(items: readonly T[], size = BATCH_SIZE): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/** Runs `work` over the items with at most `size` at a time; the first failure rejects (others finish). */
async function pool<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>) {
  let next = 0;
  let failure: unknown = null;
  const lane = async () => {
    while (next < items.length && failure === null) {
      const item = items[next++];
      try {
        await work(item);
      } catch (e) {
        failure ??= e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, lane));
  if (failure !== null) throw failure;
}

/** A stable operation key for one batch of a plan (8-100 letters, digits, - or _). */
export const batchKey = (planKey: string, ...parts: (string | number)[]) =>
  [planKey, ...parts]
    .join('-')
    .replace(/[^A-Za-z0-9_-]/g, '_')
    .slice(0, 100);

export interface ReturnItem {
  /** fulfillment id */
  id: number;
  /** negative */
  count: number;
}

/** Step 1: returns seats of one customer in batches; `onProgress` gets the number of items each batch saved. */
export function returnFulfillments(args: {
  customerNumber: string;
  customerName?: string;
  items: ReturnItem[];
  lifecycle: 'return' | 'deactivate' | 'rehost';
  planKey: string;
  onProgress?: (saved: number) => void;
  withDetail?: boolean;
  /** A rehost's target: the server refuses the returns when it would refuse the target (decision 047) */
  rehostTarget?: {
    serverName: string;
    serverId: string;
    serverIdType: string;
    prevServer: { serverId: string; serverIdType: string };
  };
}): Promise<void> {
  return step(
    messages.errorReturning,
    async () => {
      for (const [index, batch] of chunks(args.items).entries()) {
        await call(activationsApi.return, {
          customerNumber: args.customerNumber,
          customerName: args.customerName,
          time: new Date().toISOString(),
          action: args.lifecycle,
          lifecycle: args.lifecycle,
          rehostTarget: args.rehostTarget,
          activations: batch,
          operationKey: batchKey(args.planKey, 'return', args.customerNumber, index),
        });
        args.onProgress?.(batch.length);
      }
    },
    args.withDetail,
  );
}

export interface CreateItem {
  /** activation id */
  id: string;
  count: number;
}

export interface HostTarget {
  serverName: string;
  serverId: string;
  serverIdType: string;
  type?: 'new' | 'rehost' | '';
  prevServer?: { serverId: string; serverIdType: string };
  ansysborrowable?: boolean;
  /** A new or rehost target's SERVER port (the server keeps a saved host's own) */
  portNumber?: number;
}

/**
 * Step 2: creates seats of one customer on a host: the first batch alone (it may add the host), the rest in
 * parallel (spec 002 §4). A caller creating for several customers passes `type` only with the first one.
 */
export function createFulfillments(args: {
  customerNumber: string;
  customerName?: string;
  host: HostTarget;
  items: CreateItem[];
  planKey: string;
  onProgress?: (saved: number) => void;
}): Promise<void> {
  return step(messages.errorCreating, async () => {
    const batches = chunks(args.items).map((batch, index) => ({ batch, index }));
    const send = async ({ batch, index }: { batch: CreateItem[]; index: number }) => {
      await call(activationsApi.create, {
        customerNumber: args.customerNumber,
        customerName: args.customerName,
        time: new Date().toISOString(),
        action: args.host.type === 'rehost' ? 'rehost' : 'activate',
        ...args.host,
        // Only the first batch adds a new host or claims the rehost target; later ones find it in use.
        type: index === 0 ? args.host.type : '',
        activations: batch,
        operationKey: batchKey(args.planKey, 'create', args.customerNumber, index),
      });
      args.onProgress?.(batch.length);
    };
    if (!batches.length) return;
    await send(batches[0]);
    await pool(batches.slice(1), POOL_SIZE, send);
  });
}

export interface HostRef {
  customerNumber: string;
  hostId: string;
  hostIdType: string;
}

/** Step 1 (shared operation): empties the host's shared-server group. */
export const deactivateSharedGroup = (host: HostRef, planKey: string) =>
  step(messages.errorDeactivatingGroup, () =>
    call(licenseServersApi.deactivateSharedGroup, {
      ...host,
      operationKey: batchKey(planKey, 'group-off', host.customerNumber),
    }),
  );

/** Step 3: the host's shared-server group becomes these approved active customers. */
export const setSharedGroup = (host: HostRef, group: string[], planKey: string) =>
  step(messages.errorSharedGroup, () =>
    call(licenseServersApi.setSharedGroup, {
      ...host,
      group,
      operationKey: batchKey(planKey, 'group', host.customerNumber),
    }),
  );

/** A Borrowable change without creates (decision 048): saved on the host before its file is made. */
export const saveBorrowable = (host: HostRef, borrowable: boolean, planKey: string) =>
  step(messages.errorBorrowable, () =>
    call(licenseServersApi.settings, {
      ...host,
      ansysborrowable: borrowable,
      operationKey: batchKey(planKey, 'settings', host.customerNumber),
    }),
  );

/** History page "Delete": removes an inactive host for the account. */
export const removeHost = (host: HostRef, planKey: string) =>
  step(messages.errorRemovingServer, () =>
    call(licenseServersApi.remove, { ...host, operationKey: batchKey(planKey, 'remove') }),
  );

/**
 * Step 4: the license text of every customer on the host, merged into one file (and the shared files of a
 * shared host). A customer with nothing activated is tolerated unless none has anything (spec 002 §4).
 */
export const licensesOfHost = (args: {
  hostId: string;
  hostIdType: string;
  borrowable?: boolean;
  customers: { customerNumber: string; customerName?: string }[];
}) => step(messages.errorLicenseFile, () => call(licenseFilesApi.licenses, args));

/** Step 7: the host's signed file to the account's support list. */
export const emailLicense = (args: {
  customerNumber: string;
  customerName?: string;
  serverName?: string;
  serverId: string;
  serverIdType: string;
}) => step(messages.errorEmail, () => call(licenseFilesApi.email, args));
