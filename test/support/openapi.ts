/**
 * Checks of real responses against the OpenAPI description that the server gives: that the
 * operation exists, that the status is described, that the content type is one the description
 * names for it (or that there is no body where it names none), and that a JSON body matches the
 * schema given for that status and media type, $refs into components resolved.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { ApiResponse } from './http.js';

type Json = Record<string, any>;

export interface Operation {
  method: string;
  path: string;
  op: Json;
}

/** `/oscal/v1/{model}/{id}` as a pattern; literal segments count for preferring one template over another. */
function templatePattern(template: string): { re: RegExp; literal: number } {
  const trimmed = template.length > 1 ? template.replace(/\/$/, '') : template;
  const source = trimmed
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return { re: new RegExp(`^${source}/?$`), literal: trimmed.replace(/\{[^}]+\}/g, '').length };
}

/** Every method and path fastify routes, from printRoutes({ commonPrefix: false }); HEAD aside (fastify adds it to each GET). */
export function routesFromTree(printed: string): { method: string; path: string }[] {
  const routes: { method: string; path: string }[] = [];
  const stack: string[] = [];
  for (const line of printed.split('\n')) {
    const at = line.indexOf('── ');
    if (at < 0) continue;
    const depth = (at - 1) / 4;
    const match = /^(.*?)(?: \(([^)]*)\))?$/.exec(line.slice(at + 3).trimEnd())!;
    const path = (depth === 0 ? '' : stack[depth - 1]!) + match[1]!;
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of (match[2] ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean)) {
      if (method !== 'HEAD') routes.push({ method, path });
    }
  }
  return routes;
}

/** A fastify path (`/:model/:id`) as OpenAPI writes it (`/{model}/{id}`). */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

export class ResponseChecker {
  private readonly ajv: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly operations: (Operation & { re: RegExp; literal: number })[] = [];
  /** `GET /oscal/v1/{model}` → the statuses seen. */
  readonly seen = new Map<string, Set<number>>();
  checked = 0;

  constructor(readonly document: Json) {
    this.ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(this.ajv);
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema({ $id: 'openapi.json', components: document.components });
    for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
      for (const [method, op] of Object.entries(item)) {
        this.operations.push({ method: method.toUpperCase(), path, op, ...templatePattern(path) });
      }
    }
    this.operations.sort((a, b) => b.literal - a.literal);
  }

  /** The operations of the description, as `METHOD /path`. */
  operationKeys(): string[] {
    return this.operations.map((o) => `${o.method} ${o.path}`);
  }

  /** The operation a request goes to: the most literal template that matches the path. */
  operation(method: string, url: string): Operation | undefined {
    const path = url.split('?')[0]!;
    return this.operations.find((o) => o.method === method && o.re.test(path));
  }

  /** A schema of the description, its refs pointing into the description's components. */
  validator(schema: Json, key: string): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      const rewritten = JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi.json#/components/'));
      validate = this.ajv.compile(rewritten);
      this.compiled.set(key, validate);
    }
    return validate;
  }

  /** Problems of one response against the description; none when it is as described. */
  problems(method: string, url: string, res: ApiResponse): string[] {
    const found = this.operation(method, url);
    if (!found) return [`no operation in the description for ${method} ${url}`];
    const key = `${found.method} ${found.path}`;
    this.checked++;
    if (!this.seen.has(key)) this.seen.set(key, new Set());
    this.seen.get(key)!.add(res.status);
    const responses = found.op.responses as Record<string, Json>;
    const described = responses[String(res.status)] ?? responses[`${String(res.status)[0]}XX`] ?? responses.default;
    if (!described)
      return [
        `${key}: status ${res.status} is not described (described: ${Object.keys(responses).join(', ')}); body ${res.text.slice(0, 200)}`,
      ];
    const content = described.content as Record<string, Json> | undefined;
    const type = String(res.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    if (!content) {
      return res.body.length === 0
        ? []
        : [
            `${key} ${res.status}: the description names no content, but the response has ${res.body.length} bytes of ${type}`,
          ];
    }
    const media = content[type] ?? content[`${type.split('/')[0]}/*`] ?? content['*/*'];
    if (!media) return [`${key} ${res.status}: content type "${type}" is not among ${Object.keys(content).join(', ')}`];
    if (!/^application\/(?:[\w.-]+\+)?json$/.test(type)) return [];
    let body: unknown;
    try {
      body = JSON.parse(res.text);
    } catch {
      return [`${key} ${res.status}: the ${type} body is not JSON: ${res.text.slice(0, 200)}`];
    }
    const validate = this.validator(media.schema as Json, `${key} ${res.status} ${type}`);
    if (validate(body)) return [];
    return [
      `${key} ${res.status} ${type}: the body does not match the schema: ${this.ajv.errorsText(validate.errors)}; body ${res.text.slice(0, 300)}`,
    ];
  }
}
