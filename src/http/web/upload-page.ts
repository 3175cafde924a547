/**
 * Uploading a document or a new version of one from the browser: a plain multipart form (file
 * picker; upload-drop.js adds drag-and-drop), any of the three formats. A refusal is answered with
 * the API's status and the problems beside the offending lines of the uploaded text; one for
 * constraint findings only offers to store the file anyway, as a draft with its findings.
 */
import { extname } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Identity } from '../../auth/identity.js';
import { mayCreate } from '../../auth/policy.js';
import { forbidden, refuse, ServiceError, unauthenticated } from '../../errors.js';
import { decodeDocumentBytes, detectFormatOfBytes } from '../../oscal/formats/decode.js';
import type { Format } from '../../oscal/formats/index.js';
import type { ModelName } from '../../oscal/model/models.js';
import type { DocumentService } from '../../service/documents.js';
import { KEEP_FINDINGS_HINT, KeepableRefusal } from '../../service/validation.js';
import { RESPONSE_TYPE } from '../../service/media-types.js';
import type { RenditionWorkers } from '../../service/rendition-workers.js';
import { documentParams, modelParam } from '../params.js';
import { keepFindingsOf } from '../generic/keep-findings.js';
import { fileField } from '../request-body.js';
import { html, type Html } from './html.js';
import { MODEL_LABELS, sendPage, type SignInMode } from './layout.js';
import { refusalView } from './views/refusal.js';

interface UploadDeps {
  documents: DocumentService;
  workers?: RenditionWorkers;
  signIn: SignInMode;
  maxBody: number;
}

type Params = { model: ModelName; id?: string };

const EXTENSIONS: Record<string, Format> = { '.json': 'json', '.xml': 'xml', '.yaml': 'yaml', '.yml': 'yaml' };

/** The file's format by its name, as people name them; by its first character when the name says nothing. */
function formatOfFile(filename: string, bytes: Buffer): Format {
  return EXTENSIONS[extname(filename).toLowerCase()] ?? detectFormatOfBytes(bytes);
}

function uploadForm(action: string, legend: string): Html {
  return html`<form method="post" action="${action}" enctype="multipart/form-data" class="upload" id="upload-form">
    <fieldset>
      <legend>${legend}</legend>
      <div class="drop-zone" id="drop-zone">
        <label for="file">OSCAL file (JSON, XML or YAML)</label>
        <input id="file" name="file" type="file" accept=".json,.xml,.yaml,.yml" required />
        <p class="hint" id="drop-hint">Or drop the file here.</p>
      </div>
      <button type="submit">Upload</button>
    </fieldset>
  </form>`;
}

/**
 * After a refusal for constraint findings only, the same file sent again with keep-findings: the
 * bytes travel in the page (base64, exact whatever their line ends), so that the button works
 * without script and without the server holding refused uploads anywhere.
 */
function storeAnywayForm(action: string, file: { filename: string; bytes: Buffer }, findings: number): Html {
  return html`<form method="post" action="${action}" enctype="multipart/form-data" class="store-anyway">
    <input type="hidden" name="keep-findings" value="true" />
    <input type="hidden" name="filename" value="${file.filename}" />
    <input type="hidden" name="content" value="${file.bytes.toString('base64')}" />
    <p class="hint">
      Its schema is valid: it can be kept as a draft, marked as having these findings, and corrected in a later version.
    </p>
    <button type="submit">Store anyway, with ${findings} finding${findings === 1 ? '' : 's'}</button>
  </form>`;
}

/** What a refused upload's page says: the API's message, and its details beside the uploaded lines. */
function refusedBody(
  heading: Html,
  form: Html,
  action: string,
  file: { filename: string; bytes: Buffer },
  error: ServiceError,
): Html {
  let source: string | undefined;
  try {
    source = decodeDocumentBytes(file.bytes, formatOfFile(file.filename, file.bytes));
  } catch {
    // Bytes in no encoding we read: the message says so, and there are no lines to show.
  }
  const keepable = error instanceof KeepableRefusal;
  const refusal = refusalView({
    file: file.filename || 'The file',
    // The API's hint names its query parameter; here the button below says it.
    message: keepable ? error.message.replace(` (${KEEP_FINDINGS_HINT})`, '') : error.message,
    errors: error.errors ?? [],
    ...(source !== undefined ? { source } : {}),
  });
  return html`${heading} ${refusal} ${keepable && storeAnywayForm(action, file, error.findingsAtRejectLevel)} ${form}`;
}

/** Base64 of `bytes` bytes: the size the "content" field of the store-anyway form may reach. */
const base64Length = (bytes: number) => Math.ceil(bytes / 3) * 4;

/**
 * The uploaded file: the form's file, or the bytes a store-anyway form sent back (base64 in
 * "content", with the name in "filename"); and whether its findings are to be kept.
 */
async function uploaded(
  request: FastifyRequest,
  maxBody: number,
): Promise<{ file: { filename: string; bytes: Buffer }; keepFindings: boolean }> {
  const fields = new Map<string, string>();
  const file = request.isMultipart()
    ? await fileField(request, maxBody, { fields, fieldSize: base64Length(maxBody) })
    : undefined;
  const keepFindings = keepFindingsOf(request, fields.get('keep-findings'));
  const content = fields.get('content');
  if (!file && content !== undefined) {
    const bytes = Buffer.from(content, 'base64');
    if (bytes.length > maxBody) throw refuse('too-large', 'the file is larger than this server accepts');
    return { file: { filename: fields.get('filename') ?? '', bytes }, keepFindings };
  }
  if (!file || file.bytes.length === 0) throw refuse('missing-file', 'choose a file to upload');
  return { file, keepFindings };
}

/** GET and POST /upload/<model> (a new document) and /documents/<model>/<id>/upload (a new version). */
export function uploadRoutes(app: FastifyInstance, deps: UploadDeps): void {
  const { documents, signIn } = deps;

  /** Who may upload here, and the page's heading and form; refusals as the API's. */
  async function target(identity: Identity, { model, id }: Params) {
    if (identity.kind === 'anonymous') throw unauthenticated();
    if (id === undefined) {
      if (!mayCreate(identity)) throw refuse('forbidden', 'uploading documents needs the writer or admin role');
      const label = MODEL_LABELS[model];
      return {
        title: `Upload to ${label.toLowerCase()}`,
        heading: html`<nav aria-label="Breadcrumb"><a href="/browse/${model}">${label}</a></nav>
          <h1>Upload a new document</h1>`,
        action: `/upload/${model}`,
        form: uploadForm(`/upload/${model}`, `A new ${model}`),
      };
    }
    const { doc, rights } = await documents.readable(identity, model, id);
    if (!rights.write) throw forbidden('change it');
    const base = `/documents/${model}/${id}`;
    return {
      title: `New version of ${doc.title}`,
      heading: html`<nav aria-label="Breadcrumb"><a href="${base}">${doc.title}</a></nav>
        <h1>Upload a new version</h1>
        <p>
          The file replaces the current version of <strong>${doc.title}</strong>; earlier versions stay in its history.
        </p>`,
      action: `${base}/upload`,
      form: uploadForm(`${base}/upload`, 'The new version'),
    };
  }

  async function showForm(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) {
    const { title, heading, form } = await target(request.identity, request.params);
    return sendPage(reply, {
      title,
      identity: request.identity,
      signIn,
      body: html`${heading} ${form}`,
      scripts: ['upload-drop.js'],
    });
  }

  async function receive(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) {
    const { identity, params } = request;
    const page = await target(identity, params);
    const { file, keepFindings } = await uploaded(request, deps.maxBody);
    const contentType = RESPONSE_TYPE[formatOfFile(file.filename, file.bytes)];
    try {
      const { model, id } = params;
      let stored = id;
      if (stored === undefined)
        stored = (await documents.create(identity, model, file.bytes, contentType, { keepFindings })).record.id;
      else await documents.replace(identity, model, stored, file.bytes, contentType, { keepFindings });
      deps.workers?.wake();
      return reply.code(303).header('location', `/documents/${model}/${stored}`).send();
    } catch (e) {
      if (!(e instanceof ServiceError) || e.status >= 500 || e.status === 401) throw e;
      return sendPage(
        reply,
        {
          title: `Not stored: ${page.title}`,
          identity,
          signIn,
          body: refusedBody(page.heading, page.form, page.action, file, e),
          scripts: ['upload-drop.js'],
        },
        { status: e.status, caching: 'no-store' },
      );
    }
  }

  const newParams = { type: 'object', properties: { model: modelParam }, required: ['model'] } as const;
  const versionParams = documentParams();
  app.get<{ Params: Params }>('/upload/:model', { schema: { hide: true, params: newParams } }, showForm);
  app.post<{ Params: Params }>('/upload/:model', { schema: { hide: true, params: newParams } }, receive);
  app.get<{ Params: Params }>(
    '/documents/:model/:id/upload',
    { schema: { hide: true, params: versionParams } },
    showForm,
  );
  app.post<{ Params: Params }>(
    '/documents/:model/:id/upload',
    { schema: { hide: true, params: versionParams } },
    receive,
  );
}
