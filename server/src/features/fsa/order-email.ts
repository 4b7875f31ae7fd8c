import { formatMoney } from '@lp/domain/fsa-pricing';
import { escapeHtml } from '../../platform/escape-html.ts';

/** One drawn line as the confirmation shows it. */
export interface ConfirmedLine {
  product: string;
  count: number;
  startDate: string;
  endDate: string;
  costCents: number;
}

/**
 * Issue 12 §4: the order confirmation to the contract's busops list — each drawn line, the total and the
 * balance left after the order. Every value is escaped: product names of manual lines are free text.
 */
export function orderConfirmation(
  order: { contract: string; currency: string; remainingCents: number },
  lines: ConfirmedLine[],
): { subject: string; html: string } {
  const currency = escapeHtml(order.currency);
  const money = (cents: number) => `${escapeHtml(formatMoney(cents))} ${currency}`;
  const cell = (v: string, align = 'left') => `<td align="${align}">${v}</td>`;
  const rows = lines
    .map(
      (l) =>
        `<tr>${cell(escapeHtml(l.product))}${cell(escapeHtml(l.count), 'right')}${cell(escapeHtml(l.startDate))}` +
        `${cell(escapeHtml(l.endDate))}${cell(money(l.costCents), 'right')}</tr>`,
    )
    .join('');
  const total = lines.reduce((sum, l) => sum + l.costCents, 0);
  const html =
    `<p>An order was placed on FSA contract ${escapeHtml(order.contract)}.</p>` +
    '<table><tr><th align="left">Product</th><th align="right">Count</th><th align="left">Start</th>' +
    `<th align="left">End</th><th align="right">Cost</th></tr>${rows}</table>` +
    `<p>Total: ${money(total)}</p><p>Remaining balance: ${money(order.remainingCents)}</p>`;
  return { subject: `FSA order on ${order.contract}: ${lines.length} line(s)`, html };
}
