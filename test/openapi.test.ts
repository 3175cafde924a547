/**
 * The OpenAPI description (/openapi.json): a valid OpenAPI 3.0 document (swagger-parser, offline);
 * every route fastify registers described with a summary, a tag and its responses, the registry's
 * public reads without security; and real responses of every operation, successes and the main
 * refusals, each checked against what the description says of its status: a status it does not
 * describe, a content type it does not name, or a JSON body its schema refuses fails the test.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { buildApp } from '../src/http/app.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { catalogXml } from './support/documents.js';
import { api, type ApiRequest, type ApiResponse } from './support/http.js';
import { stopWithin } from './support/lifecycle.js';
import { openApiPath, ResponseChecker, routesFromTree } from './support/openapi.js';
import { createTokenFor, freePort, newDataDir, TestServer } from './support/server.js';
import { PROJECT_ROOT } from './support/shared.js';

type Json = Record<string, any>;

const CONTENT_UUID_SCHEME = 'http://oscal.io/oscal/identifier/contentuuid';
const SET_XML = readFileSync(join(PROJECT_ROOT, 'test', 'fixtures', 'constraints', 'common-rules.xml'), 'utf8');

let main: TestServer;
let signIn: TestServer;
let admin: string;
let writer: string;
let reader: string;
let description: Json;
let signInDescription: Json;

before(async () => {
  const dataDir = newDataDir();
  writer = createTokenFor(dataDir, 'wendy', 'writer');
  reader = createTokenFor(dataDir, 'rita', 'reader');
  admin = createTokenFor(dataDir, 'ada', 'admin');
  // No worker, and a small limit for renditions made within the write: a larger document's XML is a job that stays queued (202).
  const deadIssuer = `http://127.0.0.1:${await freePort()}/`;
  [main, signIn] = await Promise.all([
    TestServer.start({ dataDir, args: ['--workers', '0', '--inline-renditions', '4kb', '--auth-failure-limit', '0'] }),
    TestServer.start({
      args: [
        '--oidc-issuer',
        deadIssuer,
        '--oidc-client-id',
        'depot',
        '--inline-renditions',
        '4kb',
        '--auth-failure-limit',
        '3',
      ],
    }),
  ]);
  description = (await api(main.url, 'GET', '/openapi.json')).json();
  signInDescription = (await api(signIn.url, 'GET', '/openapi.json')).json();
});

after(async () => {
  await Promise.all([stopWithin(main), stopWithin(signIn)]);
});

function metadata(title: string, uuid: string): Json {
  return {
    title,
    'last-modified': '2024-01-01T00:00:00Z',
    version: '1',
    'oscal-version': '1.1.2',
    'document-ids': [{ scheme: CONTENT_UUID_SCHEME, identifier: uuid }],
  };
}

function catalog(title: string, uuid = randomUUID(), controls = 2): Json {
  return {
    catalog: {
      uuid,
      metadata: metadata(title, uuid),
      controls: Array.from({ length: controls }, (_, i) => ({
        id: `ac-${i + 1}`,
        title: `Control ${i + 1}`,
        parts: [{ id: `ac-${i + 1}_smt`, name: 'statement', prose: `The statement of control ${i + 1}.` }],
      })),
    },
  };
}

function profileYaml(title: string, uuid: string, catalogId: string): string {
  return `profile:
  uuid: ${uuid}
  metadata:
    title: ${title}
    last-modified: 2024-01-01T00:00:00Z
    version: "1"
    oscal-version: 1.1.2
    document-ids:
      - scheme: ${CONTENT_UUID_SCHEME}
        identifier: ${uuid}
  imports:
    - href: ../catalog/${catalogId}
      include-controls:
        - with-ids: [ac-1, ac-2, ac-9]
`;
}

const asJson = (doc: unknown, token?: string, extra: ApiRequest = {}): ApiRequest => ({
  ...(token ? { token } : {}),
  body: JSON.stringify(doc, null, 2),
  contentType: 'application/json',
  ...extra,
});

function multipart(filename: string, type: string, content: string): { body: Buffer; contentType: string } {
  const boundary = `----oscal-depot-${randomUUID()}`;
  const body = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n${content}\r\n--${boundary}--\r\n`,
  );
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('the description', () => {
  test('is a valid OpenAPI 3.0 document, with and without web sign-in, and its examples match their schemas', async () => {
    for (const doc of [description, signInDescription]) {
      assert.match(doc.openapi, /^3\.0\./);
      // swagger-parser validates against the OpenAPI 3.0 schema and the spec's own rules; it dereferences in place, hence the copy.
      await SwaggerParser.validate(structuredClone(doc) as never, { resolve: { external: false } } as never);
      const checker = new ResponseChecker(doc);
      const problems: string[] = [];
      for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, Json>)) {
        if (schema.example === undefined) continue;
        const validate = checker.validator({ $ref: `#/components/schemas/${name}` }, `example ${name}`);
        if (!validate(schema.example)) problems.push(`the example of ${name}: ${JSON.stringify(validate.errors)}`);
      }
      for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
        for (const [method, op] of Object.entries(item)) {
          for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
            for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, Json>)) {
              if (media.example === undefined) continue;
              const validate = checker.validator(media.schema, `example ${method} ${path} ${status} ${type}`);
              if (!validate(media.example))
                problems.push(`the example of ${method} ${path} ${status} ${type}: ${JSON.stringify(validate.errors)}`);
            }
          }
        }
      }
      assert.deepEqual(problems, []);
    }
    assert.deepEqual(Object.keys(description.components.securitySchemes), ['bearer']);
    assert.deepEqual(Object.keys(signInDescription.components.securitySchemes), ['bearer', 'appSession']);
  });

  test('every route fastify registers has an operation with a summary, a declared tag and described responses; public reads ask no credentials', async () => {
    // The app in process, with sign-in configured (its routes exist only then): what fastify routes, from its own tree.
    const app = await buildApp({
      store: new SqliteStore(':memory:'),
      publicUrl: 'http://127.0.0.1:1',
      maxBody: 1 << 20,
      maxAttachment: 1 << 20,
      tokenCacheMs: 0,
      imports: { importMap: new Map(), allowHosts: new Set() },
      defaultVisibility: 'private',
      inlineRenditionLimit: 1 << 20,
      rejectLevel: 'ERROR',
      logger: false,
      timeouts: { requestMs: 5000, headersMs: 5000 },
      authFailures: { limit: 0, windowMs: 60_000 },
      corsOrigins: [],
      signIn: {
        issuer: new URL(`http://127.0.0.1:${await freePort()}/`),
        clientId: 'depot',
        audience: 'depot',
        usernameClaim: 'sub',
        rolesClaim: 'roles',
        groupsClaim: 'groups',
        scopes: 'openid',
        publicUrl: 'http://127.0.0.1:1',
        sessionSecret: 'x'.repeat(40),
        sessionLifetimeSeconds: 3600,
      },
    });
    try {
      await app.ready();
      const doc = app.swagger() as Json;
      const routes = routesFromTree(app.printRoutes({ commonPrefix: false }));
      assert.ok(routes.length > 50, `routes found: ${routes.length}`);
      // Left out on purpose: the HTML page at / (docs/decisions/0068-openapi-description.md), Swagger UI's
      // own files under /docs, and the web interface's pages and assets, which answer HTML, not the API's JSON.
      // Fastify routes a prefix's '/' both with and without the slash: one operation.
      const unique = new Map(routes.map((r) => [`${r.method} ${r.path.replace(/(.)\/$/, '$1')}`, r]));
      const WEB = /^\/(?:assets|browse|documents|search|sign-in|sign-out|upload)(?:\/|$)/;
      const described = [...unique.values()].filter(
        (r) => r.path !== '/' && r.path !== '/docs' && !r.path.startsWith('/docs/') && !WEB.test(r.path),
      );
      const declaredTags = new Set((doc.tags as Json[]).map((t) => t.name));
      const problems: string[] = [];
      const operationIds = new Set<string>();
      for (const { method, path } of described) {
        const template = openApiPath(path);
        const op = (doc.paths[template] ?? doc.paths[`${template}/`])?.[method.toLowerCase()];
        if (!op) {
          problems.push(`${method} ${path} is not described`);
          continue;
        }
        if (!op.summary) problems.push(`${method} ${path} has no summary`);
        if (!op.tags?.length || !op.tags.every((t: string) => declaredTags.has(t)))
          problems.push(`${method} ${path} has no declared tag: ${op.tags}`);
        const responses = Object.entries(op.responses as Record<string, Json>);
        if (!responses.some(([status, r]) => status !== 'default' && r.description !== 'Default Response'))
          problems.push(`${method} ${path} has only the default response`);
        if (!responses.some(([status]) => /^[23]/.test(status)))
          problems.push(`${method} ${path} describes no success`);
        for (const [status, r] of responses) {
          if (
            Number(status) >= 400 &&
            r.content?.['application/json']?.schema?.$ref !== '#/components/schemas/Error' &&
            !(path === '/readyz' && status === '503')
          ) {
            problems.push(`${method} ${path} ${status} is not the error object`);
          }
        }
        if (!Array.isArray(op.security)) problems.push(`${method} ${path} says nothing of security`);
        if (operationIds.has(op.operationId)) problems.push(`${method} ${path}: operationId ${op.operationId} twice`);
        operationIds.add(op.operationId);
      }
      assert.deepEqual(problems, []);
      // And nothing is described that fastify does not route.
      const routed = new Set(described.map((r) => `${r.method} ${openApiPath(r.path).replace(/(.)\/$/, '$1')}`));
      for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
        for (const method of Object.keys(item))
          assert.ok(
            routed.has(`${method.toUpperCase()} ${path.replace(/(.)\/$/, '$1')}`),
            `${method} ${path} is routed`,
          );
      }

      const publicReads = [
        '/api/v1/',
        '/api/v1/{plural}',
        '/api/v1/{plural}/{id}',
        '/api/v1/{plural}/{id}/versions/{version}',
        '/oscal/v1/',
        '/healthz',
        '/readyz',
        '/openapi.json',
        '/auth/login',
      ];
      for (const path of publicReads)
        assert.deepEqual(doc.paths[path].get.security, [], `GET ${path} asks no credentials`);
      assert.deepEqual(
        doc.paths['/api/v1/{plural}/{id}'].put.security,
        [{ bearer: [] }, { appSession: [] }],
        'registry writes need a token or a session',
      );
      assert.deepEqual(
        doc.paths['/oscal/v1/{model}/{id}'].get.security,
        [{ bearer: [] }, { appSession: [] }, {}],
        'generic reads take credentials and go without',
      );
      assert.deepEqual(
        doc.paths['/api/v1/{plural}/{id}/versions'].get.security,
        [{ bearer: [] }, { appSession: [] }],
        'the version list is for owners and admins',
      );
    } finally {
      await app.close();
    }
  });

  test('bodies and media types: OSCAL content in three formats, files as multipart or raw bytes, settings as JSON, optional where they are', () => {
    const p = description.paths;
    const types = (op: Json) => Object.keys(op.requestBody?.content ?? {}).sort();
    assert.deepEqual(types(p['/oscal/v1/{model}'].post), ['application/json', 'application/xml', 'application/yaml']);
    assert.deepEqual(types(p['/oscal/v1/{model}/{id}'].put), [
      'application/json',
      'application/xml',
      'application/yaml',
    ]);
    assert.deepEqual(types(p['/oscal/v1/validate'].post), ['application/json', 'application/xml', 'application/yaml']);
    assert.deepEqual(types(p['/oscal/v1/{model}/{id}/attachment'].post), ['*/*', 'multipart/form-data']);
    assert.deepEqual(types(p['/api/upload'].post), ['application/json', 'multipart/form-data']);
    assert.deepEqual(types(p['/oscal/v1/{model}/{id}/access'].put), ['application/json']);
    assert.deepEqual(types(p['/oscal/v1/constraint-set/{name}'].put), ['application/xml']);
    assert.equal(p['/oscal/v1/{model}/{id}/snapshot'].post.requestBody.required, false);
    assert.equal(p['/oscal/v1/{model}'].post.requestBody.required, true);
    assert.ok(
      p['/oscal/v1/{model}'].post.parameters.some((q: Json) => q.in === 'query' && q.name === 'alias'),
      '?alias= is described',
    );
    // ?keep-findings= on every write of content, ?valid= on both lists, and the mark in the answers.
    const query = (op: Json) =>
      (op.parameters as Json[]).filter((q) => q.in === 'query').map((q) => [q.name, q.schema?.type]);
    for (const [path, method] of [
      ['/oscal/v1/{model}', 'post'],
      ['/oscal/v1/{model}/{id}', 'put'],
      ['/api/v1/{plural}/{id}', 'put'],
      ['/api/upload', 'post'],
    ] as const)
      assert.ok(
        query(p[path][method]).some(([name, type]) => name === 'keep-findings' && type === 'boolean'),
        `${method} ${path} describes ?keep-findings=`,
      );
    for (const path of ['/oscal/v1/{model}', '/api/v1/{plural}'])
      assert.ok(
        query(p[path].get).some(([name, type]) => name === 'valid' && type === 'boolean'),
        `${path} describes ?valid=`,
      );
    const schemas = description.components.schemas;
    assert.ok(schemas.ContentListItem.required.includes('valid'));
    assert.ok(schemas.RegistryVersion.required.includes('valid'));
    assert.ok(schemas.StoredValidationReport.required.includes('valid-when-stored'));
    assert.ok(
      p['/api/upload'].post.requestBody.content['multipart/form-data'].schema.properties['keep-findings'],
      'the form field of the multipart upload',
    );
    assert.deepEqual(Object.keys(p['/oscal/v1/{model}/{id}'].get.responses['200'].content), [
      'application/json',
      'application/xml',
      'application/yaml',
    ]);
    assert.deepEqual(Object.keys(p['/oscal/v1/validate'].post.responses['200'].content), [
      'application/json',
      'application/sarif+json',
    ]);
    assert.ok(description.components.schemas.Error.example, 'the error object has an example');
    assert.ok(description.components.schemas.ContentList.example, 'the list wrapper has an example');
  });
});

test('every operation answers as described: real requests, successes and refusals, checked against the description', async () => {
  const started = Date.now();
  const checker = new ResponseChecker(description);
  const signInChecker = new ResponseChecker(signInDescription);
  const failures: string[] = [];
  let requests = 0;
  async function call(
    server: TestServer,
    method: string,
    path: string,
    options: ApiRequest,
    expect: number,
    on = checker,
  ): Promise<ApiResponse> {
    const res = await api(server.url, method, path, options);
    requests++;
    failures.push(...on.problems(method, path, res));
    if (res.status !== expect)
      failures.push(`${method} ${path}: expected ${expect}, got ${res.status}: ${res.text.slice(0, 300)}`);
    return res;
  }
  const m = (method: string, path: string, options: ApiRequest, expect: number) =>
    call(main, method, path, options, expect);
  const g = (method: string, path: string, options: ApiRequest, expect: number) =>
    m(method, `/oscal/v1${path}`, options, expect);
  const created = (res: ApiResponse, model: string): string => res.json()[`${model}-list`]?.[0]?.['content-uuid'];

  // Operations, the index answers and the description itself.
  await m('GET', '/healthz', {}, 200);
  await m('GET', '/readyz', {}, 200);
  await m('GET', '/metrics', {}, 200);
  await m('GET', '/openapi.json', {}, 200);
  await m('GET', '/healthz?x=%00', {}, 400);
  await m('GET', '/oscal/v1', {}, 200);
  await m('GET', '/oscal/v1/', { token: writer }, 200);
  await m('GET', '/api/v1', {}, 200);
  await m('GET', '/api/v1/', { token: 'odt_not-a-token' }, 401);

  // Documents: create in three formats, and the refusals.
  const catId = randomUUID();
  const cat = catalog('Access controls', catId);
  assert.equal(
    created(await g('POST', '/catalog?alias=access-controls.json', asJson(cat, writer), 201), 'catalog'),
    catId,
  );
  const xmlId = created(
    await g('POST', '/catalog', { token: writer, body: catalogXml(), contentType: 'application/xml' }, 201),
    'catalog',
  );
  const profId = randomUUID();
  assert.equal(
    created(
      await g(
        'POST',
        '/profile',
        { token: writer, body: profileYaml('Access baseline', profId, catId), contentType: 'application/yaml' },
        201,
      ),
      'profile',
    ),
    profId,
  );
  const brokenProfId = randomUUID();
  await g(
    'POST',
    '/profile',
    {
      token: writer,
      body: profileYaml('Broken baseline', brokenProfId, randomUUID()),
      contentType: 'application/yaml',
    },
    201,
  );
  await g('POST', '/catalog', asJson(catalog('Anonymous')), 401);
  await g('POST', '/catalog', asJson(catalog('Reader'), reader), 403);
  await g('POST', '/catalog', { token: writer, body: 'title: x', contentType: 'text/plain' }, 415);
  await g('POST', '/catalog', { token: writer, body: '{"catalog": ', contentType: 'application/json' }, 400);
  const invalid = catalog('Invalid');
  delete invalid.catalog.metadata.title;
  const refused = await g('POST', '/catalog', asJson(invalid, writer), 422);
  assert.ok(refused.json().errors?.length, 'a 422 of invalid content lists the problems');
  await g('POST', '/profile', asJson(catalog('Wrong model'), writer), 422);
  await g('POST', '/catalog', asJson(cat, writer), 409);
  await g('POST', '/nonsense', asJson(catalog('Nowhere'), writer), 422);

  // Lists and reads.
  await g('GET', '/catalog', {}, 200);
  const page = await g('GET', '/catalog?limit=1', { token: writer }, 200);
  assert.match(String(page.headers.link), /rel="next"/);
  await g('GET', '/catalog?limit=0', { token: writer }, 400);
  await g('GET', '/catalog?cursor=bogus', { token: writer }, 400);
  const read = await g('GET', `/catalog/${catId}`, { token: writer }, 200);
  await g('GET', `/catalog/${catId}`, { token: writer, accept: 'application/xml' }, 200);
  await g('GET', `/catalog/${catId}`, { token: writer, accept: 'application/yaml' }, 200);
  await g('GET', `/catalog/${catId}`, { token: writer, headers: { 'if-none-match': String(read.headers.etag) } }, 304);
  await g('GET', `/catalog/${catId}`, { token: writer, accept: 'text/html' }, 406);
  await g('GET', `/catalog/${catId}`, {}, 404);
  await g('GET', `/catalog/${randomUUID()}?x=1`, { token: writer }, 404);
  const changed = catalog('Access controls, revised', catId);
  await g('PUT', `/catalog/${catId}`, asJson(changed, writer), 204);
  await g('PUT', `/catalog/${catId}`, asJson(changed, reader), 404);
  await g('PUT', `/catalog/${catId}`, { token: writer, body: 'x', contentType: 'text/plain' }, 415);
  await g('PUT', `/catalog/${catId}`, asJson(catalog('Another id'), writer), 409);

  // Access and aliases.
  await g('GET', `/catalog/${catId}/access`, { token: writer }, 200);
  await g('GET', `/catalog/${catId}/access`, {}, 401);
  await g(
    'PUT',
    `/catalog/${catId}/access`,
    asJson({ visibility: 'public', grants: [{ principal: 'user:rita', permission: 'read' }] }, writer),
    200,
  );
  await g('PUT', `/catalog/${catId}/access`, asJson({ owner: 'me' }, writer), 400);
  await g('PUT', `/catalog/${catId}/access`, { token: writer, body: 'public', contentType: 'text/plain' }, 415);
  await g('GET', `/catalog/${catId}/access`, { token: reader }, 403);
  await g('PUT', `/catalog/${catId}`, asJson(changed, reader), 403);
  await g('GET', `/catalog/${catId}/aliases`, {}, 200);
  await g(
    'PUT',
    `/catalog/${catId}/aliases`,
    asJson({ aliases: ['controls.json', 'https://example.org/controls.json'] }, writer),
    200,
  );
  await g('PUT', `/catalog/${catId}/aliases`, asJson({ names: [] }, writer), 400);
  await g('PUT', `/catalog/${catId}/aliases`, asJson({ aliases: ['x'] }, reader), 403);

  // The bytes as received.
  const original = await g('GET', `/catalog/${xmlId}/original`, { token: writer }, 200);
  assert.match(String(original.headers['content-type']), /^application\/xml/);
  await g(
    'GET',
    `/catalog/${xmlId}/original`,
    { token: writer, headers: { 'if-none-match': String(original.headers.etag) } },
    304,
  );
  await g('GET', `/catalog/${catId}/original`, { token: reader }, 403);
  await g('GET', `/catalog/${catId}/original`, {}, 401);
  await g('GET', `/catalog/${catId}/revision/1/original`, { token: writer }, 200);
  await g('GET', `/catalog/${catId}/revision/9/original`, { token: writer }, 404);
  await g('GET', `/catalog/${catId}/revision/0/original`, { token: writer }, 404);

  // Full-text search.
  await g('GET', '/search?q=Before', { token: writer }, 200);
  await g('GET', '/search?q=a&cursor=nonsense', {}, 400);

  // Semantic diffs.
  await g('GET', `/catalog/${catId}/diff?from=1&to=2`, {}, 200);
  await g('GET', `/catalog/${catId}/diff?from=1&ignore-volatile=true`, { token: writer }, 200);
  await g('GET', `/catalog/${catId}/diff?from=first`, { token: writer }, 400);
  await g('GET', `/catalog/${catId}/diff?from=9`, { token: writer }, 404);
  await g('GET', `/nonsense/${catId}/diff?from=1`, { token: writer }, 422);
  await g('POST', '/diff', asJson({ from: catalog('Before'), to: catalog('After') }, writer), 200);
  await g('POST', '/diff', asJson({ from: catalog('Before'), to: catalog('After') }), 401);
  await g('POST', '/diff', asJson({ from: catalog('Before') }, writer), 400);
  await g('POST', '/diff', { token: writer, body: 'x', contentType: 'text/plain' }, 415);
  await g('POST', '/diff', asJson({ from: catalog('Before'), to: invalid }, writer), 422);

  // Attachments.
  const raw = await g(
    'POST',
    `/catalog/${catId}/attachment`,
    {
      token: writer,
      body: 'hello',
      contentType: 'text/plain',
      headers: { 'content-disposition': 'attachment; filename="notes.txt"' },
    },
    201,
  );
  const resource = raw.json().uuid as string;
  const form = multipart('scan.pdf', 'application/pdf', '%PDF-1.4 not really');
  await g('POST', `/catalog/${catId}/attachment`, { token: writer, ...form }, 201);
  await g('POST', `/catalog/${catId}/attachment`, { token: writer, body: '', contentType: 'text/plain' }, 400);
  await g('POST', `/catalog/${catId}/attachment`, { token: reader, body: 'x', contentType: 'text/plain' }, 403);
  await g('GET', `/catalog/${catId}/attachment`, {}, 200);
  const file = await g('GET', `/catalog/${catId}/attachment/${resource}`, { token: reader }, 200);
  await g(
    'GET',
    `/catalog/${catId}/attachment/${resource}`,
    { token: reader, headers: { 'if-none-match': String(file.headers.etag) } },
    304,
  );
  const entry = await g('GET', `/catalog/${catId}/attachment/${resource}/resource`, { token: writer }, 200);
  await g(
    'PUT',
    `/catalog/${catId}/attachment/${resource}/resource`,
    { token: writer, body: entry.text, contentType: 'application/json' },
    204,
  );
  await g(
    'PUT',
    `/catalog/${catId}/attachment/${resource}/resource`,
    asJson({ ...entry.json(), uuid: randomUUID() }, writer),
    409,
  );
  await g(
    'PUT',
    `/catalog/${catId}/attachment/${resource}/resource`,
    { token: writer, body: entry.text, contentType: 'text/plain' },
    415,
  );
  await g(
    'PUT',
    `/catalog/${catId}/attachment/${resource}`,
    { token: writer, body: 'hello again', contentType: 'text/plain' },
    204,
  );
  await g('DELETE', `/catalog/${catId}/attachment/${resource}`, { token: writer }, 204);
  await g('GET', `/catalog/${catId}/attachment/${resource}`, { token: writer }, 404);
  await g('GET', `/catalog/${catId}/attachment/${resource}/resource`, { token: writer }, 404);

  // Snapshots.
  const snapshot = (await g('POST', `/catalog/${catId}/snapshot`, { token: writer }, 201)).json()[
    'snapshot-id'
  ] as string;
  await g(
    'POST',
    `/catalog/${catId}/snapshot`,
    asJson({ snapshot: { description: 'as approved', labels: ['v1'], types: ['baseline'] } }, writer),
    201,
  );
  await g(
    'POST',
    `/catalog/${catId}/snapshot`,
    asJson({ snapshot: { 'snapshot-created': '2020-01-01T00:00:00Z' } }, writer),
    400,
  );
  await g('POST', `/catalog/${catId}/snapshot`, { token: writer, body: 'notes', contentType: 'text/plain' }, 415);
  await g('GET', `/catalog/${catId}/snapshot`, {}, 200);
  const snap = await g('GET', `/catalog/${catId}/snapshot/${snapshot}`, {}, 200);
  await g('GET', `/catalog/${catId}/snapshot/${snapshot}`, { accept: 'application/xml' }, 200);
  await g('GET', `/catalog/${catId}/snapshot/${snapshot}`, { accept: 'application/yaml' }, 200);
  await g(
    'GET',
    `/catalog/${catId}/snapshot/${snapshot}`,
    { headers: { 'if-none-match': String(snap.headers.etag) } },
    304,
  );
  await g('GET', `/catalog/${catId}/snapshot/${snapshot}`, { accept: 'image/png' }, 406);
  await g(
    'PUT',
    `/catalog/${catId}/snapshot/${snapshot}`,
    asJson({ snapshot: { description: null, labels: ['v1.1'] } }, writer),
    200,
  );
  await g('DELETE', `/catalog/${catId}/snapshot/${snapshot}`, { token: reader }, 403);
  await g('DELETE', `/catalog/${catId}/snapshot/${snapshot}`, { token: writer }, 204);
  await g('GET', `/catalog/${catId}/snapshot/${snapshot}`, {}, 404);

  // Resolution.
  const resolved = await g('GET', `/profile/${profId}/resolved-catalog`, { token: writer }, 200);
  assert.ok(resolved.headers['resolution-warning-count'], 'the warnings are counted in a header');
  await g('GET', `/profile/${profId}/resolved-catalog`, { token: writer, accept: 'application/xml' }, 200);
  await g('GET', `/profile/${profId}/resolved-catalog`, { token: writer, accept: 'text/csv' }, 406);
  await g('GET', `/profile/${profId}/resolved-catalog`, {}, 404);
  await g('GET', `/profile/${brokenProfId}/resolved-catalog`, { token: writer }, 422);
  const resolvedSnapshot = (
    await g('POST', `/profile/${profId}/resolved-snapshot`, asJson({ snapshot: { labels: ['approved'] } }, writer), 201)
  ).json()['snapshot-id'] as string;
  await g('POST', `/profile/${brokenProfId}/resolved-snapshot`, { token: writer }, 422);
  await g('GET', `/profile/${profId}/resolved-snapshot`, { token: writer }, 200);
  await g('GET', `/profile/${profId}/resolved-snapshot/${resolvedSnapshot}`, { token: writer }, 200);
  await g(
    'GET',
    `/profile/${profId}/resolved-snapshot/${resolvedSnapshot}`,
    { token: writer, accept: 'application/yaml' },
    200,
  );
  await g(
    'PUT',
    `/profile/${profId}/resolved-snapshot/${resolvedSnapshot}`,
    asJson({ snapshot: { description: 'kept' } }, writer),
    200,
  );
  await g('DELETE', `/profile/${profId}/resolved-snapshot/${resolvedSnapshot}`, { token: writer }, 204);
  await g('GET', `/profile/${profId}/resolved-snapshot/${resolvedSnapshot}`, { token: writer }, 404);

  // Validation and constraint sets.
  await g('PUT', '/constraint-set/common', { token: admin, body: SET_XML, contentType: 'application/xml' }, 201);
  await g('PUT', '/constraint-set/common', { token: admin, body: SET_XML, contentType: 'application/xml' }, 200);
  await g('PUT', '/constraint-set/common', { token: writer, body: SET_XML, contentType: 'application/xml' }, 403);
  await g(
    'PUT',
    '/constraint-set/broken',
    {
      token: admin,
      body: '<!DOCTYPE x [<!ENTITY a "b">]><metaschema-meta-constraints/>',
      contentType: 'application/xml',
    },
    422,
  );
  await g('PUT', '/constraint-set/Upper', { token: admin, body: SET_XML, contentType: 'application/xml' }, 400);
  await g('PUT', '/constraint-set/plain', { token: admin, body: SET_XML, contentType: 'text/plain' }, 415);
  await g('GET', '/constraint-set', { token: reader }, 200);
  await g('GET', '/constraint-set', {}, 401);
  await g('GET', '/constraint-set/common', { token: reader }, 200);
  await g('GET', '/constraint-set/missing', { token: reader }, 404);
  await g('POST', '/validate?constraints=common', asJson(catalog('Checked'), writer), 200);
  await g('POST', '/validate', asJson(catalog('Checked'), writer, { accept: 'application/sarif+json' }), 200);
  await g(
    'POST',
    '/validate?include-pass=true',
    { token: writer, body: catalogXml(), contentType: 'application/xml', accept: 'application/sarif+json' },
    200,
  );
  await g('POST', '/validate', { token: writer, body: '<catalog/>', contentType: 'application/xml' }, 200);
  await g('POST', '/validate', { token: writer, body: 'x', contentType: 'text/plain' }, 415);
  await g('POST', '/validate', asJson(catalog('Checked'), writer, { accept: 'text/html' }), 406);
  await g('POST', '/validate?constraints=missing', asJson(catalog('Checked'), writer), 400);
  await g('POST', '/validate', asJson(catalog('Checked')), 401);
  await g('GET', `/catalog/${catId}/validation`, {}, 200);
  await g(
    'GET',
    `/catalog/${catId}/validation?constraints=common`,
    { token: writer, accept: 'application/sarif+json' },
    200,
  );
  await g('GET', `/catalog/${catId}/validation`, { accept: 'text/plain' }, 406);
  await g('GET', `/catalog/${catId}/validation?constraints=common`, {}, 401);
  await g('GET', `/catalog/${randomUUID()}/validation`, {}, 404);
  const mp = (expression: string) => `/catalog/${catId}/metapath?expression=${encodeURIComponent(expression)}`;
  await g('GET', mp("//control[@id='ac-1']/title, count(//control), map { 'a': 1 }"), {}, 200);
  await g('GET', `${mp('1 to 3')}&limit=2`, { token: writer }, 200);
  await g('GET', mp('//control['), {}, 400);
  await g('GET', mp("'a' + 1"), {}, 422);
  await g('GET', `/catalog/${randomUUID()}/metapath?expression=1`, {}, 404);
  await g('DELETE', '/constraint-set/common', { token: writer }, 403);
  await g('DELETE', '/constraint-set/common', { token: admin }, 204);
  await g('DELETE', '/constraint-set/common', { token: admin }, 404);

  // Conversion jobs: with no worker, the XML of a larger document stays queued.
  const largeId = randomUUID();
  await g('POST', '/catalog', asJson(catalog('Large', largeId, 60), writer), 201);
  const pending = await g('GET', `/catalog/${largeId}`, { token: writer, accept: 'application/xml' }, 202);
  await g('GET', `/jobs/${pending.json().job.id}`, { token: writer }, 200);
  await g('GET', `/jobs/${randomUUID()}`, { token: writer }, 404);

  // Audit, legal hold and deletes.
  const audit = await g('GET', '/audit?limit=2', { token: admin }, 200);
  assert.match(String(audit.headers.link), /rel="next"/);
  await g('GET', '/audit', { token: writer }, 403);
  await g('GET', '/audit?since=yesterday', { token: admin }, 400);
  await g('PUT', `/catalog/${xmlId}/access`, asJson({ 'legal-hold': true }, writer), 403);
  await g('PUT', `/catalog/${xmlId}/access`, asJson({ 'legal-hold': true }, admin), 200);
  await g('DELETE', `/catalog/${xmlId}`, { token: writer }, 409);
  await g('DELETE', `/catalog/${catId}`, { token: reader }, 403);
  await g('DELETE', `/catalog/${catId}`, { token: writer }, 204);
  await g('DELETE', `/catalog/${catId}`, { token: writer }, 404);

  // The registry.
  const r = (method: string, path: string, options: ApiRequest, expect: number) =>
    m(method, `/api/v1${path}`, options, expect);
  const regId = randomUUID();
  await r('PUT', `/catalogs/${regId}`, asJson(catalog('Registry catalog', regId), writer), 201);
  await r('PUT', `/catalogs/${regId}`, asJson(catalog('Registry catalog, v2', regId), writer), 204);
  await r('PUT', `/catalogs/${regId}`, asJson(catalog('Anonymous', regId)), 401);
  await r('PUT', `/catalogs/${regId}`, asJson(catalog('Reader', regId), reader), 403);
  await r('PUT', `/catalogs/${regId}`, asJson(catalog('Another', randomUUID()), writer), 409);
  await r('PUT', `/catalogs/${regId}`, { token: writer, body: '{"catalog": [', contentType: 'application/json' }, 400);
  await r('PUT', `/catalogs/${regId}`, { token: writer, body: catalogXml(), contentType: 'application/xml' }, 415);
  const invalidReg = catalog('Invalid', regId);
  delete invalidReg.catalog.metadata['last-modified'];
  await r('PUT', `/catalogs/${regId}`, asJson(invalidReg, writer), 422);
  await r('GET', '/catalogs', {}, 200);
  await r('GET', '/catalogs?limit=1', { token: writer }, 200);
  await r('GET', '/catalogs?sort=size', {}, 400);
  await r('GET', '/nonsense', {}, 422);
  const latest = await r('GET', `/catalogs/${regId}`, {}, 200);
  await r('GET', `/catalogs/${regId}`, { headers: { 'if-none-match': String(latest.headers.etag) } }, 304);
  await r('GET', `/catalogs/${randomUUID()}`, {}, 404);
  await r('GET', `/catalogs/${regId}/versions`, { token: writer }, 200);
  await r('GET', `/catalogs/${regId}/versions`, {}, 401);
  await r('GET', `/catalogs/${regId}/versions`, { token: reader }, 403);
  await r('GET', `/catalogs/${regId}/versions/1`, {}, 200);
  await r('GET', `/catalogs/${regId}/versions/first`, {}, 400);
  await r('GET', `/catalogs/${regId}/versions/99`, {}, 404);
  await r('GET', `/catalogs/${regId}/versions/1/diff/2`, {}, 200);
  await r('GET', `/catalogs/${regId}/versions/1/diff/second`, {}, 400);
  await r('GET', `/catalogs/${regId}/versions/1/diff/99`, {}, 404);
  await r('DELETE', `/catalogs/${regId}/versions/1`, { token: reader }, 403);
  await r('DELETE', `/catalogs/${regId}/versions/1`, { token: writer }, 204);
  await r('DELETE', `/catalogs/${regId}/versions/2`, { token: writer }, 409);
  const uploadId = randomUUID();
  await m('POST', '/api/upload', asJson(catalog('Uploaded', uploadId), writer), 201);
  await m(
    'POST',
    '/api/upload',
    {
      token: writer,
      ...multipart('uploaded.json', 'application/json', JSON.stringify(catalog('Uploaded, v2', uploadId))),
    },
    200,
  );
  await m('POST', '/api/upload', { token: writer, ...multipart('uploaded.xml', 'application/xml', catalogXml()) }, 415);
  await m('POST', '/api/upload', { token: writer, body: 'x', contentType: 'text/plain' }, 415);
  await m('POST', '/api/upload', { token: writer, body: '{"catalog": {}}', contentType: 'application/json' }, 422);
  await m('POST', '/api/upload', asJson(catalog('Anonymous')), 401);
  await m('POST', '/api/upload', asJson(catalog('Reader'), reader), 403);
  await r('DELETE', `/catalogs/${regId}`, { token: reader }, 403);
  await r('DELETE', `/catalogs/${regId}`, { token: writer }, 204);
  await r('DELETE', `/catalogs/${regId}`, { token: writer }, 404);

  // With web sign-in (its provider unreachable): the sign-in routes, sessions and provider JWTs, a finished job (303), and 429.
  const s = (method: string, path: string, options: ApiRequest, expect: number) =>
    call(signIn, method, path, options, expect, signInChecker);
  await s('GET', '/openapi.json', {}, 200);
  await s('GET', '/auth/login', {}, 503);
  await s('GET', '/auth/login?return_to=//example.org', {}, 400);
  await s('GET', '/auth/callback?code=x&state=y', {}, 401);
  await s('GET', '/auth/logout?return_to=/oscal/v1', {}, 302);
  await s('POST', '/oscal/v1/catalog', asJson(catalog('Anonymous')), 401);
  await s('GET', '/oscal/v1/catalog', { headers: { cookie: 'appSession=forged' } }, 401);
  await s('GET', '/oscal/v1/catalog', { token: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln' }, 503);
  const signInAdmin = signIn.adminToken();
  const signInLarge = randomUUID();
  await s('POST', '/oscal/v1/catalog', asJson(catalog('Large', signInLarge, 60), signInAdmin), 201);
  // The worker makes the XML soon after the write: the job (when there still is one) ends in 303.
  const first = await api(signIn.url, 'GET', `/oscal/v1/catalog/${signInLarge}`, {
    token: signInAdmin,
    accept: 'application/xml',
  });
  failures.push(...signInChecker.problems('GET', `/oscal/v1/catalog/${signInLarge}`, first));
  requests++;
  if (first.status === 202) {
    const jobPath = `/oscal/v1/jobs/${first.json().job.id}`;
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await api(signIn.url, 'GET', jobPath, { token: signInAdmin });
      requests++;
      failures.push(...signInChecker.problems('GET', jobPath, res));
      if (res.status !== 200) {
        assert.equal(res.status, 303, res.text);
        break;
      }
      assert.ok(Date.now() < deadline, 'the worker finishes the job');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  // Refused credentials until the address is over its limit (3; the forged session counted too).
  let limited = false;
  for (let i = 0; i < 5 && !limited; i++) {
    const res = await api(signIn.url, 'GET', '/oscal/v1/', { token: `odt_wrong-${i}` });
    requests++;
    failures.push(...signInChecker.problems('GET', '/oscal/v1/', res));
    limited = res.status === 429;
  }
  assert.ok(limited, 'too many refused credentials are 429');

  assert.deepEqual(failures, []);
  // Every operation of the description was called, on one server or the other.
  const seen = new Set([...checker.seen.keys(), ...signInChecker.seen.keys()]);
  const uncalled = [...new Set([...checker.operationKeys(), ...signInChecker.operationKeys()])].filter(
    (k) => !seen.has(k),
  );
  assert.deepEqual(uncalled, [], 'operations no request reached');
  const statuses = [...checker.seen.entries(), ...signInChecker.seen.entries()].reduce((n, [, set]) => n + set.size, 0);
  console.log(
    `# checked ${requests} responses of ${seen.size} operations (${statuses} operation-status pairs) in ${Date.now() - started} ms`,
  );
});
