import { MODELS, PLURALS } from '../oscal/model/models.js';

/**
 * Path parameters, described once for both interfaces. Every uuid-like segment is at most 64
 * characters (a longer one names no resource: 404) and is lower-cased by the one hook
 * (lowerCaseIds) before any handler runs, since identifiers are stored lower-case (D2).
 */
export const ID_LENGTH = 64;

export const uuidParam = (description: string) => ({ type: 'string', maxLength: ID_LENGTH, description }) as const;

export const modelParam = { type: 'string', enum: [...MODELS], description: 'the OSCAL model' } as const;
export const pluralParam = {
  type: 'string',
  enum: Object.keys(PLURALS),
  description: 'the plural model segment',
} as const;
export const idParam = uuidParam('the content uuid of the document');
export const snapshotParam = uuidParam('the snapshot id');
export const resourceParam = uuidParam('the uuid of the back-matter resource');

/** The path parameters of a document's page or resource: its model and id, and any identifiers under it. */
export function documentParams(extra: Record<string, unknown> = {}) {
  return {
    type: 'object',
    properties: { model: modelParam, id: idParam, ...extra },
    required: ['model', 'id'],
  } as const;
}

/** Path parameters that hold identifiers; the query parameter `document` of the audit log is one too. */
const ID_PARAMS = ['id', 'resource', 'snapshot'] as const;

/** Content identifiers are stored lower-case (D2): a UUID in a path or query means the same in either case. */
export async function lowerCaseIds(request: { params: unknown; query: unknown }): Promise<void> {
  const params = request.params as Record<string, unknown>;
  for (const name of ID_PARAMS) {
    const value = params[name];
    if (typeof value === 'string') params[name] = value.toLowerCase();
  }
  const query = request.query as Record<string, unknown> | undefined;
  if (typeof query?.document === 'string') query.document = query.document.toLowerCase();
}
