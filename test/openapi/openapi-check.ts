// Reading an OpenAPI 3.1 document the way a client and a validator would (docs/openapi.md), for the tests of
// test/openapi/: a structural check of the document (the parts OpenAPI 3.1 requires, every $ref resolving, every
// schema compiling in Ajv's JSON Schema 2020-12 mode with the standard formats), and a checker that finds the
// operation a request went to and says whether its answer (status, required headers, content type, JSON body) is
// one the document describes.
import Ajv2020Module, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// CommonJS packages: their default export is the module object under tsx's interop.
const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;
const addFormats = addFormatsModule.default ?? addFormatsModule;
type Ajv = InstanceType<typeof Ajv2020>;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, JsonObject>>;
  components?: Record<string, Record<string, JsonObject>>;
}

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Where component schemas are found once their references are rewritten for Ajv. */
const SCHEMA_BASE = 'https://postbox.test/components/schemas/';

/** The value a local reference (`#/components/...`) points to, or undefined. */
export function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** `value`, or what it references. */
export function deref<T = JsonObject>(document: unknown, value: unknown): T {
  if (value !== null && typeof value === 'object' && typeof (value as { $ref?: unknown }).$ref === 'string') {
    return resolvePointer(document, (value as { $ref: string }).$ref) as T;
  }
  return value as T;
}

/** Every `$ref` in `value`, with where it is. */
function referencesIn(value: unknown, at = '#'): Array<{ ref: string; at: string }> {
  if (value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap((item, index) => referencesIn(item, `${at}/${index}`));
  return Object.entries(value).flatMap(([key, item]) =>
    key === '$ref' && typeof item === 'string' ? [{ ref: item, at }] : referencesIn(item, `${at}/${key}`),
  );
}

/** `schema` with its references to component schemas made absolute, for Ajv. */
function forAjv(schema: unknown): unknown {
  if (schema === null || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map(forAjv);
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/') ? `${SCHEMA_BASE}${value.slice('#/components/schemas/'.length)}` : forAjv(value),
    ]),
  );
}

/**
 * Ajv in JSON Schema 2020-12 mode, strict, with the standard formats and the document's component schemas; a
 * component schema Ajv refuses is left out and told to `refused`, else thrown.
 */
function createAjv(document: OpenApiDocument, refused?: (name: string, error: Error) => void): Ajv {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
    try {
      ajv.addSchema(forAjv(schema) as object, `${SCHEMA_BASE}${name}`);
    } catch (error) {
      if (!refused) throw error;
      refused(name, error as Error);
    }
  }
  return ajv;
}

/** Every schema of the document's operations, with where it is: parameters, request bodies, response headers and bodies. */
function operationSchemas(document: OpenApiDocument): Array<{ at: string; schema: unknown }> {
  const found: Array<{ at: string; schema: unknown }> = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const at = `${method.toUpperCase()} ${path}`;
      for (const parameter of (operation.parameters as Json[] | undefined) ?? []) {
        const resolved = deref(document, parameter);
        found.push({ at: `${at} parameter ${String(resolved.name)}`, schema: resolved.schema });
      }
      const body = deref(document, operation.requestBody);
      for (const [media, content] of Object.entries((body?.content as JsonObject | undefined) ?? {})) found.push({ at: `${at} request ${media}`, schema: (content as JsonObject).schema });
      for (const [status, response] of Object.entries((operation.responses as JsonObject | undefined) ?? {})) {
        const resolved = deref(document, response);
        for (const [name, header] of Object.entries((resolved?.headers as JsonObject | undefined) ?? {})) found.push({ at: `${at} ${status} header ${name}`, schema: deref(document, header)?.schema });
        for (const [media, content] of Object.entries((resolved?.content as JsonObject | undefined) ?? {})) found.push({ at: `${at} ${status} ${media}`, schema: (content as JsonObject).schema });
      }
    }
  }
  return found;
}

/**
 * What is wrong with `document` as an OpenAPI 3.1 document: a minimal structural check of what the specification
 * requires (there is no OpenAPI meta-schema at hand), every reference resolving, and every schema compiling.
 */
export function documentProblems(document: OpenApiDocument): string[] {
  const problems: string[] = [];
  if (typeof document.openapi !== 'string' || !document.openapi.startsWith('3.1')) problems.push(`openapi is ${String(document.openapi)}, not 3.1.x`);
  if (typeof document.info?.title !== 'string' || typeof document.info?.version !== 'string') problems.push('info needs a title and a version');
  if (document.paths === null || typeof document.paths !== 'object') return [...problems, 'no paths'];
  for (const { ref, at } of referencesIn(document)) if (resolvePointer(document, ref) === undefined) problems.push(`${at}: $ref ${ref} resolves to nothing`);
  const operationIds = new Set<string>();
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith('/')) problems.push(`path ${path} does not start with /`);
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
    for (const key of Object.keys(item)) if (!METHODS.includes(key) && !['summary', 'description', 'parameters', 'servers'].includes(key)) problems.push(`${path}: unknown key ${key}`);
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const at = `${method.toUpperCase()} ${path}`;
      if (typeof operation.operationId === 'string') {
        if (operationIds.has(operation.operationId)) problems.push(`${at}: operationId ${operation.operationId} is used twice`);
        operationIds.add(operation.operationId);
      }
      const parameters = ((operation.parameters as Json[] | undefined) ?? []).map((parameter) => deref(document, parameter));
      for (const parameter of parameters) {
        if (typeof parameter.name !== 'string' || !['query', 'header', 'path', 'cookie'].includes(String(parameter.in))) problems.push(`${at}: a parameter needs a name and an in`);
        if (parameter.in === 'path' && (parameter.required !== true || !templated.includes(String(parameter.name)))) problems.push(`${at}: path parameter ${String(parameter.name)} must be required and in the path`);
        if (parameter.in === 'header' && ['accept', 'content-type', 'authorization'].includes(String(parameter.name).toLowerCase())) problems.push(`${at}: header parameter ${String(parameter.name)} is ignored by OpenAPI`);
      }
      for (const name of templated) if (!parameters.some((parameter) => parameter.in === 'path' && parameter.name === name)) problems.push(`${at}: {${name}} is not a declared path parameter`);
      const responses = operation.responses as JsonObject | undefined;
      if (!responses || Object.keys(responses).length === 0) problems.push(`${at}: no responses`);
      for (const [status, response] of Object.entries(responses ?? {})) {
        if (!/^([1-5]\d\d|[1-5]XX|default)$/.test(status)) problems.push(`${at}: response key ${status}`);
        const resolved = deref(document, response);
        if (typeof resolved?.description !== 'string') problems.push(`${at} ${status}: a response needs a description`);
        for (const [name, header] of Object.entries((resolved?.headers as JsonObject | undefined) ?? {})) {
          if (deref(document, header)?.schema === undefined) problems.push(`${at} ${status}: header ${name} has no schema`);
        }
      }
    }
  }
  const ajv = createAjv(document, (name, error) => problems.push(`components/schemas/${name}: ${error.message}`));
  for (const name of Object.keys(document.components?.schemas ?? {})) {
    try {
      ajv.getSchema(`${SCHEMA_BASE}${name}`);
    } catch (error) {
      problems.push(`components/schemas/${name}: ${(error as Error).message}`);
    }
  }
  for (const { at, schema } of operationSchemas(document)) {
    if (schema === undefined) continue;
    try {
      ajv.compile(forAjv(schema) as object);
    } catch (error) {
      problems.push(`${at}: ${(error as Error).message}`);
    }
  }
  return problems;
}

/** An answer as a test saw it. */
export interface SeenAnswer {
  method: string;
  /** The request target; its query is ignored. */
  url: string;
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

export interface AnswerChecker {
  /** The documented path an URL falls under (exact paths before templated ones), or undefined. */
  pathOf(url: string): string | undefined;
  /** What does not match the document in `answer`; empty when it is a described answer. */
  problems(answer: SeenAnswer): string[];
  /** What does not match the document's request body schema of `method url` for `mediaType`. */
  requestProblems(method: string, url: string, mediaType: string, body: unknown): string[];
  /** The operations answered so far, as `METHOD path`. */
  answered: Set<string>;
}

export function createAnswerChecker(document: OpenApiDocument): AnswerChecker {
  const ajv = createAjv(document);
  const compiled = new Map<unknown, ValidateFunction>();
  const validatorOf = (schema: unknown) => {
    let validate = compiled.get(schema);
    if (!validate) compiled.set(schema, (validate = ajv.compile(forAjv(schema) as object)));
    return validate;
  };
  const exact = Object.keys(document.paths).filter((path) => !path.includes('{'));
  const templates = Object.keys(document.paths)
    .filter((path) => path.includes('{'))
    .sort((a, b) => b.indexOf('{') - a.indexOf('{') || b.length - a.length)
    .map((path) => ({ path, pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`) }));
  const pathOf = (url: string) => {
    const raw = url.split('?')[0]!;
    let path = raw;
    try {
      path = decodeURI(raw);
    } catch {
      // A malformed encoding: the raw path still names the documented one it was sent to.
    }
    return exact.find((candidate) => candidate === path) ?? templates.find((template) => template.pattern.test(path))?.path;
  };
  const answered = new Set<string>();
  const operationOf = (method: string, url: string) => {
    const path = pathOf(url);
    return { path, operation: path === undefined ? undefined : document.paths[path]![method.toLowerCase()] };
  };
  return {
    pathOf,
    answered,
    problems(answer) {
      const { path, operation } = operationOf(answer.method, answer.url);
      const what = `${answer.method} ${answer.url} -> ${answer.status}`;
      if (path === undefined) return [`${what}: no documented path`];
      if (!operation) return [`${what}: ${answer.method} ${path} is not documented`];
      answered.add(`${answer.method.toUpperCase()} ${path}`);
      const responses = operation.responses as JsonObject;
      const response = deref(document, responses[String(answer.status)] ?? responses[`${String(answer.status)[0]}XX`] ?? responses.default);
      if (!response) return [`${what}: status ${answer.status} is not documented (${Object.keys(responses).join(', ')})`];
      const problems: string[] = [];
      const headerOf = (name: string) => answer.headers[name.toLowerCase()];
      for (const [name, header] of Object.entries((response.headers as JsonObject | undefined) ?? {})) {
        const resolved = deref(document, header);
        const value = headerOf(name);
        if (resolved.required === true && value === undefined) problems.push(`${what}: header ${name} is missing`);
        if (value !== undefined && !validatorOf(resolved.schema)((resolved.schema as JsonObject).type === 'integer' ? Number(value) : String(value))) problems.push(`${what}: header ${name} ${String(value)} does not match`);
      }
      const content = response.content as JsonObject | undefined;
      const contentType = headerOf('content-type');
      if (!content) {
        if (answer.body !== '') problems.push(`${what}: a body where the document describes none`);
        return problems;
      }
      if (answer.method.toUpperCase() === 'HEAD') return problems;
      const media = String(contentType ?? '').split(';')[0]!.trim().toLowerCase();
      const key = Object.keys(content).find((candidate) => candidate === media || (candidate.endsWith('/*') && media.startsWith(candidate.slice(0, -1))));
      if (key === undefined) return [...problems, `${what}: content type ${String(contentType)} is not one of ${Object.keys(content).join(', ')}`];
      if (media === 'application/json' || media.endsWith('+json')) {
        let body: unknown;
        try {
          body = JSON.parse(answer.body);
        } catch {
          return [...problems, `${what}: the body is not JSON`];
        }
        const validate = validatorOf((content[key] as JsonObject).schema);
        if (!validate(body)) problems.push(`${what}: ${ajv.errorsText(validate.errors)} in ${answer.body.slice(0, 300)}`);
      }
      return problems;
    },
    requestProblems(method, url, mediaType, body) {
      const { operation } = operationOf(method, url);
      const content = deref(document, operation?.requestBody)?.content as JsonObject | undefined;
      const media = content?.[mediaType] as JsonObject | undefined;
      if (!media) return [`${method} ${url}: no ${mediaType} request body documented`];
      const validate = validatorOf(media.schema);
      return validate(body) ? [] : [ajv.errorsText(validate.errors)];
    },
  };
}
