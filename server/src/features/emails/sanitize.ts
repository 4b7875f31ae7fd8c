import sanitizeHtml from 'sanitize-html';

/*
 * E-mail bodies are shown inside the portal (in a sandboxed frame, see the detail page), yet they may carry
 * text that came from outside (names, host ids). A strict allow-list: formatting and tables only, no
 * scripts, no event handlers, no forms or frames, no style sheets; links only to http(s)/mailto and
 * images only as inline data (no remote fetch that would tell a tracker the mail was opened).
 */
const options: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'hr',
    'b',
    'strong',
    'i',
    'em',
    'u',
    's',
    'small',
    'sub',
    'sup',
    'span',
    'div',
    'pre',
    'code',
    'blockquote',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'ul',
    'ol',
    'li',
    'dl',
    'dt',
    'dd',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'caption',
    'a',
    'img',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    table: ['border', 'cellpadding', 'cellspacing'],
    td: ['colspan', 'rowspan', 'align'],
    th: ['colspan', 'rowspan', 'align'],
    '*': ['style'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['data'] },
  allowProtocolRelative: false,
  // Only harmless presentation properties survive in style attributes (no url(), no positioning).
  allowedStyles: {
    '*': {
      color: [/^#[0-9a-f]{3,8}$/i, /^[a-z]+$/i, /^rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\)$/i],
      'background-color': [/^#[0-9a-f]{3,8}$/i, /^[a-z]+$/i],
      'text-align': [/^(left|right|center|justify)$/],
      'font-weight': [/^(normal|bold|\d{3})$/],
      'font-style': [/^(normal|italic)$/],
      'font-size': [/^\d{1,3}(px|pt|em|%)$/],
    },
  },
  disallowedTagsMode: 'discard',
  transformTags: {
    // Links open outside the frame and never hand the portal page to the opened site.
    a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer' }),
  },
};

export function sanitizeEmailHtml(html: string): string {
  return sanitizeHtml(html, options);
}
