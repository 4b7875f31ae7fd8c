import { describe, expect, it } from 'vitest';
import { absoluteLinks, mailText } from './compose.ts';

describe('absoluteLinks', () => {
  const base = 'https://portal.example.com/lp';
  it('resolves paths against PUBLIC_URL, keeping its path', () => {
    expect(absoluteLinks('<a href="/emails?account=1&amp;x=2">e</a>', base)).toBe(
      '<a href="https://portal.example.com/lp/emails?account=1&amp;x=2">e</a>',
    );
    expect(absoluteLinks('<a class="c" href="emails/7">e</a><img src="logo.svg" alt="">', `${base}/`)).toBe(
      '<a class="c" href="https://portal.example.com/lp/emails/7">e</a>' +
        '<img src="https://portal.example.com/lp/logo.svg" alt="">',
    );
    expect(absoluteLinks('<a href="//cdn.example/x">x</a>', 'http://localhost:3000')).toBe(
      '<a href="http://cdn.example/x">x</a>',
    );
  });

  it('leaves links with a scheme, and text (escaped, as every template writes it) that reads like a link', () => {
    const html =
      '<a href="https://vendor.example/help">h</a> <a href="mailto:help@vendor.example">m</a> ' +
      '<p>Use href=&quot;/x&quot; in your page.</p>';
    expect(absoluteLinks(html, base)).toBe(html);
  });
});

describe('mailText', () => {
  it('keeps the words, shows links as "text [url]" and a bare address once', () => {
    expect(
      mailText(
        '<p>Keys at <a href="https://p.example/api/license-keys">https://p.example/api/license-keys</a>.</p>' +
          '<p><a href="https://p.example/emails">Choose</a> &amp; go</p>',
      ),
    ).toBe('Keys at https://p.example/api/license-keys.\n\nChoose [https://p.example/emails] & go');
  });
});
