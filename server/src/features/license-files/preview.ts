import { messages } from '@lp/contract/common/errors';
import type { PreviewRequest } from '@lp/contract/license-files/schemas';
import { featureDisplayLine } from '@lp/domain/license-file';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import type { Principal } from '../../platform/principal.ts';
import { authorizeAccount } from '../accounts/policy.ts';
import { type PlannedLine, plannedLinesOf } from '../activations/service.ts';
import { editableAccounts, findAccountHost, type HostRow, parseHost } from '../license-servers/service.ts';
import { featureOf } from './generate.ts';

/** What a save would change in each account's license file (decision 032), before it is saved. */

/** What `after` has beyond `before` and the reverse, as multisets (two entitlements may write the same line). */
function lineChanges(before: string[], after: string[]) {
  const tally = (lines: string[]) => {
    const counts = new Map<string, number>();
    for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
    return counts;
  };
  const beyond = (lines: string[], other: Map<string, number>) =>
    lines.filter((line) => {
      const n = other.get(line) ?? 0;
      if (n > 0) other.set(line, n - 1);
      return n === 0;
    });
  return { added: beyond(after, tally(before)), removed: beyond(before, tally(after)) };
}

/**
 * POST /api/fulfillments/license/preview: per customer, the INCREMENT lines of their file for the host that these
 * returns and creates would add and remove, rendered by the generator's own token builder without ISSUED and
 * SIGN. Read-only, so view-only users may ask; every customer must pass the account gate. A host a customer does
 * not use yet (new, or not theirs) has no lines before.
 */
export async function previewLicenseChanges(ctx: AppContext, principal: Principal, request: PreviewRequest) {
  await authorizeAccount(ctx, principal, request.customerNumber, 'activations');
  const customers = new Map<
    string,
    { returns: PreviewChange['returns']; creates: PreviewChange['creates'] }
  >();
  for (const c of request.customers) {
    const merged = customers.get(c.customerNumber) ?? { returns: [], creates: [] };
    merged.returns.push(...c.returns);
    merged.creates.push(...c.creates);
    customers.set(c.customerNumber, merged);
  }
  for (const cn of customers.keys()) await authorizeAccount(ctx, principal, cn, 'activations');
  const serverIdType = request.serverIdType ?? 'ETHERNET';
  // Bad ids answer the spec's host-id text before anything is read.
  if (request.serverId) parseHost(request.serverId, serverIdType);
  const data = [];
  for (const [customerNumber, change] of customers) {
    const found = request.serverId
      ? await findAccountHost(ctx.db, customerNumber, request.serverId, serverIdType)
      : undefined;
    const host = found?.host;
    const { before, after } = await plannedLinesOf(ctx.db, host?.id ?? null, customerNumber, change);
    const borrowAfter = await savedBorrowable(ctx, principal, found, request.ansysborrowable);
    const display = (lines: PlannedLine[], borrow: boolean) => {
      try {
        return lines.map((l) => featureDisplayLine(featureOf(ctx, l, borrow), customerNumber));
      } catch (e) {
        ctx.log.error({ err: e, customerNumber }, 'license line cannot be rendered');
        throw new AppError('UNPROCESSABLE', messages.errorLicenseFile);
      }
    };
    data.push({
      customerNumber,
      ...lineChanges(display(before, host?.borrowable ?? false), display(after, borrowAfter)),
    });
  }
  return data;
}

type PreviewChange = PreviewRequest['customers'][number];

/**
 * The host's Borrowable setting after the save, as the save will leave it: the asked one for a new host or one whose
 * every account the user may edit (a create batch or /api/fulfillments/servers/settings saves it), else the saved
 * one (a create batch leaves it, the settings call is refused). A new host asked for nothing has none.
 */
async function savedBorrowable(
  ctx: AppContext,
  principal: Principal,
  found: { host: HostRow; members: { customerNumber: string }[] } | undefined,
  asked: boolean | undefined,
): Promise<boolean> {
  if (!found) return asked ?? false;
  if (asked === undefined || asked === found.host.borrowable) return found.host.borrowable;
  const members = found.members.map((m) => m.customerNumber);
  const editable = await editableAccounts(ctx, principal, members);
  return editable.length === members.length ? asked : found.host.borrowable;
}
