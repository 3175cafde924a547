import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { ERROR_CODES, type ErrorCode } from '../errors.js';
import { LEVELS } from '../oscal/constraints/index.js';
import { MODELS, PLURALS } from '../oscal/model/models.js';

/**
 * The OpenAPI description (/openapi.json, /docs), made by @fastify/swagger from the routes.
 *
 * Each route declares itself with describe(): what fastify uses goes into its `schema` as before
 * (params and querystring, which it validates, and the annotations summary, tags and operationId,
 * which it ignores); what is there for the description only (the request body by media type, every
 * response with its schema, described-only parameters, who may call it) goes into the route's
 * `config.openapi`, which fastify never compiles. The swagger `transform` below folds the two
 * together. So response schemas never reach fast-json-stringify (which would drop or reorder
 * properties) and body schemas never reach the validator (content bodies are raw bytes that the
 * engine reads): describing a route cannot change what it accepts or answers.
 */

type Json = Record<string, unknown>;

/** Who may call a route: anyone (no credentials asked), anyone with more for callers with credentials, or callers with credentials. */
export type Access = 'public' | 'optional' | 'required';

export interface Media {
  schema: Json;
  example?: unknown;
}

/** A response: a string is an error response (the error object) with that description. */
export type ResponseSpec =
  string | { description: string; content?: Record<string, Media>; headers?: Record<string, Json> };

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: readonly Tag[];
  access: Access;
  /**
   * Whether the API's hook checks credentials on every request (everything under /oscal/v1,
   * /api/v1 and /api/upload): refused credentials are 401 and too many refusals 429 there.
   */
  api?: boolean;
  /** Validated by fastify, as before. */
  params?: object;
  querystring?: object;
  /** For the description only: query parameters the handler reads itself, request headers. */
  query?: Json;
  headers?: Json;
  body?: { required?: boolean; content: Record<string, Media> };
  responses: Record<number, ResponseSpec>;
}

/** What the description takes from config.openapi. */
export type Described = Omit<Operation, 'operationId' | 'summary' | 'description' | 'tags' | 'params' | 'querystring'>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's description beyond its schema (see src/http/openapi.ts); never compiled by fastify. */
    openapi?: Described;
  }
}

/** Route options that describe a route: spread them into the options of app.get() and the others. */
export function describe(op: Operation): { schema: FastifySchema; config: { openapi: Described } } {
  const { operationId, summary, description, tags, params, querystring, ...described } = op;
  return {
    schema: {
      operationId,
      summary,
      tags,
      ...(description !== undefined ? { description } : {}),
      ...(params !== undefined ? { params } : {}),
      ...(querystring !== undefined ? { querystring } : {}),
    },
    config: { openapi: described },
  };
}

// ---------------------------------------------------------------------------------------------
// Tags

export const TAGS = {
  documents: 'generic: documents',
  access: 'generic: access',
  aliases: 'generic: aliases',
  attachments: 'generic: attachments',
  snapshots: 'generic: snapshots',
  resolution: 'generic: resolution',
  validation: 'validation',
  constraintSets: 'constraint sets',
  audit: 'generic: audit',
  registry: 'registry',
  operations: 'operations',
  signIn: 'sign-in',
} as const;

export type Tag = (typeof TAGS)[keyof typeof TAGS];

const TAG_DESCRIPTIONS: Record<Tag, string> = {
  'generic: documents':
    'Generic OSCAL REST interface (/oscal/v1): documents of the eight OSCAL models in JSON, XML or YAML; the index of models, lists, create, read, replace, delete, conversion jobs and the bytes as received.',
  'generic: access': 'Generic interface: who may read and change a document (owner, visibility, grants, legal hold).',
  'generic: aliases': 'Generic interface: the names (file names, URLs) profile imports find a document by.',
  'generic: attachments': 'Generic interface: files attached to a document as back-matter resources.',
  'generic: snapshots': 'Generic interface: point-in-time copies of a document, with description, labels and types.',
  'generic: resolution': 'Generic interface: profile resolution, now or kept as resolved snapshots.',
  validation:
    'Generic interface: validation of content without storing it, and of stored documents (schema, model constraints, registered constraint sets); JSON report or SARIF.',
  'constraint sets':
    'Generic interface: external constraint sets (metaschema-meta-constraints XML), registered by admins and named in validation.',
  'generic: audit': 'Generic interface: the audit log of writes and access changes (admins).',
  registry:
    'Registry API (/api/v1, /api/upload): OSCAL JSON documents by plural model segment, with numbered versions. Reads are public (of public documents).',
  operations: 'Health, readiness, metrics and this description, outside the API base paths.',
  'sign-in': 'Web sign-in through the OpenID Connect provider; sets the appSession cookie.',
};

// ---------------------------------------------------------------------------------------------
// Schemas

export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

const string = { type: 'string' } as const;
const instant = { type: 'string', format: 'date-time' } as const;
const uuid = { type: 'string', format: 'uuid' } as const;
const strings = { type: 'array', items: string } as const;
const level = { type: 'string', enum: [...LEVELS] } as const;
const formats = { type: 'string', enum: ['json', 'xml', 'yaml'] } as const;

function object(properties: Json, required: string[], extra: Json = {}): Json {
  // OpenAPI 3.0 takes no empty `required`.
  return {
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
    ...extra,
  };
}

const ERROR_EXAMPLE = {
  'status-code': 422,
  code: 'invalid-oscal',
  message: 'the catalog is not valid OSCAL 1.1.2: 1 problem, the first: title is required',
  errors: [{ path: '/catalog/metadata', message: 'title is required', line: 4, column: 17 }],
};

const LIST_ITEM_EXAMPLE = {
  'content-uuid': '8d1ae7b6-6a0c-4ef4-9e2c-2c0cbd8e7cf1',
  title: 'Test catalog',
  'last-modified': '2024-01-01T00:00:00Z',
  version: '1.0',
  'oscal-version': '1.1.2',
  'document-ids': [
    { scheme: 'http://www.oscal.io/oscal/identifier/contentuuid', identifier: '8d1ae7b6-6a0c-4ef4-9e2c-2c0cbd8e7cf1' },
  ],
  markings: [],
  valid: true,
};

const listName = (model: string) => `${model}-list`;
const snapshotListName = (model: string) => `${model}-snapshot-list`;

/** One of the wrappers `{"<model>-list": [...]}`: exactly one of the models' names. */
function oneOfModels(name: (model: string) => string, items: Json, extra: Json = {}): Json {
  return {
    type: 'object',
    properties: { ...Object.fromEntries(MODELS.map((m) => [name(m), { type: 'array', items }])), ...extra },
    minProperties: 1,
    additionalProperties: false,
  };
}

const SCHEMAS: Record<string, Json> = {
  ErrorDetail: object(
    {
      path: {
        type: 'string',
        description: 'JSON pointer into the document (or the chain of imports), empty for the whole',
      },
      message: string,
      line: { type: 'integer', minimum: 1, description: 'line in the body as sent' },
      column: { type: 'integer', minimum: 0 },
      'constraint-id': { type: 'string', description: 'the constraint that failed' },
      level,
    },
    ['path', 'message'],
    { description: 'One problem: where (JSON pointer, and line and column in the body as sent where known) and what.' },
  ),
  Error: object(
    {
      'status-code': { type: 'integer', description: 'the HTTP status, repeated' },
      code: {
        type: 'string',
        enum: Object.keys(ERROR_CODES),
        description: 'a stable code; docs/errors.md says what each means',
      },
      message: { type: 'string', description: 'what went wrong, for people' },
      errors: {
        type: 'array',
        items: ref('ErrorDetail'),
        minItems: 1,
        maxItems: 100,
        description: 'the problems found, at most 100',
      },
    },
    ['status-code', 'code', 'message'],
    { description: 'The one error body of both interfaces.', example: ERROR_EXAMPLE },
  ),
  Finding: object(
    {
      code: string,
      level,
      'constraint-id': string,
      message: string,
      path: { type: 'string', description: 'JSON pointer' },
      metapath: string,
      line: { type: 'integer', minimum: 1 },
      column: { type: 'integer', minimum: 0 },
      source: { type: 'string', description: 'where the constraint is defined' },
    },
    ['code', 'level', 'message', 'path'],
    { description: 'A finding of validation: a schema problem or a constraint that did not hold.' },
  ),
  OscalJson: {
    type: 'object',
    minProperties: 1,
    description:
      'An OSCAL document in JSON: one property named after its model (catalog, profile, ...), as the JSON Schema of its OSCAL release defines it.',
  },
  OscalXml: { type: 'string', description: 'An OSCAL document in XML (namespace http://csrc.nist.gov/ns/oscal/1.0).' },
  OscalYaml: { type: 'string', description: 'An OSCAL document in YAML, shaped as the JSON form.' },
  DocumentId: {
    type: 'object',
    properties: { scheme: string, identifier: string },
    required: ['identifier'],
    description: 'An OSCAL metadata document-id.',
  },
  ContentListItem: object(
    {
      'content-uuid': { ...uuid, description: 'the content identifier (D2): the id in the document URL' },
      title: { type: 'string', description: 'the metadata title (markup-line as Markdown)' },
      published: string,
      'last-modified': string,
      version: string,
      'oscal-version': string,
      'document-ids': { type: 'array', items: ref('DocumentId') },
      markings: { ...strings, description: 'values of metadata props named marking' },
      remarks: string,
      valid: {
        type: 'boolean',
        description:
          'false: the current revision is a draft stored with findings at the reject level (keep-findings=true)',
      },
    },
    ['content-uuid', 'title', 'last-modified', 'version', 'oscal-version', 'document-ids', 'markings', 'valid'],
    { description: 'A document in a list (generic-interface 2.3).', example: LIST_ITEM_EXAMPLE },
  ),
  ContentList: {
    ...oneOfModels(listName, ref('ContentListItem')),
    description: 'One page of a model\'s documents, under "<model>-list"; the next page, if any, in the Link header.',
    example: { 'catalog-list': [LIST_ITEM_EXAMPLE] },
  },
  ContentCreated: {
    ...oneOfModels(listName, ref('ContentListItem'), {
      findings: {
        type: 'array',
        items: ref('Finding'),
        description: 'what the constraint check found: below the reject level, or any with keep-findings=true',
      },
    }),
    description: 'The new document as a list item under "<model>-list", and any findings below the reject level.',
  },
  Job: object(
    {
      job: object(
        {
          id: string,
          status: { type: 'string', enum: ['queued', 'running', 'done', 'failed'] },
          format: formats,
          error: string,
          self: { type: 'string', format: 'uri' },
        },
        ['id', 'status', 'format', 'self'],
      ),
    },
    ['job'],
    { description: 'A conversion job making another format of a large document.' },
  ),
  Grant: object(
    {
      principal: { type: 'string', pattern: '^(user|group):[^\\s]{1,200}$', example: 'user:alice' },
      permission: { type: 'string', enum: ['read', 'write'] },
    },
    ['principal', 'permission'],
  ),
  AccessSettings: object(
    {
      owner: string,
      visibility: { type: 'string', enum: ['public', 'private'] },
      'legal-hold': { type: 'boolean' },
      grants: { type: 'array', items: ref('Grant') },
    },
    ['owner', 'visibility', 'legal-hold', 'grants'],
    { description: 'Who may read and change a document.' },
  ),
  AccessChange: object(
    {
      visibility: { type: 'string', enum: ['public', 'private'] },
      grants: { type: 'array', items: ref('Grant'), maxItems: 1000, description: 'replaces all grants' },
      'legal-hold': { type: 'boolean', description: 'admins only' },
    },
    [],
    {
      description: 'What to change; what is left out stays.',
      example: { visibility: 'public', grants: [{ principal: 'user:alice', permission: 'read' }] },
    },
  ),
  AliasList: object(
    {
      aliases: {
        ...strings,
        description: 'given aliases: ?alias= of writes, PUT .../aliases, registry upload file names',
      },
      'from-metadata': {
        ...strings,
        description: 'canonical and alternate links and document-ids of the current revision',
      },
    },
    ['aliases', 'from-metadata'],
  ),
  AliasChange: object({ aliases: { ...strings, description: 'the given aliases become exactly these' } }, ['aliases'], {
    example: { aliases: ['NIST_SP-800-53_rev5_catalog.json'] },
  }),
  Resource: {
    type: 'object',
    properties: {
      uuid,
      title: string,
      description: string,
      props: { type: 'array', items: { type: 'object' } },
      'document-ids': { type: 'array', items: ref('DocumentId') },
      citation: { type: 'object' },
      rlinks: {
        type: 'array',
        items: {
          type: 'object',
          properties: { href: string, 'media-type': string, hashes: { type: 'array', items: { type: 'object' } } },
          required: ['href'],
        },
      },
      base64: {
        type: 'object',
        properties: { filename: string, 'media-type': string, value: string },
        required: ['value'],
      },
      remarks: string,
    },
    required: ['uuid'],
    description: 'A back-matter resource as the OSCAL JSON form holds it.',
  },
  Attachment: {
    type: 'object',
    properties: {
      'content-uuid': uuid,
      'resource-uuid': string,
      uuid,
      title: string,
      description: string,
      rlinks: { type: 'array', items: { type: 'object' } },
      remarks: string,
    },
    required: ['content-uuid', 'resource-uuid', 'uuid'],
    description: 'A back-matter resource of the document, without its base64 content.',
  },
  AttachmentList: object({ 'attachment-list': { type: 'array', items: ref('Attachment') } }, ['attachment-list']),
  ResolutionWarning: object(
    {
      code: { type: 'string', enum: ['no-match', 'inoperative-alter', 'unknown-param', 'duplicate-control'] },
      message: string,
      path: { type: 'string', description: 'JSON pointer to the directive' },
      profile: { type: 'string', description: 'the imported profile holding it' },
    },
    ['code', 'message', 'path'],
  ),
  SnapshotEntry: object(
    {
      'snapshot-id': uuid,
      created: { ...instant, description: 'snapshot-created: set by the server, never changed' },
      description: { type: 'string', nullable: true },
      labels: strings,
      types: strings,
      revision: { type: 'integer', description: 'the revision of the document it copies or resolved' },
      author: string,
      warnings: {
        type: 'array',
        items: ref('ResolutionWarning'),
        description: 'resolved snapshots: what resolution reported',
      },
    },
    ['snapshot-id', 'created', 'description', 'labels', 'types', 'revision', 'author'],
  ),
  SnapshotList: {
    ...oneOfModels(snapshotListName, ref('SnapshotEntry')),
    description: 'The snapshots of a document, under "<model>-snapshot-list".',
  },
  ResolvedSnapshotList: object({ 'resolved-snapshot-list': { type: 'array', items: ref('SnapshotEntry') } }, [
    'resolved-snapshot-list',
  ]),
  SnapshotNotes: object(
    {
      snapshot: object(
        {
          description: { type: 'string', nullable: true, maxLength: 1000 },
          labels: { ...strings, maxItems: 100 },
          types: { ...strings, maxItems: 100 },
        },
        [],
      ),
    },
    ['snapshot'],
    {
      description: 'Description, labels and types; what is left out stays. snapshot-created cannot be set.',
      example: { snapshot: { description: 'as approved', labels: ['v1'], types: ['baseline'] } },
    },
  ),
  ConstraintSet: object(
    {
      name: string,
      sha256: string,
      size: { type: 'integer' },
      'created-by': string,
      created: instant,
      updated: instant,
      href: { type: 'string', format: 'uri' },
    },
    ['name', 'sha256', 'size', 'created-by', 'created', 'updated', 'href'],
  ),
  ConstraintSetList: object({ 'constraint-sets': { type: 'array', items: ref('ConstraintSet') } }, ['constraint-sets']),
  ValidationReport: object(
    {
      valid: { type: 'boolean', description: 'nothing at ERROR or above' },
      model: string,
      'oscal-version': string,
      format: formats,
      'constraints-checked': { type: 'boolean' },
      'constraint-sets': { ...strings, description: 'the registered sets applied' },
      counts: object(Object.fromEntries(LEVELS.map((l) => [l, { type: 'integer', minimum: 0 }])), [...LEVELS]),
      findings: { type: 'array', items: ref('Finding') },
    },
    ['valid', 'constraints-checked', 'constraint-sets', 'counts', 'findings'],
  ),
  StoredValidationReport: object(
    {
      valid: { type: 'boolean' },
      model: string,
      'oscal-version': string,
      format: { ...formats, description: 'the format the revision was sent in' },
      revision: { type: 'integer' },
      'valid-when-stored': {
        type: 'boolean',
        description: 'false: the revision was stored with findings at the reject level (keep-findings=true)',
      },
      'findings-when-stored': { type: 'array', items: ref('Finding') },
      'constraints-checked': { type: 'boolean' },
      'constraint-sets': strings,
      counts: object(Object.fromEntries(LEVELS.map((l) => [l, { type: 'integer', minimum: 0 }])), [...LEVELS]),
      findings: { type: 'array', items: ref('Finding') },
    },
    [
      'valid',
      'revision',
      'valid-when-stored',
      'findings-when-stored',
      'constraints-checked',
      'constraint-sets',
      'counts',
      'findings',
    ],
  ),
  DiffChange: object(
    {
      kind: { type: 'string', enum: ['added', 'removed', 'moved', 'changed'] },
      path: { type: 'string', description: 'JSON pointer in the newer document; in the older one for a removal' },
      from: { type: 'string', description: 'moved and changed objects: the JSON pointer in the older document' },
      object: { type: 'string', description: 'the definition name in the model (control, part, prop, …)' },
      key: { type: 'string', description: 'the uuid, id or other key it was matched by' },
      title: string,
      fields: {
        type: 'array',
        items: object(
          {
            field: string,
            old: { description: 'absent when the field is new' },
            new: { description: 'absent when the field was removed' },
            words: {
              type: 'array',
              items: object({ op: { type: 'string', enum: ['same', 'added', 'removed'] }, text: string }, [
                'op',
                'text',
              ]),
              description: 'prose compared word by word',
            },
          },
          ['field'],
        ),
      },
      value: { description: 'added and removed values that are not objects with content of their own' },
    },
    ['kind', 'path', 'object'],
  ),
  DiffReport: object(
    {
      model: { type: 'string', enum: [...MODELS] },
      from: ref('DiffSide'),
      to: ref('DiffSide'),
      equal: { type: 'boolean', description: 'nothing differs, after what was asked to be ignored' },
      summary: object(
        {
          counts: object(
            Object.fromEntries(
              ['added', 'removed', 'moved', 'changed'].map((k) => [k, { type: 'integer', minimum: 0 }]),
            ),
            ['added', 'removed', 'moved', 'changed'],
          ),
          catalog: {
            type: 'object',
            description: 'controls added, removed, withdrawn; parameters and statements changed',
          },
          profile: { type: 'object', description: 'controls selected and deselected; set-parameters changed' },
          systemSecurityPlan: {
            type: 'object',
            description: 'implemented requirements added and removed, status changes, components added and removed',
          },
        },
        ['counts'],
      ),
      changes: { type: 'array', items: ref('DiffChange') },
    },
    ['model', 'from', 'to', 'equal', 'summary', 'changes'],
    { description: 'A semantic diff: what was added, removed, moved and changed, located by JSON pointer.' },
  ),
  DiffSide: object(
    {
      version: { type: 'string', description: 'the OSCAL version of that side' },
      revision: { type: 'integer', description: 'stored documents: the revision, or the one the snapshot was made of' },
      snapshot: { ...uuid, description: 'when the side was a snapshot' },
    },
    ['version'],
  ),
  SearchResult: {
    allOf: [
      ref('ContentListItem'),
      object(
        {
          model: string,
          path: { type: 'string', description: 'JSON pointer of the object found in the document' },
          kind: { type: 'string', description: 'the object: control, part, component, implemented-requirement…' },
          key: { type: 'string', description: 'its uuid or id' },
          'object-title': { type: 'string', description: 'its title, as plain text' },
          snippet: { type: 'string', description: 'a plain-text excerpt where the words matched' },
          highlights: {
            type: 'array',
            items: { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2 },
            description: 'the matched runs of the snippet, as [start, end) offsets in UTF-16 code units',
          },
        },
        ['model', 'path', 'kind', 'snippet', 'highlights'],
      ),
    ],
  },
  SearchResults: object({ 'search-results': { type: 'array', items: ref('SearchResult') } }, ['search-results']),
  DiffPair: object({ from: ref('OscalJson'), to: ref('OscalJson') }, ['from', 'to'], {
    description: 'Two OSCAL JSON documents of one model: the older as "from", the newer as "to".',
  }),
  SarifLog: {
    type: 'object',
    properties: {
      $schema: string,
      version: { type: 'string', enum: ['2.1.0'] },
      runs: { type: 'array', items: { type: 'object' } },
    },
    required: ['version', 'runs'],
    description: 'A SARIF 2.1.0 log.',
  },
  AuditEntry: object(
    {
      id: { type: 'integer' },
      at: instant,
      actor: string,
      action: string,
      'content-uuid': string,
      detail: { type: 'object' },
    },
    ['id', 'at', 'actor', 'action'],
  ),
  AuditList: object({ 'audit-list': { type: 'array', items: ref('AuditEntry') } }, ['audit-list']),
  RegistryListItem: object(
    {
      'content-uuid': uuid,
      title: string,
      'oscal-version': string,
      'document-version': string,
      'last-modified': string,
      self: { type: 'string', format: 'uri-reference' },
    },
    ['content-uuid', 'title', 'oscal-version', 'document-version', 'last-modified', 'self'],
    { description: 'A document in a registry list (registry-api 2.2).' },
  ),
  RegistryList: {
    type: 'array',
    items: ref('RegistryListItem'),
    example: [
      {
        'content-uuid': '8d1ae7b6-6a0c-4ef4-9e2c-2c0cbd8e7cf1',
        title: 'Test catalog',
        'oscal-version': '1.1.2',
        'document-version': '1.0',
        'last-modified': '2024-01-01T00:00:00Z',
        self: '/api/v1/catalogs/8d1ae7b6-6a0c-4ef4-9e2c-2c0cbd8e7cf1',
      },
    ],
  },
  RegistryVersion: object(
    {
      id: { type: 'integer' },
      version: { type: 'integer' },
      title: string,
      documentVersion: string,
      oscalVersion: string,
      lastModified: string,
      fileSize: { type: 'integer', description: 'bytes of the JSON form' },
      createdAt: instant,
      findings: { type: 'array', items: ref('Finding') },
      valid: { type: 'boolean', description: 'false: stored with findings at the reject level (keep-findings=true)' },
    },
    [
      'id',
      'version',
      'title',
      'documentVersion',
      'oscalVersion',
      'lastModified',
      'fileSize',
      'createdAt',
      'findings',
      'valid',
    ],
    { description: 'A version (registry-api 2.4).' },
  ),
  UploadResult: object(
    {
      'content-uuid': uuid,
      'model-type': { type: 'string', enum: [...MODELS] },
      title: string,
      action: { type: 'string', enum: ['created', 'updated'] },
    },
    ['content-uuid', 'model-type', 'title', 'action'],
  ),
  GenericIndex: object(
    {
      interface: string,
      models: {
        type: 'array',
        items: object({ model: { type: 'string', enum: [...MODELS] }, list: { type: 'string', format: 'uri' } }, [
          'model',
          'list',
        ]),
      },
      links: object({ self: string, docs: string, openapi: string, registry: string, validate: string }, [
        'self',
        'docs',
        'openapi',
        'registry',
        'validate',
      ]),
    },
    ['interface', 'models', 'links'],
  ),
  RegistryIndex: object(
    {
      interface: string,
      models: {
        type: 'array',
        items: object(
          {
            model: { type: 'string', enum: [...MODELS] },
            segment: { type: 'string', enum: Object.keys(PLURALS) },
            list: { type: 'string', format: 'uri' },
          },
          ['model', 'segment', 'list'],
        ),
      },
      links: object({ self: string, docs: string, openapi: string, upload: string, generic: string }, [
        'self',
        'docs',
        'openapi',
        'upload',
        'generic',
      ]),
    },
    ['interface', 'models', 'links'],
  ),
  Status: object({ status: string }, ['status']),
};

// ---------------------------------------------------------------------------------------------
// Shorthands for route descriptions

export const HEADERS = {
  location: { Location: { type: 'string', description: 'the URL of what was made' } },
  link: { Link: { type: 'string', description: '<url>; rel="next" when there is a next page' } },
  etag: { ETag: { type: 'string', description: 'weak ETag of the content: send it in If-None-Match' } },
} as const;

/** A JSON response with this schema. */
export function json(
  description: string,
  schema: Json,
  extra: { headers?: Record<string, Json>; example?: unknown } = {},
): ResponseSpec {
  return {
    description,
    content: { 'application/json': { schema, ...(extra.example !== undefined ? { example: extra.example } : {}) } },
    ...(extra.headers ? { headers: extra.headers } : {}),
  };
}

/** A response with no body. */
export function empty(description: string, headers?: Record<string, Json>): ResponseSpec {
  return { description, ...(headers ? { headers } : {}) };
}

/** OSCAL content in the three formats. */
export const OSCAL_CONTENT: Record<string, Media> = {
  'application/json': { schema: ref('OscalJson') },
  'application/xml': { schema: ref('OscalXml') },
  'application/yaml': { schema: ref('OscalYaml') },
};

export function oscal(description: string, headers: Record<string, Json> = HEADERS.etag): ResponseSpec {
  return { description, content: OSCAL_CONTENT, headers };
}

/** A body of OSCAL content (read as bytes by the engine, never by fastify). */
export const OSCAL_BODY = { content: OSCAL_CONTENT };

export function jsonBody(schema: Json, required = true): { required: boolean; content: Record<string, Media> } {
  return { required, content: { 'application/json': { schema } } };
}

export const NOT_MODIFIED = empty('Not modified: If-None-Match names the current ETag', HEADERS.etag);

/** If-None-Match, for reads with an ETag. */
export const CONDITIONAL = {
  type: 'object',
  properties: {
    'if-none-match': { type: 'string', description: 'an ETag this answered earlier: 304 while it is still current' },
  },
} as const;

const ERROR_EXAMPLES: Record<number, [ErrorCode, string]> = {
  400: ['bad-request', 'invalid request: querystring/limit must be >= 1'],
  401: [
    'unauthenticated',
    'authentication is required: send Authorization: Bearer <token> with an API token (oscal-depot token create makes one)',
  ],
  403: ['forbidden', 'you may read this document but not change it'],
  404: ['not-found', 'no such document, or you may not read it'],
  406: ['not-acceptable', ERROR_CODES['not-acceptable'].message],
  409: [
    'conflict',
    'a document with content uuid 8d1ae7b6-6a0c-4ef4-9e2c-2c0cbd8e7cf1 already exists; PUT to replace it',
  ],
  413: ['too-large', 'the body is larger than this server accepts'],
  415: [
    'unsupported-media-type',
    'Content-Type text/plain is not accepted; send application/json, application/xml or application/yaml',
  ],
  429: ['too-many-failures', 'too many failed authentication attempts from this address; try again in 60 s'],
  500: ['internal', 'something went wrong on the server; the request id is 3f1c2b0e-4a5d-4e6f-8a7b-9c0d1e2f3a4b'],
  502: ['provider-error', 'the sign-in provider could not be reached or refused this server; the server log says why'],
  503: ['provider-unavailable', 'the sign-in provider cannot be reached; try again shortly'],
};

function errorExample(status: number): Json {
  if (status === 422) return ERROR_EXAMPLE;
  const [code, message] = ERROR_EXAMPLES[status] ?? ['bad-request', 'the request cannot be served'];
  return { 'status-code': status, code, message };
}

function errorResponse(status: number, description: string, headers?: Record<string, Json>): Json {
  return {
    description,
    content: { 'application/json': { schema: ref('Error'), example: errorExample(status) } },
    ...(headers ? { headers } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// The transform: a route's schema plus its config.openapi, as @fastify/swagger reads them

/** A route whose body may be left out (requestBody.required: false, set after swagger's conversion). */
const OPTIONAL_BODY = 'x-oscal-depot-optional-body';

function responsesOf(d: Described, signIn: boolean): Json {
  const common: Record<number, { text: string; headers?: Record<string, Json> }> = {
    400: { text: 'The request is malformed (a URL with %00, no Host header, a query parameter out of range)' },
    500: { text: 'Something went wrong on the server; the message gives the request id for the log' },
  };
  if (d.api !== false) {
    common[401] = {
      text: 'Credentials were sent and refused: a malformed Authorization header, an unknown, expired or revoked token, an invalid session',
    };
    common[429] = {
      text: 'Too many refused credentials from this address',
      headers: { 'Retry-After': { type: 'string', description: 'seconds until credentials are taken again' } },
    };
    if (signIn) common[503] = { text: 'A provider JWT was sent while the sign-in provider cannot be reached' };
  }
  const statuses = [...new Set([...Object.keys(d.responses), ...Object.keys(common)].map(Number))].sort(
    (a, b) => a - b,
  );
  const out: Json = {};
  for (const status of statuses) {
    const spec = d.responses[status];
    if (spec === undefined) {
      const c = common[status]!;
      out[status] = errorResponse(status, c.text, c.headers);
    } else if (typeof spec === 'string') {
      out[status] = errorResponse(status, spec, common[status]?.headers);
    } else if (spec.content) {
      out[status] = {
        description: spec.description,
        content: spec.content,
        ...(spec.headers ? { headers: spec.headers } : {}),
      };
    } else {
      // No content: @fastify/swagger leaves out the content of `type: 'null'`.
      out[status] = { type: 'null', description: spec.description, ...(spec.headers ? { headers: spec.headers } : {}) };
    }
  }
  return out;
}

function securityOf(access: Access, signIn: boolean): Json[] {
  if (access === 'public') return [];
  const schemes: Json[] = [{ bearer: [] }, ...(signIn ? [{ appSession: [] }] : [])];
  return access === 'optional' ? [...schemes, {}] : schemes;
}

function mergedQuery(validated: unknown, described: Json | undefined): Json | undefined {
  if (!described) return validated as Json | undefined;
  const base = (validated ?? { type: 'object', properties: {} }) as { properties?: Json };
  return { ...base, properties: { ...base.properties, ...(described.properties as Json) } };
}

type TransformInput = { schema: FastifySchema; url: string; route: { config?: { openapi?: Described } } };

export function transform(signIn: boolean) {
  return ({ schema, url, route }: TransformInput): { schema: FastifySchema; url: string } => {
    const d = route.config?.openapi;
    if (!d || (schema as { hide?: boolean } | undefined)?.hide) return { schema, url };
    const querystring = mergedQuery(schema.querystring, d.query);
    const described: Json = {
      ...schema,
      security: securityOf(d.access, signIn),
      ...(querystring ? { querystring } : {}),
      ...(d.headers ? { headers: d.headers } : {}),
      ...(d.body ? { body: { content: d.body.content } } : {}),
      ...(d.body?.required === false ? { [OPTIONAL_BODY]: true } : {}),
      response: responsesOf(d, signIn),
    };
    return { schema: described as FastifySchema, url };
  };
}

/** After swagger's conversion: bodies that may be left out, and no trace of the marker. */
function finish(document: Json): Json {
  for (const item of Object.values((document.paths ?? {}) as Record<string, Record<string, Json>>)) {
    for (const op of Object.values(item)) {
      if (typeof op !== 'object' || op === null || !(OPTIONAL_BODY in op)) continue;
      delete op[OPTIONAL_BODY];
      if (op.requestBody) (op.requestBody as Json).required = false;
    }
  }
  return document;
}

/** Registers @fastify/swagger (the description) and @fastify/swagger-ui (/docs). */
export async function registerOpenApi(
  app: FastifyInstance,
  options: { version: string; signIn: boolean },
): Promise<void> {
  const tags = (Object.values(TAGS) as Tag[])
    .filter((t) => options.signIn || t !== TAGS.signIn)
    .map((name) => ({ name, description: TAG_DESCRIPTIONS[name] }));
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'OSCAL Depot',
        version: options.version,
        description:
          'The generic OSCAL REST interface (/oscal/v1) and the registry variant (/api/v1, /api/upload). Errors of both have one body, the Error schema.',
      },
      tags,
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: options.signIn
              ? 'a local API token, or a JWT from the configured OpenID Connect provider'
              : 'a local API token (oscal-depot token create)',
          },
          ...(options.signIn
            ? {
                appSession: {
                  type: 'apiKey',
                  in: 'cookie',
                  name: 'appSession',
                  description: 'the web session set by /auth/login',
                },
              }
            : {}),
        },
        schemas: SCHEMAS as never,
      },
      security: securityOf('required', options.signIn) as never,
    },
    transform: transform(options.signIn) as never,
    transformObject: (document) => finish((document as { openapiObject: Json }).openapiObject) as never,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });
}
