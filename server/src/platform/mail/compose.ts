import { convert } from 'html-to-text';
import { escapeHtml } from '../escape-html.ts';

/*
 * What every message gets when it is sent, whoever wrote its HTML (decision 060): a plain-text part made from the
 * HTML, links that work outside the portal, a document with a language and a title, and the header fields that
 * keep auto-responders quiet. A new e-mail gets all of it by going through the outbox.
 */

const textOptions = {
  wordwrap: 78,
  selectors: [
    // "text [url]", and a bare URL once when the link shows its own address.
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    // Tables as aligned columns (the statement's summary, the FSA order's lines), not one cell per line.
    { selector: 'table', format: 'dataTable' },
    { selector: 'ul', options: { itemPrefix: ' - ' } },
  ],
};

/** The plain-text part of a message: the same words, links as "text [url]", tables as columns. */
export function mailText(html: string): string {
  return convert(html, textOptions);
}

const hasScheme = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Every href and src resolved against PUBLIC_URL: a message is read outside the portal, where a relative link leads
 * nowhere. Links with a scheme (https:, mailto:) stay as they are; a path prefix of PUBLIC_URL is kept.
 */
export function absoluteLinks(html: string, publicUrl: string): string {
  const base = publicUrl.replace(/\/$/, '');
  return html.replace(
    /\b(href|src)(\s*=\s*)"([^"]*)"/gi,
    (whole, name: string, eq: string, value: string) => {
      const link = value.trim();
      if (hasScheme.test(link)) return whole;
      const absolute = link.startsWith('//')
        ? `${new URL(base).protocol}${link}`
        : `${base}/${link.replace(/^\/+/, '')}`;
      return `${name}${eq}"${absolute}"`;
    },
  );
}

/** The stored body (a fragment) as the HTML part: a document with its language and the subject as its title. */
export function mailHtml(subject: string, body: string): string {
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>` +
    `<body>${body}</body></html>`
  );
}

/**
 * Header fields of every message the portal sends: none is written by a person, so auto-responders (RFC 3834) and
 * Exchange's out-of-office replies leave them alone.
 */
export const automaticHeaders: Readonly<Record<string, string>> = {
  'Auto-Submitted': 'auto-generated',
  'X-Auto-Response-Suppress': 'OOF, AutoReply',
};
