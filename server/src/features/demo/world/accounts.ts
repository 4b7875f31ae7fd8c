import { AUTOMATED_ACTION } from '@lp/domain/entitlements';
import type { WorldContext } from './context.ts';
import type { AccountPlan } from './types.ts';

/** One account being generated: what the area generators after `addAccount` need to know about it. */
export interface AccountScope {
  /** position in the plan list (the first designed accounts get every variant of some areas) */
  index: number;
  plan: AccountPlan;
  /** customer number */
  cn: string;
  /** who shows as the actor of the account's activations: its contacts, automation and vendor support */
  people: string[];
}

/** The account row and its portal contacts (the customer users' per-account roles). */
export function addAccount(ctx: WorldContext, plan: AccountPlan, index: number): AccountScope {
  const { rng, at, workTime } = ctx;
  const cn = String(ctx.customerNumber);
  // Gaps between customer numbers, as in a real customer base.
  ctx.customerNumber += rng.int(7, 97);
  ctx.rows.accounts.push({
    customerNumber: cn,
    name: plan.name,
    orgType: plan.orgType,
    exportControlStatus: plan.exportStatus,
    supportEmail: plan.supportEmail ?? '',
    isAccessDisabled: plan.accessDisabled,
    isFnpLicenseGenerator: plan.fnp,
    createdAt: at(-rng.int(400, 3000), workTime()),
  });
  for (const [email, role] of plan.contacts) ctx.rows.contacts.push({ customerNumber: cn, email, role });
  const people = [...plan.contacts.map(([e]) => e), AUTOMATED_ACTION, 'support@demo.example'];
  return { index, plan, cn, people };
}
