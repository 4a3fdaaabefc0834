import { requestFrom } from './http-from.js';

/** A page the panel answered: status, headers and HTML. */
export interface PanelPage {
  status: number;
  location: string | null;
  headers: Headers;
  html: string;
}

const CSRF_INPUT = /name="_csrf" value="([^"]+)"/;

/**
 * A browser without JavaScript for the panel: keeps cookies, follows no redirects (tests look at
 * them), and remembers the CSRF token of the last page it was shown. With `fromAddress` its
 * requests leave from that loopback address (127.x.y.z), as another client's would.
 */
export class PanelClient {
  csrfToken: string | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly fromAddress?: string,
    private readonly cookies = new Map<string, string>(),
  ) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...rest] = pair!.split('=');
      const value = rest.join('=');
      const expired = attributes.some((attribute) => /expires=Thu, 01 Jan 1970/i.test(attribute)) || value === '';
      if (expired) this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value);
    }
  }

  /** A client of another instance of the same service in this client's session (cookies and CSRF token shared). */
  sameSessionAt(baseUrl: string): PanelClient {
    const other = new PanelClient(baseUrl, this.fromAddress, this.cookies);
    other.csrfToken = this.csrfToken;
    return other;
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  /** The `Set-Cookie` lines of the last answer, whole (attributes included). */
  lastSetCookies: string[] = [];

  forgetCookies(): void {
    this.cookies.clear();
  }

  /** `form` values that are arrays are sent as repeated fields (checkboxes). */
  async request(method: string, path: string, form?: Record<string, string | string[]>): Promise<PanelPage> {
    const headers: Record<string, string> = {};
    const jar = this.cookieHeader();
    if (jar) headers.cookie = jar;
    let body: string | undefined;
    if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      const fields = new URLSearchParams();
      for (const [name, value] of Object.entries(form)) {
        for (const one of Array.isArray(value) ? value : [value]) fields.append(name, one);
      }
      body = fields.toString();
    }
    const response = this.fromAddress
      ? await this.sendFrom(this.fromAddress, method, path, headers, body)
      : await fetch(`${this.baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
    this.lastSetCookies = response.headers.getSetCookie();
    this.remember(response);
    const html = await response.text();
    const token = CSRF_INPUT.exec(html)?.[1];
    if (token) this.csrfToken = token;
    return { status: response.status, location: response.headers.get('location'), headers: response.headers, html };
  }

  private async sendFrom(
    address: string,
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<Response> {
    const answer = await requestFrom(address, `${this.baseUrl}${path}`, { method, headers, body });
    const answerHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
        answerHeaders.append(name, one);
    }
    return new Response(answer.body, { status: answer.status, headers: answerHeaders });
  }

  get(path: string): Promise<PanelPage> {
    return this.request('GET', path);
  }

  /** Posts a form with this session's CSRF token unless `_csrf` is given (or `withCsrf` is false). */
  post(path: string, form: Record<string, string | string[]> = {}, withCsrf = true): Promise<PanelPage> {
    const fields = withCsrf && this.csrfToken && !('_csrf' in form) ? { _csrf: this.csrfToken, ...form } : form;
    return this.request('POST', path, fields);
  }

  /** Logs in through the login form; the page the login answered. */
  async login(username: string, password: string): Promise<PanelPage> {
    const form = await this.get('/panel/login');
    const loginToken = /name="_login" value="([^"]+)"/.exec(form.html)?.[1] ?? '';
    const answer = await this.request('POST', '/panel/login', { _login: loginToken, username, password });
    if (answer.status === 303) await this.get('/panel/');
    return answer;
  }
}
