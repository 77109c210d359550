/** A cookie-keeping HTTP client for the dashboard's pages, like a browser without JavaScript. */
export class WebClient {
  readonly cookies = new Map<string, string>();

  readonly baseUrl: string;
  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(method: string, path: string, body?: Record<string, string> | string, headers: Record<string, string> = {}) {
    const h: Record<string, string> = { ...headers };
    if (this.cookies.size) h.cookie = this.cookieHeader();
    let payload: string | undefined;
    if (typeof body === 'string') payload = body;
    else if (body) {
      payload = new URLSearchParams(body).toString();
      h['content-type'] ??= 'application/x-www-form-urlencoded';
    }
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers: h, body: payload, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i);
      const value = pair!.slice(i + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  get(path: string) {
    return this.request('GET', path);
  }

  /** The CSRF token of a page (its forms' hidden `_csrf` field). */
  async csrf(path = '/login'): Promise<string> {
    const page = await this.get(path);
    const token = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1];
    if (!token) throw new Error(`no CSRF token on ${path} (${page.status})`);
    return token;
  }

  /** Posts a form the way the page would: with the page's CSRF token. */
  async submit(path: string, fields: Record<string, string>, from = '/login') {
    return this.request('POST', path, { _csrf: await this.csrf(from), ...fields });
  }

  async signUp(email: string, password: string) {
    return this.submit('/signup', { email, password }, '/signup');
  }

  async logIn(email: string, password: string) {
    return this.submit('/login', { email, password });
  }
}
