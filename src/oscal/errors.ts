/** Where in the input a problem is: a JSON pointer into the OSCAL JSON form and, when known, the source position. */
export interface ErrorLocation {
  path?: string;
  line?: number;
  column?: number;
}

export type OscalErrorCode =
  | 'malformed' // not parseable as the format at all
  | 'unsupported-encoding' // bytes in a character encoding that is not read
  | 'forbidden-construct' // DOCTYPE, entities and the like
  | 'unknown-root' // the root is no OSCAL model at all
  | 'model-not-in-version' // an OSCAL model, but not one of the release the document declares
  | 'unknown-element'
  | 'unknown-property'
  | 'invalid-value'
  | 'invalid-structure'
  | 'invalid-markup'
  | 'unsupported-version'
  | 'wrong-model'; // two documents compared that are not of one model

/** Every problem the engine reports about a document: stable code, a sentence a person can act on, and where. */
export class OscalError extends Error {
  readonly code: OscalErrorCode;
  path?: string;
  line?: number;
  column?: number;

  constructor(code: OscalErrorCode, message: string, location: ErrorLocation = {}) {
    super(message);
    this.name = 'OscalError';
    this.code = code;
    if (location.path !== undefined) this.path = location.path;
    if (location.line !== undefined) this.line = location.line;
    if (location.column !== undefined) this.column = location.column;
  }
}

export function pointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}
