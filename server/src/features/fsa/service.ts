import { randomBytes } from 'node:crypto';
import { messages } from '@lp/contract/common/errors';
import type {
  FsaContract,
  FsaHistoryRow,
  FsaOrderLine,
  FsaOrderRequest,
  FsaOrderResult,
  FsaProduct,
} from '@lp/contract/fsa/schemas';
import { formatDateTime } from '@lp/domain/dates';
import {
  FSA_MANUAL_DRAWDOWN_PART,
  periodOf,
  remainingDaysColour,
  usedColour,
  usedPercentage,
} from '@lp/domain/entitlements';
import {
  checkManualLine,
  duplicateLines,
  type FsaTerm,
  formatMoney,
  isManualProductName,
  type LinePrice,
  priceLine,
  type TypedAmount,
} from '@lp/domain/fsa-pricing';
import { isBusops } from '@lp/domain/policy';
import type { Db } from '../../db/database.ts';
import { onceForKey } from '../../db/operation-keys.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { sendAccountEmail } from '../../platform/mail/mailer.ts';
import type { Principal } from '../../platform/principal.ts';
import { authorizeAccount } from '../accounts/policy.ts';
import { type AuditChange, auditActor, recordAudit } from '../audit/service.ts';
import {
  type FsaContractRow,
  type FsaLineValues,
  fsaEntitlements,
  type LockedFsaContractRow,
} from '../entitlements/service.ts';
import { type ConfirmedLine, orderConfirmation } from './order-email.ts';
import { contractsWithPrices, listPrices, type PriceRow } from './repository.ts';

/** The one balance rule of the FSA ledger (decision 036): budget − sum of the contract's order lines. */
export const balanceOf = (c: { budgetCents: number; linesCents: number }) => c.budgetCents - c.linesCents;

/** The contract's busops e-mail list (comma-separated; semicolons accepted too). */
export const busopsList = (c: Pick<FsaContractRow, 'busopsEmails'>) =>
  (c.busopsEmails ?? '')
    .split(/[,;]/)
    .map((e) => e.trim())
    .filter(Boolean);

const todayUtc = (now: Date) => now.toISOString().slice(0, 10);
const termOf = (c: Pick<FsaContractRow, 'startDate' | 'endDate'>): FsaTerm => ({
  startDate: c.startDate,
  endDate: c.endDate ?? c.startDate,
});

function presentContract(
  c: FsaContractRow,
  hasProducts: boolean,
  spend: FsaContract['dailySpend'],
  now: Date,
): FsaContract {
  const period = periodOf(c.startDate, c.endDate ?? c.startDate, now);
  const remainingCents = balanceOf(c);
  const percentage = usedPercentage(c.budgetCents, c.linesCents);
  const remainingDays = period?.remainingDays ?? 0;
  const remainingdays = period?.notStarted
    ? 'NOT STARTED'
    : !period || period.expired
      ? 'EXPIRED'
      : remainingDays;
  return {
    entitlementId: c.activationId,
    // No separate order id is stored: the contract's entitlement id names its order.
    orderId: c.activationId,
    poNumber: c.poNumber,
    startDate: c.startDate,
    endDate: c.endDate,
    currency: c.currency ?? '',
    budgetCents: c.budgetCents,
    usedCents: c.linesCents,
    remainingCents,
    usedPercentage: percentage,
    remainingdays,
    usedDays: period?.usedDays ?? 0,
    usedDaysPercentage: period?.usedDaysPercentage ?? 100,
    colours: { remainingdays: remainingDaysColour(remainingDays), usedpercentage: usedColour(percentage) },
    // Spec 002 §4: NOT STARTED is active, EXPIRED and exactly 100 % used are inactive.
    active: remainingdays !== 'EXPIRED' && percentage !== 100,
    busopsEmails: busopsList(c),
    lastOrderedAt: c.lastOrderedAt,
    hasProducts,
    dailySpend: spend,
  };
}

/** POST /api/fsa/contracts: the account's FSA contracts with their balances. */
export async function listContracts(ctx: AppContext, principal: Principal, customerNumber: string) {
  await authorizeAccount(ctx, principal, customerNumber, 'read');
  const rows = await fsaEntitlements.contracts(ctx.db, customerNumber);
  const ids = rows.map((r) => r.id);
  const priced = await contractsWithPrices(ctx.db, ids);
  const spend = new Map<number, FsaContract['dailySpend']>();
  for (const { contractId, day, cents } of await fsaEntitlements.dailySpend(ctx.db, ids)) {
    const days = spend.get(contractId) ?? [];
    days.push({ day, cents });
    spend.set(contractId, days);
  }
  const now = new Date();
  return rows.map((r) => presentContract(r, priced.has(r.id), spend.get(r.id) ?? [], now));
}

async function contractOf(db: Db, customerNumber: string, entitlementId: string) {
  const contract = (await fsaEntitlements.contracts(db, customerNumber)).find(
    (c) => c.activationId === entitlementId,
  );
  if (!contract) throw notFound();
  return contract;
}

const presentProduct = ({ name, ...p }: PriceRow): FsaProduct => ({
  ...p,
  name,
  manual: isManualProductName(name),
});

/** POST /api/fsa/products: the contract's orderable products; 404 for a contract not of this account. */
export async function listProducts(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; entitlementId: string },
): Promise<FsaProduct[]> {
  await authorizeAccount(ctx, principal, request.customerNumber, 'read');
  const contract = await contractOf(ctx.db, request.customerNumber, request.entitlementId);
  return (await listPrices(ctx.db, contract.id)).map(presentProduct);
}

/** POST /api/fsa/history: the account's order lines, newest first; manual lines only for business operations. */
export async function orderHistory(
  ctx: AppContext,
  principal: Principal,
  customerNumber: string,
): Promise<FsaHistoryRow[]> {
  await authorizeAccount(ctx, principal, customerNumber, 'read');
  const contracts = await fsaEntitlements.contracts(ctx.db, customerNumber);
  const fsaIds = new Map(contracts.map((c) => [c.id, c.activationId]));
  const busops = isBusops(principal.vendorRoles);
  const lines = await fsaEntitlements.lines(ctx.db, [...fsaIds.keys()]);
  return lines
    .filter((l) => busops || (l.partNumber !== FSA_MANUAL_DRAWDOWN_PART && l.productName === null))
    .sort((a, b) => (b.orderedAt?.getTime() ?? 0) - (a.orderedAt?.getTime() ?? 0))
    .map((l) => ({
      entitlementId: l.activationId,
      ansysproduct: l.productName ?? l.catalogueName ?? l.partNumber ?? '',
      fsaId: fsaIds.get(l.fsaContractId ?? -1) ?? '',
      orderdate: l.orderedAt ? formatDateTime(l.orderedAt) : '',
      count: l.quantity,
      startdate: l.startDate,
      enddate: l.endDate,
      cost: l.priceCents ?? 0,
      currency: l.currency ?? '',
      requester: l.orderedBy ?? '',
    }));
}

/** One request line as the server sees it: what it would draw, or why it fails, and whether busops sent it. */
interface PlannedLine {
  partNumber: string;
  productName: string | null;
  count: number;
  startDate: string;
  duration: string;
  endDate: string;
  busopsOnly: boolean;
  price: LinePrice;
}

const failure = (error: string): LinePrice => ({ ok: false, field: 'count', error });

function planLine(
  line: FsaOrderLine,
  contract: LockedFsaContractRow,
  prices: Map<string, PriceRow>,
  today: string,
): PlannedLine {
  const count = line.ansyscount ?? 1;
  const term = termOf(contract);
  const product = line.ansysbpn ? prices.get(line.ansysbpn) : undefined;
  const manual = line.manualentry === true || (product !== undefined && isManualProductName(product.name));
  const base = { count, startDate: line.startdate, duration: line.duration ?? '' };
  if (manual) {
    const partNumber = product?.partNumber ?? FSA_MANUAL_DRAWDOWN_PART;
    const productName = line.manualProductName || product?.name || '';
    const endDate = line.enddate ?? '';
    const plan = { ...base, partNumber, productName, endDate, busopsOnly: true };
    if (line.ansysbpn && !product && line.ansysbpn !== FSA_MANUAL_DRAWDOWN_PART)
      return { ...plan, price: failure('This product is not offered by the selected FSA contract.') };
    if (!productName) return { ...plan, price: failure('A manual entry needs a product name.') };
    const typed = typedAmount(line);
    if (!typed) return { ...plan, price: failure('A manual entry needs a unit cost.') };
    const price = checkManualLine({
      contract: term,
      today,
      startDate: line.startdate,
      endDate,
      count,
      ...typed,
    });
    return { ...plan, price: checkClientCost(price, line) };
  }
  const plan = {
    ...base,
    partNumber: line.ansysbpn ?? '',
    productName: null,
    endDate: line.enddate ?? '',
    busopsOnly: false,
  };
  if (!product)
    return { ...plan, price: failure('This product is not offered by the selected FSA contract.') };
  if (!line.duration) return { ...plan, price: failure('A standard line needs a duration.') };
  const priced = priceLine({
    prices: product,
    contract: term,
    today,
    startDate: line.startdate,
    duration: line.duration,
    count,
  });
  if (!priced.ok) return { ...plan, price: priced };
  // An end date or unit cost other than the price list's is an edit only business operations may make.
  const editedEnd = line.enddate !== undefined && line.enddate !== priced.endDate;
  const editedUnit =
    (line.unitCents !== undefined && line.unitCents !== priced.unitCents) ||
    (line.costCents !== undefined && line.costCents !== priced.costCents);
  if (!editedEnd && !editedUnit)
    return { ...plan, endDate: priced.endDate, price: checkClientCost(priced, line) };
  const endDate = line.enddate ?? priced.endDate;
  const edited = checkManualLine({
    contract: term,
    today,
    startDate: line.startdate,
    endDate,
    count,
    ...(typedAmount(line) ?? { unitCents: priced.unitCents }),
  });
  return { ...plan, endDate, busopsOnly: true, price: checkClientCost(edited, line) };
}

/** The amount busops typed: the cost itself wins over a unit cost (decision 050); undefined when neither. */
function typedAmount(line: FsaOrderLine): TypedAmount | undefined {
  if (line.costCents !== undefined) return { costCents: line.costCents };
  if (line.unitCents !== undefined) return { unitCents: line.unitCents };
  return undefined;
}

/** The client's cost is checked, never trusted: a different one fails the line with both amounts. */
function checkClientCost(price: LinePrice, line: FsaOrderLine): LinePrice {
  if (!price.ok || line.ansysprice === undefined || line.ansysprice === price.costCents) return price;
  return failure(
    `The cost of this line is ${formatMoney(price.costCents)}, not ${formatMoney(line.ansysprice)}. Please review the line and order again.`,
  );
}

const newActivationId = () => randomBytes(8).toString('hex').match(/..../g)!.join('-');

/**
 * Spec 002 §7 POST /api/entitlements: orders lease entitlements against an FSA contract. In one transaction
 * holding the contract's row lock, each line is priced with @lp/domain/fsa-pricing and drawn from the balance
 * in request order; a line that fails (invalid, duplicate, over the balance, client cost wrong) leaves nothing.
 * Idempotent per orderKey (decision 029's operation keys). Busops-only content from anyone else: 403, nothing.
 * Audited: one 'fsa.ordered' entry per line drawn, named by the new lease's activation id; failed lines and a
 * replayed order record nothing.
 */
export async function orderLines(ctx: AppContext, principal: Principal, request: FsaOrderRequest) {
  await authorizeAccount(ctx, principal, request.customerNumber, 'edit');
  const busops = isBusops(principal.vendorRoles);
  const now = new Date();
  const today = todayUtc(now);
  return ctx.db.transaction((tx) =>
    onceForKey(
      tx,
      { key: request.orderKey, operation: 'fsaOrder', userEmail: principal.email, request },
      async (): Promise<FsaOrderResult[]> => {
        const locked = await fsaEntitlements.lockContract(tx, request.customerNumber, request.fsaID);
        if (!locked) throw notFound();
        const { contract } = locked;
        if (contract.endDate !== null && contract.endDate < today)
          throw badRequest(`FSA contract ${contract.activationId} ended on ${contract.endDate}.`);
        const prices = new Map(locked.prices.map((p) => [p.partNumber, p]));
        const planned = request.products.map((line) => planLine(line, contract, prices, today));
        if (!busops && planned.some((p) => p.busopsOnly)) throw forbidden();
        const duplicates = new Set(duplicateLines(planned));
        let balance = balanceOf(contract);
        const results: FsaOrderResult[] = [];
        const drawn: ConfirmedLine[] = [];
        const rows: FsaLineValues[] = [];
        const changes: AuditChange[] = [];
        for (const [i, p] of planned.entries()) {
          const answer = {
            ansysbpn: p.partNumber,
            startdate: p.startDate,
            enddate: p.price.ok ? p.price.endDate : p.endDate,
            ansysquantity: p.count,
            ansysprice: p.price.ok ? p.price.costCents : (request.products[i].ansysprice ?? 0),
          };
          const err = !p.price.ok
            ? p.price.error
            : duplicates.has(i)
              ? messages.fsaDuplicateLine
              : p.price.costCents > balance
                ? messages.fsaBalanceProduct
                : '';
          if (err || !p.price.ok) {
            results.push({ status: 'FAILURE', ...answer, err });
            continue;
          }
          const activationId = newActivationId();
          rows.push({
            customerNumber: request.customerNumber,
            activationId,
            partNumber: p.partNumber,
            productName: p.productName,
            quantity: p.count,
            startDate: p.startDate,
            endDate: p.price.endDate,
            poNumber: contract.poNumber,
            currency: contract.currency,
            priceCents: p.price.costCents,
            fsaContractId: contract.id,
            orderedAt: now,
            orderedBy: principal.email,
          });
          balance -= p.price.costCents;
          results.push({ status: 'SUCCESS', ...answer, err: '', entitlementId: activationId });
          drawn.push({
            product: p.productName ?? `${prices.get(p.partNumber)?.name} (${p.partNumber})`,
            count: p.count,
            startDate: p.startDate,
            endDate: p.price.endDate,
            costCents: p.price.costCents,
          });
          changes.push({
            customerNumber: request.customerNumber,
            action: 'fsa.ordered',
            object: { type: 'entitlement', id: activationId },
            after: {
              contract: contract.activationId,
              partNumber: p.partNumber,
              count: p.count,
              startDate: p.startDate,
              endDate: p.price.endDate,
              costCents: p.price.costCents,
              currency: contract.currency ?? '',
            },
          });
        }
        if (rows.some((r) => r.partNumber === FSA_MANUAL_DRAWDOWN_PART))
          await fsaEntitlements.ensureManualDrawdownProduct(tx, ctx.config.LICENSE_MAIN_DAEMON);
        await fsaEntitlements.addLines(tx, rows);
        // With the contract's row lock held (taken first above): every order locks the contract, then the account's
        // audit chain, in that order.
        await recordAudit(tx, auditActor(principal), changes);
        // In the order's transaction: a rolled-back order sends nothing, a replayed one never gets here.
        const to = busopsList(contract);
        if (drawn.length > 0 && to.length > 0)
          await sendAccountEmail(
            ctx,
            {
              customerNumber: request.customerNumber,
              to,
              ...orderConfirmation(
                {
                  contract: contract.activationId,
                  currency: contract.currency ?? '',
                  remainingCents: balance,
                },
                drawn,
              ),
            },
            tx,
          );
        return results;
      },
    ),
  );
}

export interface FsaReconcileRow {
  customerNumber: string;
  contract: string;
  currency: string;
  budgetCents: number;
  linesCents: number;
  remainingCents: number;
  balanced: boolean;
}

/**
 * `npm run cli -- fsa reconcile`: for every contract, budget = remaining + the sum of its lines (the lines read
 * one by one, the remaining from the ledger's aggregate), and no contract overdrawn.
 */
export async function reconcileFsa(db: Db): Promise<FsaReconcileRow[]> {
  const contracts = await fsaEntitlements.contracts(db);
  const sums = new Map<number, number>();
  for (const l of await fsaEntitlements.lines(
    db,
    contracts.map((c) => c.id),
  ))
    sums.set(l.fsaContractId ?? -1, (sums.get(l.fsaContractId ?? -1) ?? 0) + (l.priceCents ?? 0));
  return contracts.map((c) => {
    const linesCents = sums.get(c.id) ?? 0;
    const remainingCents = balanceOf(c);
    return {
      customerNumber: c.customerNumber,
      contract: c.activationId,
      currency: c.currency ?? '',
      budgetCents: c.budgetCents,
      linesCents,
      remainingCents,
      balanced: c.budgetCents === remainingCents + linesCents && remainingCents >= 0,
    };
  });
}
