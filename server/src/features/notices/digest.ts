import { escapeHtml } from '../../platform/escape-html.ts';

/**
 * Where a user chooses their notices: the top bar's choices dialog, opened by the link on the account's e-mails
 * page (a page every account user has, decision 060).
 */
export const noticeChoicesUrl = (publicUrl: string, customerNumber: string) =>
  `${publicUrl}/emails?account=${encodeURIComponent(customerNumber)}&notices=choose`;

/**
 * The daily digest of an account's new findings (issue 13 §2): one line each, escaped (product names are data). It
 * names the page where the notices are chosen, in the text and as List-Unsubscribe (RFC 2369; no one-click POST,
 * RFC 8058, since the choices are a signed-in user's).
 */
export function noticeDigest(customerNumber: string, lines: string[], publicUrl: string) {
  const choices = noticeChoicesUrl(publicUrl, customerNumber);
  const items = lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('');
  return {
    subject: `Licensing notices for account ${customerNumber}: ${lines.length} new`,
    html:
      `<p>New licensing notices for account ${escapeHtml(customerNumber)}:</p>` +
      `<ul>${items}</ul>` +
      '<p>You receive the notices you chose on the Licensing Portal: ' +
      `<a href="${escapeHtml(choices)}">choose your notices</a>. ` +
      'Administrators can switch notice types off for the account.</p>',
    headers: { 'List-Unsubscribe': `<${choices}>` },
  };
}
