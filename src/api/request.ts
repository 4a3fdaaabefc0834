import type { z } from 'zod';
import { type EndpointSpec, type HttpMethod, sendsIdempotencyKey } from '../contract/endpoints.js';
import { errorMessage } from '../errors/error-message.js';
import { ApiError, type ApiIssue, describeIssues, type EndpointName, toIssues } from './errors.js';
import { migrationForm } from './multipart.js';

/** A payload taken apart into the parts of a request; which parts are used depends on the endpoint. */
interface EndpointInput {
  params?: Record<string, unknown>;
  query?: unknown;
  body?: unknown;
  filePath?: unknown;
}

/** Splits a payload (see `PayloadOf`) into path parameters, query, body and file. */
function partsOf(spec: EndpointSpec, payload: unknown): EndpointInput {
  const record = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
  if ('multipart' in spec) return { filePath: record.filePath };
  if ('params' in spec) return { params: record, body: record.body, query: record.query };
  if ('body' in spec) return { body: payload };
  if ('query' in spec) return { query: payload };
  return {};
}

/** Whether a payload is the whole request: a body, with no path parameters, query or file. */
function isBodyOnly(spec: EndpointSpec): boolean {
  return 'body' in spec && !('params' in spec) && !('query' in spec) && !('multipart' in spec);
}

/** The draft's sf-string: printable ASCII without `"` and `\`, sent quoted. */
const IDEMPOTENCY_KEY = /^[\x20-\x21\x23-\x5b\x5d-\x7e]{1,255}$/;

/** A validated request, ready for fetch. */
export interface PreparedRequest {
  endpoint: EndpointName;
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  body?: string | FormData;
}

export interface RequestTarget {
  baseUrl: string;
  platform: string;
  apiKey: string;
}

function invalidRequest(endpoint: EndpointName, issues: ApiIssue[], cause?: unknown): ApiError {
  return new ApiError({
    kind: 'invalid_request',
    endpoint,
    message: `${endpoint}: invalid request, not sent: ${describeIssues(issues)}`,
    issues,
    cause,
  });
}

function prefixed(prefix: string, issues: ApiIssue[]): ApiIssue[] {
  return issues.map((issue) => ({ ...issue, path: issue.path === '(root)' ? prefix : `${prefix}.${issue.path}` }));
}

/** Validates every part first, so all problems are reported at once. */
function validateParts(spec: EndpointSpec, input: EndpointInput) {
  const issues: ApiIssue[] = [];
  const check = <T>(schema: z.ZodType<T>, value: unknown, prefix?: string): T | undefined => {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const found = toIssues(result.error);
    issues.push(...(prefix === undefined ? found : prefixed(prefix, found)));
    return undefined;
  };
  const params: Record<string, string> = {};
  for (const [name, schema] of Object.entries('params' in spec ? spec.params : {})) {
    params[name] = check(schema as z.ZodType<string>, input.params?.[name], name) ?? '';
  }
  const query = 'query' in spec ? check(spec.query as z.ZodType<object>, input.query ?? {}) : undefined;
  const body = 'body' in spec ? check(spec.body as z.ZodType, input.body) : undefined;
  if ('multipart' in spec && (typeof input.filePath !== 'string' || input.filePath === '')) {
    issues.push({ path: 'filePath', message: 'must be the path of a file' });
  }
  if (issues.length > 0) throw invalidRequest(spec.name, issues);
  return { params, query, body };
}

function buildUrl(target: RequestTarget, path: string, params: Record<string, string>, query?: object): string {
  const filled = path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const url = `${target.baseUrl}/v1/${target.platform}/${filled}`;
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) search.set(name, String(value));
  }
  const encoded = search.toString();
  return encoded === '' ? url : `${url}?${encoded}`;
}

/**
 * Turns one method call into a request. Throws an `invalid_request` {@link ApiError}
 * naming every offending field when the input breaks the contract; nothing is sent then.
 * `idempotencyKey` is sent only by operations that create something (a punishment, a ticket, a reply).
 */
export async function prepareRequest(
  spec: EndpointSpec,
  payload: unknown,
  target: RequestTarget,
  idempotencyKey?: string,
  checkedBody?: string,
): Promise<PreparedRequest> {
  if (checkedBody !== undefined && !isBodyOnly(spec)) {
    throw invalidRequest(spec.name, [
      { path: 'options.checkedBody', message: 'is only for a payload that is the body' },
    ]);
  }
  const input = partsOf(spec, payload);
  const { params, query, body } =
    checkedBody === undefined ? validateParts(spec, input) : { params: {}, query: undefined, body: undefined };
  const headers: Record<string, string> = { 'X-API-Key': target.apiKey, Accept: 'application/json' };
  if (idempotencyKey !== undefined && sendsIdempotencyKey(spec)) {
    if (!IDEMPOTENCY_KEY.test(idempotencyKey)) {
      throw invalidRequest(spec.name, [
        { path: 'options.idempotencyKey', message: 'must be 1 to 255 printable ASCII characters without " or \\' },
      ]);
    }
    headers['Idempotency-Key'] = `"${idempotencyKey}"`;
  }
  const request: PreparedRequest = {
    endpoint: spec.name,
    method: spec.method,
    url: buildUrl(target, spec.path, params, query),
    headers,
  };
  if (body !== undefined || checkedBody !== undefined) {
    headers['Content-Type'] = 'application/json';
    request.body = checkedBody ?? JSON.stringify(body);
  }
  if ('multipart' in spec) {
    const filePath = input.filePath as string;
    try {
      request.body = await migrationForm(filePath);
    } catch (error) {
      const reason = errorMessage(error);
      throw invalidRequest(spec.name, [{ path: 'filePath', message: `cannot open ${filePath}: ${reason}` }], error);
    }
  }
  return request;
}
