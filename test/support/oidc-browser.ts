/**
 * Just enough of a browser for the sign-in redirect flow: it follows redirects one by one, keeps
 * cookies by name and path (per host, not per port, as browsers do), and submits HTML forms.
 */

export interface Hop {
  url: string;
  status: number;
  location?: string;
  setCookies: string[];
  body: string;
}

interface Cookie {
  value: string;
  path: string;
}

export class Browser {
  private readonly jar = new Map<string, Cookie>();
  /** Every response seen, in order. */
  readonly hops: Hop[] = [];

  cookie(name: string, path = '/'): string | undefined {
    return this.jar.get(`${name};${path}`)?.value;
  }

  /** The Cookie header a browser would send to this URL. */
  cookieHeader(url: string): string {
    const { pathname } = new URL(url);
    return [...this.jar.entries()]
      .filter(([, c]) => pathname === c.path || pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map(([key, c]) => `${key.split(';')[0]}=${c.value}`)
      .join('; ');
  }

  /** GET (or POST a form) and follow redirects until a page answers; returns that last hop. */
  async navigate(url: string, form?: Record<string, string>): Promise<Hop> {
    let next: { url: string; form?: Record<string, string> } = { url, ...(form ? { form } : {}) };
    for (let i = 0; i < 20; i++) {
      const hop = await this.request(next.url, next.form);
      if (!hop.location) return hop;
      next = { url: new URL(hop.location, hop.url).href };
    }
    throw new Error(`more than 20 redirects from ${url}`);
  }

  /** Fills and submits the page's only form (hidden fields kept), following the redirects after it. */
  async submit(page: Hop, fields: Record<string, string> = {}): Promise<Hop> {
    const form = /<form\b[^>]*\baction="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(page.body);
    if (!form) throw new Error(`no form on ${page.url}: ${page.body.slice(0, 500)}`);
    const values: Record<string, string> = {};
    for (const input of form[2]!.matchAll(/<input\b[^>]*>/gi)) {
      const name = /\bname="([^"]*)"/.exec(input[0])?.[1];
      if (name) values[name] = /\bvalue="([^"]*)"/.exec(input[0])?.[1] ?? '';
    }
    return this.navigate(new URL(decodeEntities(form[1]!), page.url).href, { ...values, ...fields });
  }

  private async request(url: string, form?: Record<string, string>): Promise<Hop> {
    const headers: Record<string, string> = {};
    const cookies = this.cookieHeader(url);
    if (cookies) headers.cookie = cookies;
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(url, {
      method: form ? 'POST' : 'GET',
      headers,
      redirect: 'manual',
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    const setCookies = res.headers.getSetCookie();
    for (const header of setCookies) this.store(header, url);
    const location = res.status >= 300 && res.status < 400 ? (res.headers.get('location') ?? undefined) : undefined;
    const hop: Hop = { url, status: res.status, setCookies, body: await res.text(), ...(location ? { location } : {}) };
    this.hops.push(hop);
    return hop;
  }

  private store(header: string, url: string): void {
    const [pair, ...attributes] = header.split(';').map((s) => s.trim());
    const eq = pair!.indexOf('=');
    const name = pair!.slice(0, eq);
    const value = pair!.slice(eq + 1);
    const attr = (key: string) => attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
    const path = attr('path') ?? (new URL(url).pathname.replace(/\/[^/]*$/, '') || '/');
    const maxAge = attr('max-age');
    const expires = attr('expires');
    const gone =
      (maxAge !== undefined && Number(maxAge) <= 0) || (expires !== undefined && Date.parse(expires) <= Date.now());
    if (gone) this.jar.delete(`${name};${path}`);
    else this.jar.set(`${name};${path}`, { value, path });
  }
}

function decodeEntities(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}
