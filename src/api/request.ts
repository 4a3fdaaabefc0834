import type { z } from 'zod';
import type { EndpointSpec, HttpMethod } from './endpoints.js';
import { ApiError, type ApiIssue, describeIssues, type EndpointName, toIssues } from './errors.js';
import { migrationForm } from './multipart.js';

/** What a method hands over for one call; which parts are used depends on the endpoint. */
export interface EndpointInput {
  params?: Record<string, unknown>;
  query?: unknown;
  body?: unknown;
  filePath?: unknown;
}

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
function validateParts<Result>(spec: EndpointSpec<Result>, input: EndpointInput) {
  const issues: ApiIssue[] = [];
  const check = <T>(schema: z.ZodType<T>, value: unknown, prefix?: string): T | undefined => {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const found = toIssues(result.error);
    issues.push(...(prefix === undefined ? found : prefixed(prefix, found)));
    return undefined;
  };
  const params: Record<string, string> = {};
  for (const [name, schema] of Object.entries(spec.params ?? {})) {
    params[name] = check(schema, input.params?.[name], name) ?? '';
  }
  const query = spec.query === undefined ? undefined : check(spec.query, input.query ?? {});
  const body = spec.body === undefined ? undefined : check(spec.body, input.body);
  if (spec.multipart && (typeof input.filePath !== 'string' || input.filePath === '')) {
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
 */
export async function prepareRequest<Result>(
  spec: EndpointSpec<Result>,
  input: EndpointInput,
  target: RequestTarget,
): Promise<PreparedRequest> {
  const { params, query, body } = validateParts(spec, input);
  const headers: Record<string, string> = { 'X-API-Key': target.apiKey, Accept: 'application/json' };
  const request: PreparedRequest = {
    endpoint: spec.name,
    method: spec.method,
    url: buildUrl(target, spec.path, params, query),
    headers,
  };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    request.body = JSON.stringify(body);
  }
  if (spec.multipart) {
    const filePath = input.filePath as string;
    try {
      request.body = await migrationForm(filePath);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw invalidRequest(spec.name, [{ path: 'filePath', message: `cannot open ${filePath}: ${reason}` }], error);
    }
  }
  return request;
}
