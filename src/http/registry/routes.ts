import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { OscalError } from '../../oscal/errors.js';
import { decodeDocumentBytes, detectFormatOfBytes } from '../../oscal/formats/index.js';
import { checkedAliases, type AliasService } from '../../service/aliases.js';
import { retryWhenGone, revisionRecord } from '../../service/content.js';
import type { DiffService } from '../../service/diff.js';
import type { DocumentService } from '../../service/documents.js';
import { PLURALS } from '../../oscal/model/models.js';
import { idParam, pluralParam } from '../params.js';
import { refuse } from '../../errors.js';
import type { RegistryService } from '../../service/registry.js';
import type { RenditionWorkers } from '../../service/rendition-workers.js';
import type { DocumentRecord, RevisionRecord, Store } from '../../store/types.js';
import { findingJson } from '../findings.js';
import { IGNORE_VOLATILE } from '../generic/diff-routes.js';
import { keepFindingsOf, KEEP_FINDINGS_PARAM } from '../generic/keep-findings.js';
import { LIST_QUERYSTRING, listPage, type ListQuerystring } from '../list-page.js';
import { bodyOf, fileField, MULTIPART_LIMITS } from '../request-body.js';
import { sendStored } from '../send-rendition.js';
import { CONDITIONAL, describe, empty, HEADERS, json, NOT_MODIFIED, ref, TAGS, type ResponseSpec } from '../openapi.js';

const SEGMENT_OF = Object.fromEntries(Object.entries(PLURALS).map(([plural, model]) => [model, plural]));

export interface RegistryDeps {
  store: Store;
  documents: DocumentService;
  registry: RegistryService;
  aliases: AliasService;
  diff: DiffService;
  workers?: RenditionWorkers;
  publicUrl: string;
  maxBody: number;
}

const idParams = {
  type: 'object',
  properties: { plural: pluralParam, id: idParam },
  required: ['plural', 'id'],
} as const;
const versionParams = {
  type: 'object',
  properties: {
    plural: pluralParam,
    id: idParam,
    version: { type: 'string', maxLength: 20, description: 'the version number, from 1' },
  },
  required: ['plural', 'id', 'version'],
} as const;

const tags = [TAGS.registry];
const UNKNOWN_PLURAL = 'The path names no model segment (unknown-model)';
const NO_DOCUMENT = 'No such document, or the caller may not read it';
const OSCAL_JSON = (description: string): ResponseSpec => ({
  description,
  content: { 'application/json': { schema: ref('OscalJson') } },
  headers: HEADERS.etag,
});
const JSON_BODY = { content: { 'application/json': { schema: ref('OscalJson') } } };
const WRITE_QUERY = { type: 'object', properties: { 'keep-findings': KEEP_FINDINGS_PARAM } } as const;
const PUBLIC_READ =
  'Public: anonymous callers read public documents; with credentials, also what else the caller may read.';

function versionNumber(text: string): number {
  if (!/^[1-9]\d{0,8}$/.test(text))
    throw refuse('invalid-version', `"${text}" is not a version number: versions are numbered 1, 2, 3, …`);
  return Number(text);
}

/** A document list item (registry-api 2.2). */
function listItem(doc: DocumentRecord): Record<string, unknown> {
  return {
    'content-uuid': doc.id,
    title: doc.title,
    'oscal-version': doc.oscalVersion,
    'document-version': doc.version,
    'last-modified': doc.lastModified,
    self: `/api/v1/${SEGMENT_OF[doc.model]}/${doc.id}`,
  };
}

/**
 * A version list item (registry-api 2.4): fileSize is the byte length of that version's JSON;
 * findings are what constraint validation found when it was stored (below the reject level,
 * unless it was kept with them: then `valid` is false).
 */
function versionItem(r: RevisionRecord): Record<string, unknown> {
  return {
    id: r.recordId,
    version: r.number,
    title: r.fields.title,
    documentVersion: r.fields.version,
    oscalVersion: r.fields.oscalVersion,
    lastModified: r.fields.lastModified,
    fileSize: r.size,
    createdAt: r.createdAt,
    findings: r.findings.map(findingJson),
    valid: r.valid,
  };
}

/** /api/v1/{plural}… : JSON only, reads public (of public documents), writes authenticated. */
export async function registryRoutes(api: FastifyInstance, deps: RegistryDeps): Promise<void> {
  const { store, documents, registry } = deps;

  api.get<{ Params: { plural: string }; Querystring: ListQuerystring }>(
    '/:plural',
    {
      ...describe({
        operationId: 'registryList',
        summary: 'List the documents of a model (registry)',
        tags,
        access: 'public',
        description: `${PUBLIC_READ} Paged: the next page is in the Link header.`,
        params: { type: 'object', properties: { plural: pluralParam }, required: ['plural'] },
        querystring: LIST_QUERYSTRING,
        responses: {
          200: json('One page of the list (a bare array)', ref('RegistryList'), { headers: HEADERS.link }),
          400: 'A query parameter is out of range, or the cursor is not one this server gave out',
          422: UNKNOWN_PLURAL,
        },
      }),
    },
    async (request, reply) => {
      const { plural } = request.params;
      const items = await listPage(
        documents,
        request.identity,
        PLURALS[plural]!,
        request.query,
        reply,
        `${deps.publicUrl}/api/v1/${plural}`,
      );
      return items.map(listItem);
    },
  );

  api.get<{ Params: { plural: string; id: string } }>(
    '/:plural/:id',
    describe({
      operationId: 'registryGet',
      summary: 'The latest version as OSCAL JSON',
      tags,
      access: 'public',
      description: PUBLIC_READ,
      params: idParams,
      headers: CONDITIONAL,
      responses: {
        200: OSCAL_JSON('The latest version'),
        304: NOT_MODIFIED,
        404: NO_DOCUMENT,
        409: 'The document kept changing while it was read',
        422: UNKNOWN_PLURAL,
      },
    }),
    async (request, reply) => {
      return retryWhenGone(async () => {
        const { doc } = await documents.readable(request.identity, PLURALS[request.params.plural]!, request.params.id);
        return sendStored(
          store,
          request,
          reply,
          (await revisionRecord(store, doc.id, doc.revision)).canonicalHash,
          'application/json',
        );
      });
    },
  );

  api.put<{ Params: { plural: string; id: string }; Body: Buffer }>(
    '/:plural/:id',
    describe({
      operationId: 'registryPut',
      summary: 'Create (201) or add a version (204)',
      tags,
      access: 'required',
      params: idParams,
      query: WRITE_QUERY,
      description: 'OSCAL JSON whose content-uuid (its document-ids entry, else its root uuid) is the one in the path.',
      body: JSON_BODY,
      responses: {
        201: empty('Created'),
        204: empty('A new version was added'),
        400: 'The body is not valid JSON, its content-uuid is not a version 4 or 5 UUID, or keep-findings is neither true nor false',
        401: 'No credentials, or refused ones',
        403: "Creating needs the writer or admin role; changing another user's document, a write grant",
        404: 'The content-uuid names a document the caller may not read',
        409: 'The content-uuid differs from the path, or belongs to a document of another model',
        413: 'The body is larger than this server accepts',
        415: 'The body is not application/json',
        422: 'Not valid OSCAL, another model than the path names, findings at the reject level (without keep-findings), or an unknown model segment',
      },
    }),
    async (request, reply) => {
      const action = await registry.upsert(
        request.identity,
        PLURALS[request.params.plural]!,
        request.params.id,
        bodyOf(request),
        request.headers['content-type'],
        { keepFindings: keepFindingsOf(request) },
      );
      deps.workers?.wake();
      return reply.code(action === 'created' ? 201 : 204).send();
    },
  );

  api.delete<{ Params: { plural: string; id: string } }>(
    '/:plural/:id',
    describe({
      operationId: 'registryDelete',
      summary: 'Delete a document with all its versions',
      tags,
      access: 'required',
      params: idParams,
      responses: {
        204: empty('Deleted'),
        401: 'No credentials, or refused ones',
        403: 'Only the owner or an admin may delete it',
        404: NO_DOCUMENT,
        409: 'The document is under a legal hold',
        422: UNKNOWN_PLURAL,
      },
    }),
    async (request, reply) => {
      await documents.remove(request.identity, PLURALS[request.params.plural]!, request.params.id);
      return reply.code(204).send();
    },
  );

  api.get<{ Params: { plural: string; id: string } }>(
    '/:plural/:id/versions',
    describe({
      operationId: 'registryVersions',
      summary: 'Versions, newest first (owner or admin)',
      tags,
      access: 'required',
      params: idParams,
      responses: {
        200: json('The versions, newest first', { type: 'array', items: ref('RegistryVersion') }),
        401: 'No credentials, or refused ones',
        403: 'Only the owner or an admin may list versions',
        404: NO_DOCUMENT,
        422: UNKNOWN_PLURAL,
      },
    }),
    async (request) => {
      const versions = await registry.versions(request.identity, PLURALS[request.params.plural]!, request.params.id);
      return versions.map(versionItem);
    },
  );

  api.get<{ Params: { plural: string; id: string; version: string } }>(
    '/:plural/:id/versions/:version',
    describe({
      operationId: 'registryGetVersion',
      summary: 'One version as OSCAL JSON',
      tags,
      access: 'public',
      description: PUBLIC_READ,
      params: versionParams,
      headers: CONDITIONAL,
      responses: {
        200: OSCAL_JSON('The version'),
        304: NOT_MODIFIED,
        400: 'Not a version number (versions are numbered 1, 2, 3, ...)',
        404: 'No such document or version, or the caller may not read the document',
        409: 'The document kept changing while it was read',
        422: UNKNOWN_PLURAL,
      },
    }),
    async (request, reply) => {
      return retryWhenGone(async () => {
        const revision = await registry.version(
          request.identity,
          PLURALS[request.params.plural]!,
          request.params.id,
          versionNumber(request.params.version),
        );
        return sendStored(store, request, reply, revision.canonicalHash, 'application/json');
      });
    },
  );

  api.get<{
    Params: { plural: string; id: string; version: string; other: string };
    Querystring: { 'ignore-volatile': boolean };
  }>(
    '/:plural/:id/versions/:version/diff/:other',
    describe({
      operationId: 'registryDiffVersions',
      summary: 'What changed from one version to another, in OSCAL terms',
      tags,
      access: 'public',
      description: `${PUBLIC_READ} Either version may be the older.`,
      params: {
        ...versionParams,
        properties: {
          ...versionParams.properties,
          other: { type: 'string', maxLength: 20, description: 'the version compared with, from 1' },
        },
        required: [...versionParams.required, 'other'],
      },
      querystring: { type: 'object', properties: { 'ignore-volatile': IGNORE_VOLATILE } },
      responses: {
        200: json('The diff report from the first version to the second', ref('DiffReport')),
        400: 'Not a version number (versions are numbered 1, 2, 3, ...)',
        404: 'No such document or version, or the caller may not read the document',
        409: 'The document kept changing while it was read',
        422: UNKNOWN_PLURAL,
      },
    }),
    async (request) => {
      const { plural, id, version, other } = request.params;
      return deps.diff.compare(
        request.identity,
        PLURALS[plural]!,
        id,
        String(versionNumber(version)),
        String(versionNumber(other)),
        { ignoreVolatile: request.query['ignore-volatile'] },
      );
    },
  );

  api.delete<{ Params: { plural: string; id: string; version: string } }>(
    '/:plural/:id/versions/:version',
    describe({
      operationId: 'registryDeleteVersion',
      summary: 'Delete one version (never the only one)',
      tags,
      access: 'required',
      params: versionParams,
      responses: {
        204: empty('Deleted; the newest remaining version is the current one'),
        400: 'Not a version number',
        401: 'No credentials, or refused ones',
        403: 'Only the owner or an admin may delete versions',
        404: 'No such document or version, or the caller may not read the document',
        409: 'The only version, or the document is under a legal hold',
        422: UNKNOWN_PLURAL,
      },
    }),
    async (request, reply) => {
      await registry.deleteVersion(
        request.identity,
        PLURALS[request.params.plural]!,
        request.params.id,
        versionNumber(request.params.version),
      );
      return reply.code(204).send();
    },
  );
}

/**
 * The first line that is not blank, a comment, a directive or a document start is `key:`: a YAML
 * mapping, as an OSCAL document in YAML is (and no JSON, broken or not, starts so).
 */
const YAML_MAPPING = /^(?:[ \t]*(?:#[^\n]*)?\r?\n|%[^\n]*\n|---[ \t]*\r?\n)*[A-Za-z_][\w.-]*[ \t]*:(?:[ \t]|\r?\n|$)/;

/**
 * The bytes of an uploaded file, unless they are recognisably XML or YAML: a form part's own type is
 * whatever the client guessed from the file name (curl says application/octet-stream), so the
 * bytes decide. XML and YAML are 415, as registry-api 7 and 8 have it (OSCAL JSON only); anything
 * else is left to the JSON reader, so that broken JSON stays 400 and JSON that is no OSCAL 422.
 */
function onlyJson(file: { bytes: Buffer; filename: string } | undefined): Buffer | undefined {
  if (!file || file.bytes.length === 0) return file?.bytes;
  const format = detectFormatOfBytes(file.bytes);
  const other =
    format === 'xml'
      ? 'XML'
      : format === 'yaml' &&
          YAML_MAPPING.test(
            file.bytes
              .subarray(0, 4096)
              .toString('latin1')
              .replace(/^\u00ef\u00bb\u00bf/, ''),
          )
        ? 'YAML'
        : undefined;
  if (!other) return file.bytes;
  const name = file.filename ? ` ${JSON.stringify(file.filename)}` : '';
  // UTF-16 is only read as XML: bytes in it that are no XML are named by their encoding.
  if (other === 'XML') unreadable(file.bytes, name);
  throw refuse(
    'unsupported-media-type',
    `the file${name} is ${other}: the registry takes OSCAL JSON only; convert it (oscal-depot convert --to json) or send it to the generic interface, /oscal/v1`,
  );
}

function unreadable(bytes: Buffer, name: string): void {
  try {
    decodeDocumentBytes(bytes);
  } catch (e) {
    if (e instanceof OscalError && e.code === 'unsupported-encoding')
      throw refuse('unsupported-encoding', `the file${name} cannot be read: ${e.message}`);
  }
}

/** POST /api/upload: a JSON body, or multipart/form-data with the file in field `file`. */
export async function uploadRoute(scope: FastifyInstance, deps: RegistryDeps): Promise<void> {
  await scope.register(multipart, { limits: { fileSize: deps.maxBody, ...MULTIPART_LIMITS } });
  scope.post(
    '/api/upload',
    describe({
      operationId: 'registryUpload',
      summary: 'Upload an OSCAL JSON document: created (201) or updated (200)',
      tags,
      access: 'required',
      description:
        "The model and content-uuid come from the document. A multipart upload's file name becomes an alias of the document. keep-findings may also be sent as a form field of the multipart upload.",
      query: WRITE_QUERY,
      body: {
        content: {
          'application/json': { schema: ref('OscalJson') },
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: {
                file: { type: 'string', format: 'binary', description: 'the OSCAL JSON file' },
                'keep-findings': { type: 'string', enum: ['true', 'false'], description: 'as the query parameter' },
              },
              required: ['file'],
            },
          },
        },
      },
      responses: {
        200: json('A new version of the existing document', ref('UploadResult')),
        201: json('Created', ref('UploadResult')),
        400: 'No file, a malformed form, JSON that cannot be read, a content-uuid that is not a version 4 or 5 UUID, or keep-findings neither true nor false',
        401: 'No credentials, or refused ones',
        403: "Creating needs the writer or admin role; changing another user's document, a write grant",
        404: 'The content-uuid names a document the caller may not read',
        409: 'The content-uuid belongs to a document of another model',
        413: 'The file is larger than this server accepts, or the form has too many parts',
        415: 'Neither application/json nor multipart/form-data, or the file is XML or YAML (the registry takes OSCAL JSON only)',
        422: 'Not valid OSCAL, or findings at the reject level (without keep-findings)',
      },
    }),
    async (request, reply) => {
      const fields = new Map<string, string>();
      const file = request.isMultipart() ? await fileField(request, deps.maxBody, { fields }) : undefined;
      const body = request.isMultipart() ? onlyJson(file) : bodyOf(request);
      if (!request.isMultipart() && !/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
        throw refuse(
          'unsupported-media-type',
          'upload takes application/json, or multipart/form-data with the file in field "file"',
        );
      }
      const keepFindings = keepFindingsOf(request, fields.get('keep-findings'));
      const { action, record } = await deps.registry.upload(request.identity, body, { keepFindings });
      // Profiles import a catalog by its file name: the name it was uploaded with is an alias.
      if (file?.filename)
        await deps.aliases.add(request.identity, record.id, checkedAliases([file.filename], 'the file name'));
      deps.workers?.wake();
      return reply
        .code(action === 'created' ? 201 : 200)
        .send({ 'content-uuid': record.id, 'model-type': record.model, title: record.title, action });
    },
  );
}
