import { refuse } from '../errors.js';

/**
 * A JSON request body of settings (access, aliases, a resource entry, snapshot notes), parsed: the
 * one reader, so that every such body answers the same 415 and 400. `what` names the body in the
 * 415 ("the aliases are"); `alternative` says what else would do ("no body").
 */
export function parseJsonBody(
  body: Buffer,
  contentType: string | undefined,
  what: string,
  alternative?: string,
): unknown {
  if (!/^application\/json\b/i.test(contentType ?? '')) {
    throw refuse(
      'unsupported-media-type',
      `${what} JSON: send Content-Type: application/json${alternative ? `, or ${alternative}` : ''}`,
    );
  }
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw refuse('malformed', 'the body is not valid JSON');
  }
}
