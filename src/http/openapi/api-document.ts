// What both listeners' OpenAPI documents share (docs/openapi.md): a registry the routes are described in, the error
// bodies of the catalogue (one schema per code, `{"error": code, "message"?}`, grouped by status for a route), the
// headers that matter, the two paths every front door answers (/favicon.ico, /openapi.json), and the generation of
// an OpenAPI 3.1 document from it all.
import { STATUS_CODES } from 'node:http';
import { OpenApiGeneratorV31, OpenAPIRegistry, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import type { ZodType } from 'zod';
import { VERSION } from '../../version.js';
import { ERROR_CATALOGUE, type ErrorCode } from '../error-catalogue.js';
import { FAVICON_MAX_AGE_SECONDS, FAVICON_PATH } from '../favicon.js';
import { OPENAPI_PATH } from './document-route.js';
import { z } from './openapi-zod.js';

/** The response headers the documents name, each with what it says. */
export const HEADERS = {
  'Access-Control-Allow-Origin': 'The origin allowed to read the answer: the request\'s `Origin` when it is allowed, `*` for public answers.',
  'Access-Control-Allow-Methods': 'The methods a page may use (CORS).',
  'Access-Control-Allow-Headers': 'The request headers a page may send (CORS).',
  'Access-Control-Max-Age': 'Seconds a browser may keep the preflight\'s answer.',
  Allow: 'The methods the path answers.',
  'Cache-Control': 'How long the answer may be kept.',
  ETag: 'The strong entity tag of the answer; send it back in `If-None-Match` to get a `304` while it is unchanged.',
  Location: 'Where the client is sent.',
  'Retry-After': 'Seconds to wait before the next try.',
  Vary: 'The request headers the answer depends on.',
  'WWW-Authenticate': 'How to authenticate.',
} as const;

export type HeaderName = keyof typeof HEADERS;

/** What every listener answers alike, said once in each document's description rather than on every operation. */
const EVERY_LISTENER =
  'Before any route, a request Node cannot parse is answered `400 bad_request`, headers over its limit `431 headers_too_large`, and a request that does not arrive in time `408 request_timeout` (docs/forms-api.md "Time-outs and stopping"). The /admin pages, served on one of the listeners, are for people and not an API: they are not described here (docs/openapi.md).';

/** Response headers, and whether every answer of that status carries each. */
export type ResponseHeaders = Partial<Record<HeaderName, 'required' | 'optional'>>;

export interface ErrorOptions {
  /** Headers of the error answers, by status. */
  headers?: Partial<Record<number, ResponseHeaders>>;
  /** A body beside the catalogue's for a status, with its code (`400 validation` with its `details`). */
  bodies?: Partial<Record<number, { code: string; schema: ZodType }>>;
  /** A word on a status, added to its description. */
  notes?: Partial<Record<number, string>>;
}

export interface ApiDocument {
  registry: OpenAPIRegistry;
  /**
   * The responses of `codes`, one per status, each a JSON body of the catalogue whose `error` is one of that
   * status's codes; `500 internal_error` is always among them, since the front door answers it on every route.
   */
  errors(codes: readonly ErrorCode[], options?: ErrorOptions): Record<string, ResponseConfig>;
  /** The response headers object for `headers`. */
  headers(headers: ResponseHeaders): NonNullable<ResponseConfig['headers']>;
  /** The reason phrase and `detail`, for a response's description. */
  describe(status: number, detail: string): string;
  /** The OpenAPI 3.1 document of everything registered. */
  generate(info: { title: string; description: string }): Record<string, unknown>;
}

/**
 * Where the operations are: relative to where the document was fetched, since each listener serves its own and
 * knows no address a proxy in front of it may give it (docs/openapi.md).
 */
const SERVERS = [{ url: '/', description: 'The listener that served this document.' }];

/** `paths` with `security: []` on every operation that names no scheme: it takes no credentials. */
function withSecurityStated(paths: object): object {
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(Object.entries(item as object).map(([method, operation]) => [method, typeof operation === 'object' && operation !== null && !('security' in operation) ? { ...operation, security: [] } : operation])),
    ]),
  );
}

export function createApiDocument(): ApiDocument {
  const registry = new OpenAPIRegistry();
  // One schema per set of codes a status can answer with, named after them: `Error_not_found_or_draft`.
  const errorSchemas = new Map<string, ZodType>();
  const errorSchemaOf = (codes: readonly ErrorCode[]): ZodType => {
    const name = `Error_${codes.join('_or_')}`;
    let schema = errorSchemas.get(name);
    if (schema === undefined) {
      const messages: Array<string | undefined> = codes.map((code) => ERROR_CATALOGUE[code].message);
      const fixed = messages.filter((message): message is string => message !== undefined);
      // The catalogue's message is always sent when a code has one; the others are sent without, unless a route gives one.
      const message = z.string().openapi({ description: fixed.length > 0 ? `A fixed text that never repeats the input, such as "${fixed[0]}"` : 'A fixed text that never repeats the input.' });
      const body = z.strictObject({
        error: z.enum(codes as [ErrorCode, ...ErrorCode[]]),
        message: fixed.length === codes.length ? message : message.optional(),
      });
      schema = registry.register(name, body.openapi({ description: `The error catalogue's body for ${codes.map((code) => `\`${code}\``).join(', ')}.` }));
      errorSchemas.set(name, schema);
    }
    return schema;
  };
  // Each header is described once under components/headers, as required or as optional (`<name>.optional`).
  const headerRefs = new Map<string, { $ref: string }>();
  const headerRef = (name: HeaderName, presence: 'required' | 'optional') => {
    const key = presence === 'required' ? name : `${name}.optional`;
    let ref = headerRefs.get(key);
    if (ref === undefined) {
      const schema = name === 'Retry-After' ? ({ type: 'integer', minimum: 1 } as const) : ({ type: 'string' } as const);
      ref = registry.registerComponent('headers', key, { description: HEADERS[name], required: presence === 'required', schema }).ref;
      headerRefs.set(key, ref);
    }
    return ref;
  };
  const headers = (wanted: ResponseHeaders) => Object.fromEntries((Object.entries(wanted) as Array<[HeaderName, 'required' | 'optional']>).map(([name, presence]) => [name, headerRef(name, presence)]));
  const describe = (status: number, detail: string) => `${STATUS_CODES[status] ?? status}: ${detail}`;

  const api: ApiDocument = {
    registry,
    errors(codes, options = {}) {
      const byStatus = new Map<number, ErrorCode[]>();
      for (const code of new Set<ErrorCode>([...codes, 'internal_error'])) {
        const { status } = ERROR_CATALOGUE[code];
        byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
      }
      for (const status of Object.keys(options.bodies ?? {})) if (!byStatus.has(Number(status))) byStatus.set(Number(status), []);
      const responses: Record<string, ResponseConfig> = {};
      for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
        const extra = options.bodies?.[status];
        const bodies = [...(statusCodes.length > 0 ? [errorSchemaOf(statusCodes)] : []), ...(extra ? [extra.schema] : [])];
        const named = [...statusCodes, ...(extra ? [extra.code] : [])].map((code) => `\`${code}\``).join(', ');
        const note = options.notes?.[status];
        const wanted = options.headers?.[status];
        responses[status] = {
          description: describe(status, `${named}${note ? ` (${note})` : ''}.`),
          ...(wanted && Object.keys(wanted).length > 0 ? { headers: headers(wanted) } : {}),
          content: { 'application/json': { schema: bodies.length === 1 ? bodies[0]! : z.union(bodies as [ZodType, ZodType, ...ZodType[]]) } },
        };
      }
      return responses;
    },
    headers,
    describe,
    generate(info) {
      const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
        openapi: '3.1.1',
        info: { title: info.title, version: VERSION, description: `${info.description} ${EVERY_LISTENER}` },
      });
      // The generator adds empty sections for what these documents never have.
      const { webhooks: _webhooks, components = {}, paths = {}, ...rest } = document;
      const used = Object.fromEntries(Object.entries(components).filter(([, section]) => Object.keys(section as object).length > 0));
      return { ...rest, servers: SERVERS, paths: withSecurityStated(paths), components: used };
    },
  };
  registerListenerPaths(api);
  return api;
}

/** /favicon.ico and /openapi.json, which every front door answers. */
function registerListenerPaths(api: ApiDocument): void {
  const ifNoneMatch = z.object({ 'If-None-Match': z.string().optional().openapi({ description: 'An entity tag of an earlier answer.' }) });
  const icon = {
    description: api.describe(200, `a 16 x 16 icon, cached for ${FAVICON_MAX_AGE_SECONDS} seconds.`),
    headers: api.headers({ 'Cache-Control': 'required', 'Access-Control-Allow-Origin': 'required' }),
    content: { 'image/x-icon': { schema: { type: 'string' as const, contentMediaType: 'image/x-icon', description: 'The icon\'s bytes.' } } },
  };
  for (const method of ['get', 'head'] as const) {
    api.registry.registerPath({
      method,
      path: FAVICON_PATH,
      operationId: `${method}Favicon`,
      summary: 'The site icon browsers ask every origin for',
      tags: ['service'],
      responses: { 200: method === 'get' ? icon : { ...icon, content: undefined }, ...api.errors([]) },
    });
  }
  const document = {
    description: api.describe(200, 'this document.'),
    headers: api.headers({ ETag: 'required', 'Cache-Control': 'required', 'Access-Control-Allow-Origin': 'required' }),
    content: { 'application/json': { schema: z.object({ openapi: z.string() }).openapi({ description: 'An OpenAPI 3.1 document.' }) } },
  };
  for (const method of ['get', 'head'] as const) {
    api.registry.registerPath({
      method,
      path: OPENAPI_PATH,
      operationId: `${method}OpenApi`,
      summary: 'The OpenAPI document of this listener (docs/openapi.md)',
      tags: ['service'],
      request: { headers: ifNoneMatch },
      responses: {
        200: method === 'get' ? document : { ...document, content: undefined },
        304: { description: api.describe(304, 'the document is the one the client holds.'), headers: api.headers({ ETag: 'required', 'Cache-Control': 'required' }) },
        ...api.errors([]),
      },
    });
  }
}
