import type { LicenseFile } from '@lp/contract/license-files/schemas';
import { saveTextFile } from '../../lib/save-file.ts';
import {
  createFulfillments,
  deactivateSharedGroup,
  emailLicense,
  licensesOfHost,
  returnFulfillments,
  saveBorrowable,
  setSharedGroup,
} from './api/fulfillment-steps.ts';
import { leavesNothing, type SavePlan } from './save-plan.ts';

/**
 * Spec 002 §2 spinner texts of the steps a save runs (decision 047): shown before the progress count, so a person
 * sees what is happening while a step waits on the server.
 */
export const saveSpinners = {
  returning: 'Returning fulfillments...',
  rehosting: 'Rehosting to/from...',
  creating: 'Creating fulfillments...',
} as const;

export interface RunOptions {
  /** Step 7: e-mail the file to the support list of the first customer */
  email: boolean;
  /** Items saved so far of plan.total (the spinner's 'processing x/y fulfillments') and the step's text */
  onProgress: (done: number, step: string) => void;
  /** Step 5, before the download: the page reloads the host's data */
  refresh: () => Promise<void>;
}

/**
 * Spec 002 §4 "Save flow", steps 1-7 in order; the first failure stops it (a StepError with the banner's text).
 * Running the same plan again replays the batches already saved (their operation keys) and does the rest.
 */
export async function runSavePlan(plan: SavePlan, options: RunOptions): Promise<LicenseFile | null> {
  let done = 0;
  let current = '';
  const progress = (n: number) => {
    done += n;
    options.onProgress(done, current);
  };
  const enter = (step: string) => {
    current = step;
    options.onProgress(done, current);
  };
  const first = plan.customers[0];
  if (!first) return null;
  const lifecycle = plan.mode === 'rehost' ? 'rehost' : 'return';
  const { serverName, serverId, serverIdType, prevServer } = plan.target;
  const rehostTarget = prevServer ? { serverName, serverId, serverIdType, prevServer } : undefined;

  // 1. Returns, then the source's shared-server group is deactivated.
  if (plan.customers.some((c) => c.returns.length))
    enter(plan.mode === 'rehost' ? saveSpinners.rehosting : saveSpinners.returning);
  for (const c of plan.customers)
    if (c.returns.length)
      await returnFulfillments({
        customerNumber: c.customerNumber,
        customerName: c.customerName,
        items: c.returns,
        lifecycle,
        rehostTarget,
        planKey: plan.key,
        onProgress: progress,
        withDetail: true,
      });
  // Only a save touches the groups: generating the file of what is already there writes nothing.
  const saving = plan.total > 0;
  if (saving && plan.source && (plan.sourceShared || plan.group.length > 1))
    await deactivateSharedGroup(
      {
        customerNumber: first.customerNumber,
        hostId: plan.source.serverId,
        hostIdType: plan.source.serverIdType,
      },
      `${plan.key}-source`,
    );

  // 2. Creates: the first customer's first batch may add the host; everything after finds it.
  let hostAdded = false;
  if (plan.customers.some((c) => c.creates.length)) enter(saveSpinners.creating);
  for (const c of plan.customers) {
    if (!c.creates.length) continue;
    await createFulfillments({
      customerNumber: c.customerNumber,
      customerName: c.customerName,
      host: {
        ...plan.target,
        ansysborrowable: plan.borrowable,
        type: hostAdded ? '' : plan.target.type,
      },
      items: c.creates,
      planKey: plan.key,
      onProgress: progress,
    });
    hostAdded = true;
  }

  const target = {
    customerNumber: first.customerNumber,
    hostId: plan.target.serverId,
    hostIdType: plan.target.serverIdType,
  };
  // A Borrowable change that no create batch carried is saved on its own (decision 048).
  if (plan.borrowableChanged && !plan.customers.some((c) => c.creates.length))
    await saveBorrowable(target, plan.borrowable, plan.key);
  const holders = plan.customers.filter((c) => c.seatsAfter > 0);
  // 3. A shared license server: the group of every approved active customer.
  if (saving && plan.group.length > 1 && holders.length) await setSharedGroup(target, plan.group, plan.key);

  if (leavesNothing(plan)) {
    await options.refresh();
    return null;
  }
  // 4. License text per customer, merged by the server from the same signed lines.
  const licenses = await licensesOfHost({
    hostId: plan.target.serverId,
    hostIdType: plan.target.serverIdType,
    borrowable: plan.borrowable,
    customers: holders.map((c) => ({ customerNumber: c.customerNumber, customerName: c.customerName })),
  });
  // 5. Refresh, 6. download the merged file.
  await options.refresh();
  saveTextFile(licenses.merged.text, licenses.merged.fileName, 'text/plain');
  // 7. E-mail to the support list.
  if (options.email)
    await emailLicense({
      customerNumber: first.customerNumber,
      customerName: first.customerName,
      serverName: plan.target.serverName,
      serverId: plan.target.serverId,
      serverIdType: plan.target.serverIdType,
    });
  return licenses.merged;
}
