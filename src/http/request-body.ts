import type { FastifyRequest } from 'fastify';
import { refuse } from '../errors.js';
import { parseJsonBody } from '../service/json-body.js';
import { malformedForm } from './errors.js';

export function bodyOf(request: FastifyRequest): Buffer {
  return Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
}

/** A JSON request body, parsed; `what` names it in the 415 when it is sent as something else. */
export function jsonBodyOf(request: FastifyRequest, what: string): unknown {
  return parseJsonBody(bodyOf(request), request.headers['content-type'], what);
}

/**
 * The form's field "file": its bytes, name and type; other file parts are read and dropped. The
 * text fields go into `fields` when it is given (a field longer than `fieldSize`, 64 KB unless
 * said, is refused), else they are dropped too.
 */
export async function fileField(
  request: FastifyRequest,
  limit: number,
  form: { fields?: Map<string, string>; fieldSize?: number } = {},
): Promise<{ bytes: Buffer; filename: string; mediaType: string } | undefined> {
  let file: { bytes: Buffer; filename: string; mediaType: string } | undefined;
  let fieldBytes = 0;
  try {
    const options = form.fieldSize === undefined ? undefined : { limits: { fieldSize: form.fieldSize } };
    for await (const part of request.parts(options)) {
      if (part.type !== 'file') {
        if (!form.fields) continue;
        const value = String(part.value);
        // A raised fieldSize is for one large field: all of them together may not go far beyond it.
        fieldBytes += value.length;
        if (part.valueTruncated || fieldBytes > (form.fieldSize ?? 0) + FIELDS_SLACK)
          throw refuse('too-large', `the form field ${part.fieldname} is longer than accepted`);
        form.fields.set(part.fieldname, value);
        continue;
      }
      // Every file part is read to its end (the parser waits for that), but only "file" is kept.
      const bytes = await part.toBuffer();
      if (part.file.truncated || bytes.length > limit)
        throw refuse('too-large', 'the file is larger than this server accepts');
      if (part.fieldname === 'file') file = { bytes, filename: formFilename(part.filename), mediaType: part.mimetype };
    }
  } catch (e) {
    throw malformedForm(e);
  }
  return file;
}

/** Form encoders (browsers, curl, fetch's FormData) send `"`, CR and LF of a file name as %22, %0D, %0A. */
function formFilename(name: string): string {
  return name.replace(/%(22|0D|0A)/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** What a form's small fields (names, flags) may add to its one large field. */
const FIELDS_SLACK = 64 * 1024;

export const MULTIPART_LIMITS = { files: 1, fields: 10, parts: 20, headerPairs: 100, fieldSize: 64 * 1024 };
