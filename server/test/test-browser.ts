interface StoredCookie {
  name: string;
  value: string;
  host: string;
  path: string;
}

/**
 * A tiny browser for sign-in tests over real HTTP: a cookie jar (host + path matching, deletion by
 * Max-Age=0/Expires) and manual redirect following, so each hop and Set-Cookie can be inspected.
 */
export class TestBrowser {
  cookies: StoredCookie[] = [];
  /** Set-Cookie headers seen, by cookie name (the last one wins). */
  setCookieHeaders = new Map<string, string>();

  cookieHeader(url: URL): string {
    return this.cookies
      .filter((c) => c.host === url.host && url.pathname.startsWith(c.path))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  cookie(name: string): string | undefined {
    return this.cookies.find((c) => c.name === name)?.value;
  }

  private store(url: URL, header: string) {
    const [pair, ...attrs] = header.split(';').map((s) => s.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    this.setCookieHeaders.set(name, header);
    let path = '/';
    let expired = value === '';
    for (const attr of attrs) {
      const [k, v = ''] = attr.split('=');
      const key = k.toLowerCase();
      if (key === 'path') path = v || '/';
      if (key === 'max-age' && Number(v) <= 0) expired = true;
      if (key === 'expires' && new Date(v).getTime() <= Date.now()) expired = true;
    }
    this.cookies = this.cookies.filter((c) => !(c.name === name && c.host === url.host && c.path === path));
    if (!expired) this.cookies.push({ name, value, host: url.host, path });
  }

  async request(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader(target);
    if (cookie) headers.set('cookie', cookie);
    const send = () => fetch(target, { ...init, headers, redirect: 'manual' });
    // Like browsers, retry once when a pooled keep-alive connection turns out closed (server restart).
    const response = await send().catch((err: Error & { cause?: { code?: string } }) => {
      if (err.cause?.code === 'UND_ERR_SOCKET' && typeof init.body !== 'object') return send();
      throw err;
    });
    for (const header of response.headers.getSetCookie()) this.store(target, header);
    return response;
  }

  /** Follows redirects (GET after each, as browsers do for 302/303) until a non-redirect answer. */
  async navigate(
    url: string | URL,
    init: RequestInit = {},
  ): Promise<{ response: Response; url: URL; hops: URL[] }> {
    let current = new URL(url);
    const hops: URL[] = [current];
    let response = await this.request(current, init);
    for (let i = 0; i < 20 && response.status >= 300 && response.status < 400; i++) {
      await response.arrayBuffer();
      current = new URL(response.headers.get('location')!, current);
      hops.push(current);
      response = await this.request(current);
    }
    return { response, url: current, hops };
  }

  /** Submits a url-encoded form like a browser would, then follows the redirects. */
  postForm(url: string | URL, fields: Record<string, string>) {
    return this.navigate(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }
}

/** The `action` of the first form on a page, resolved against the page URL. */
export function formAction(html: string, pageUrl: URL): URL {
  const match = /<form[^>]*\saction="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no form on page:\n${html.slice(0, 500)}`);
  return new URL(match[1].replace(/&amp;/g, '&'), pageUrl);
}
