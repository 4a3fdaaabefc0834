import fc from 'fast-check';
import { ADMIN_TOKEN, JEB, KEY_A1, KEY_B, NOTCH } from './fixture.js';
import { HOSTILE_ROUTES, type HostileRoute } from './hostile-routes.js';

/** One request as sent: everything already text, so values JSON.stringify cannot write still go out. */
export interface HostileRequest {
  route: HostileRoute;
  method: string;
  /** Path and query, as they go on the request line. */
  target: string;
  headers: Record<string, string>;
  body?: string;
}

const BEYOND_DATE_MS = 8_640_000_000_000_001;

/** JSON text nested `depth` levels deep, written directly (JSON.stringify overflows the stack first). */
export const deepJson = (depth: number) => `${'{"a":['.repeat(depth)}0${']}'.repeat(depth)}`;

const specialFragments = [
  BEYOND_DATE_MS,
  -BEYOND_DATE_MS,
  8_640_000_000_000_000,
  2 ** 53,
  -1,
  1e308,
  '+275760-09-13T00:00:00.001Z',
  '+275760-09-13T00:00:00.000Z',
  '-271821-04-20T00:00:00.000Z',
  '2026-02-30T25:61:00Z',
  'Infinity',
  '',
  ' ',
  '\u0000',
  '../../etc/passwd',
  null,
  true,
  [],
  {},
].map((value) => JSON.stringify(value));

/** A JSON value as text: ordinary, edge-case, huge, wide, deep or poisoned. */
const jsonFragment: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
  { weight: 3, arbitrary: fc.constantFrom(...specialFragments) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map((text) => JSON.stringify(text)) },
  { weight: 1, arbitrary: fc.integer({ min: 20, max: 8000 }).map(deepJson) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 1_200_000 }).map((n) => JSON.stringify('x'.repeat(n))) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 20_000 }).map((n) => `[${'0,'.repeat(n)}0]`) },
  { weight: 1, arbitrary: fc.constantFrom('{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"x":1}}}') },
);

/** A JSON object written from `[key, JSON text]` pairs. */
const objectText = (entries: [string, string][]) =>
  `{${entries.map(([key, text]) => `${JSON.stringify(key)}:${text}`).join(',')}}`;

function jsonBody(valid: Readonly<Record<string, unknown>>): fc.Arbitrary<string> {
  const entries = Object.entries(valid).map(([key, value]): [string, string] => [key, JSON.stringify(value)]);
  const keys = entries.map(([key]) => key);
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(objectText(entries)) },
    {
      weight: 5,
      arbitrary: fc
        .tuple(fc.constantFrom(...keys), jsonFragment)
        .map(([key, text]) => objectText(entries.map(([k, v]): [string, string] => [k, k === key ? text : v]))),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(...keys).map((key) => objectText(entries.filter(([k]) => k !== key))),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.string({ maxLength: 12 }), jsonFragment)
        .map(([key, text]) => objectText([...entries, [key, text]])),
    },
    { weight: 2, arbitrary: jsonFragment },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.string({ maxLength: 80 }),
        fc.nat({ max: 40 }).map((cut) => objectText(entries).slice(0, cut)),
        fc.constant(''),
      ),
    },
  );
}

const migrationDate = fc.oneof(
  fc.maxSafeInteger(),
  fc.constantFrom(BEYOND_DATE_MS, -BEYOND_DATE_MS, 8_640_000_000_000_000, Date.UTC(2026, 0, 1)),
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  fc.string({ maxLength: 30 }),
);

const migrationFile = fc
  .record({
    players: fc.array(
      fc.record({
        minecraftUuid: fc.oneof(fc.constantFrom(NOTCH, JEB), fc.uuid(), fc.string({ maxLength: 12 })),
        usernames: fc.array(fc.record({ username: fc.string({ maxLength: 20 }), date: migrationDate }), {
          maxLength: 3,
        }),
        punishments: fc.array(
          fc.record({
            id: fc.oneof(
              fc.string({ maxLength: 12 }),
              fc.nat(),
              fc.nat({ max: 400 }).map((n) => 'i'.repeat(n)),
            ),
            typeOrdinal: fc.oneof(fc.nat({ max: 20 }), fc.integer()),
            reason: fc.string({ maxLength: 20 }),
            issued: migrationDate,
            issuerName: fc.string({ maxLength: 16 }),
            duration: fc.oneof(fc.constant(-1), fc.nat(), fc.maxSafeInteger()),
            active: fc.boolean(),
          }),
          { maxLength: 4 },
        ),
      }),
      { maxLength: 4 },
    ),
  })
  .map((file) => JSON.stringify(file));

const BOUNDARY = 'hostile-boundary';
const filePart = (field: string, content: string, eol = '\r\n') =>
  `--${BOUNDARY}${eol}Content-Disposition: form-data; name="${field}"; filename="e.json"${eol}` +
  `Content-Type: application/json${eol}${eol}${content}${eol}`;

/** A multipart upload: well-formed with a hostile file, or broken in one of the ways parsers meet. */
const multipartBody: fc.Arbitrary<{ contentType: string; body: string }> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.oneof(migrationFile, jsonFragment, fc.string({ maxLength: 60 })),
        fc.constantFrom('migrationFile', 'file'),
      )
      .map(([content, field]) => ({
        contentType: `multipart/form-data; boundary=${BOUNDARY}`,
        body: `${filePart(field, content)}--${BOUNDARY}--\r\n`,
      })),
  },
  {
    weight: 3,
    arbitrary: fc.tuple(migrationFile, fc.nat({ max: 6 }), fc.nat({ max: 200 })).map(([content, kind, cut]) => {
      const part = filePart('migrationFile', content);
      const broken = [
        part,
        `${part}--other--\r\n`,
        part.slice(0, cut),
        `${filePart('migrationFile', content, '\n')}--${BOUNDARY}--\n`,
        content,
        `${part}--${BOUNDARY}`,
        `--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\n`,
      ];
      return { contentType: `multipart/form-data; boundary=${BOUNDARY}`, body: broken[kind]! };
    }),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom('multipart/form-data', 'multipart/form-data; boundary=', 'multipart/mixed; boundary=x'),
        fc.string({ maxLength: 80 }),
      )
      .map(([contentType, body]) => ({ contentType, body })),
  },
);

const contentType = fc.oneof(
  { weight: 10, arbitrary: fc.constant('application/json') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'text/plain',
      'application/json; charset=utf-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/octet-stream',
      '',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 30 }) },
);

const pathId = (valid: readonly string[]) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...valid).map(encodeURIComponent) },
    { weight: 2, arbitrary: fc.string({ maxLength: 30 }).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.integer({ min: 100, max: 20_000 }).map((n) => 'a'.repeat(n)) },
    { weight: 1, arbitrary: fc.constantFrom('%zz', '%', '%E0%A4%A', '%00', '..', '%2e%2e', '%2F', '%C0%AF', ';', '') },
  );

function queryText(valid: Readonly<Record<string, string>> | undefined): fc.Arbitrary<string> {
  const pairs = Object.entries(valid ?? {});
  const join = (entries: [string, string][]) => entries.map(([k, v]) => `${k}=${v}`).join('&');
  const options: fc.Arbitrary<string>[] = [
    fc.constant(join(pairs.map(([k, v]) => [k, encodeURIComponent(v)]))),
    fc.string({ maxLength: 40 }).map(encodeURIComponent),
    fc.constantFrom('%zz', 'a=%', '&&&', '=', 'hours=1&hours=2', `x=${'q'.repeat(5000)}`),
  ];
  if (pairs.length > 0) {
    options.push(
      fc
        .tuple(fc.constantFrom(...pairs.map(([k]) => k)), fc.oneof(fc.string({ maxLength: 30 }), jsonFragment))
        .map(([key, value]) =>
          join(pairs.map(([k, v]) => [k, encodeURIComponent(k === key ? value.slice(0, 2000) : v)])),
        ),
    );
  }
  return fc.oneof(...options).map((query) => (query === '' ? '' : `?${query}`));
}

function authHeaders(route: HostileRoute): fc.Arbitrary<Record<string, string>> {
  if (route.auth === 'admin') {
    return fc
      .oneof(
        { weight: 8, arbitrary: fc.constant(`Bearer ${ADMIN_TOKEN}`) },
        { weight: 1, arbitrary: fc.constantFrom('', 'Bearer', 'Bearer wrong-token', `Basic ${ADMIN_TOKEN}`) },
        { weight: 1, arbitrary: fc.integer({ min: 100, max: 20_000 }).map((n) => `Bearer ${'t'.repeat(n)}`) },
      )
      .map((value): Record<string, string> => (value === '' ? {} : { authorization: value }));
  }
  return fc
    .oneof(
      { weight: 8, arbitrary: fc.constant(KEY_A1) },
      { weight: 1, arbitrary: fc.constantFrom('', 'not-a-key', KEY_B, ' ') },
      { weight: 1, arbitrary: fc.integer({ min: 100, max: 20_000 }).map((n) => 'k'.repeat(n)) },
    )
    .map((value): Record<string, string> => (value === '' ? {} : { 'x-api-key': value }));
}

const method = (route: HostileRoute) =>
  fc.oneof(
    { weight: 12, arbitrary: fc.constant(route.method) },
    { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') },
  );

const extraHeaders = fc.oneof(
  { weight: 10, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 20_000 }).map((n) => ({ 'x-junk': 'j'.repeat(n) })) },
);

/** Hostile requests for one route: its valid request with one part broken, or broken altogether. */
export function hostileRequestFor(route: HostileRoute): fc.Arbitrary<HostileRequest> {
  const body: fc.Arbitrary<{ contentType?: string; body?: string }> = route.multipart
    ? multipartBody
    : route.body
      ? fc.record({ contentType, body: jsonBody(route.body) })
      : fc.constant({});
  return fc
    .record({
      method: method(route),
      id: pathId(route.ids ?? ['x']),
      query: queryText(route.query),
      auth: authHeaders(route),
      extra: extraHeaders,
      body,
    })
    .map((parts) => {
      const headers: Record<string, string> = { ...parts.auth, ...parts.extra };
      if (parts.body.contentType) headers['content-type'] = parts.body.contentType;
      const withBody = parts.method !== 'GET' && parts.body.body !== undefined;
      return {
        route,
        method: parts.method,
        target: route.path.replace('{id}', parts.id) + parts.query,
        headers,
        ...(withBody ? { body: parts.body.body } : {}),
      };
    });
}

/** A hostile request for any route of {@link HOSTILE_ROUTES}, each route equally likely. */
export const hostileRequest: fc.Arbitrary<HostileRequest> = fc.oneof(...HOSTILE_ROUTES.map(hostileRequestFor));
