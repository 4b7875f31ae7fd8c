import { escapeHtml } from '../../platform/escape-html.ts';

/** The daily digest of an account's new findings (issue 13 §2): one line each, escaped (product names are data). */
export function noticeDigest(customerNumber: string, lines: string[]) {
  const items = lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('');
  return {
    subject: `Licensing notices for account ${customerNumber}: ${lines.length} new`,
    html:
      `<p>New licensing notices for account ${escapeHtml(customerNumber)}:</p>` +
      `<ul>${items}</ul>` +
      '<p>You receive the notices you chose on the Licensing Portal; administrators can switch notice types off for the account.</p>',
  };
}
