/**
 * The error catalogue: every code a client can receive, once, with its HTTP status and the message
 * used when the raiser has nothing more precise to say. docs/errors.md lists the same codes; a test
 * (test/errors-catalogue.test.ts) holds the two in step. This module sits below every layer and
 * imports none of them, so the store, auth, the services and both HTTP interfaces all raise from it.
 */
export const ERROR_CODES = {
  'bad-request': { status: 400, message: 'the request is not valid: a parameter, header or settings body is wrong' },
  malformed: { status: 400, message: 'the body is not well-formed' },
  'invalid-json': { status: 400, message: 'the body is not valid JSON' },
  'forbidden-construct': { status: 400, message: 'the XML uses a DOCTYPE, entity or processing instruction' },
  'missing-file': { status: 400, message: 'the form holds no file: send it in the field "file"' },
  'invalid-version': { status: 400, message: 'not a version number: versions are numbered 1, 2, 3, …' },
  'invalid-metadata': { status: 400, message: "the document's content-uuid is not a version 4 or 5 UUID" },
  'immutable-field': { status: 400, message: 'the field is set by the server and cannot be changed' },
  'unknown-constraint-set': { status: 400, message: 'no constraint set of that name is registered' },
  'invalid-expression': { status: 400, message: 'the expression is not valid Metapath' },
  unauthenticated: { status: 401, message: 'authentication is required' },
  'sign-in-failed': { status: 401, message: 'the sign-in did not complete; start again at /auth/login' },
  forbidden: { status: 403, message: 'you may not do this' },
  'not-found': { status: 404, message: 'no such resource, or you may not read it' },
  'not-acceptable': {
    status: 406,
    message: 'Accept names no format this server produces: use application/json, application/xml or application/yaml',
  },
  'not-representable': { status: 406, message: 'this document cannot be given in the format asked for' },
  timeout: { status: 408, message: 'the request did not arrive in time' },
  conflict: { status: 409, message: 'the request conflicts with the stored state' },
  'legal-hold': { status: 409, message: 'the document is under a legal hold' },
  'last-version': { status: 409, message: 'the only version of a document cannot be deleted' },
  'too-large': { status: 413, message: 'the body is larger than this server accepts' },
  'too-many-parts': { status: 413, message: 'the form has too many parts; send one file, in the field "file"' },
  'unsupported-media-type': { status: 415, message: 'this Content-Type is not accepted here' },
  'unsupported-encoding': { status: 415, message: 'the body is in a character encoding this server does not read' },
  'expectation-failed': { status: 417, message: 'this server meets no expectation but 100-continue' },
  'invalid-oscal': { status: 422, message: 'the body is not valid OSCAL' },
  'wrong-model': { status: 422, message: 'the document is of another OSCAL model than the path names' },
  'unknown-model': { status: 422, message: 'the path names no OSCAL model type' },
  'invalid-identifier': { status: 422, message: "the document's content identifier is not a version 4 or 5 UUID" },
  'invalid-constraint-set': { status: 422, message: 'the constraint set is not valid' },
  'import-not-found': { status: 422, message: 'a profile import names nothing this server can find' },
  'import-not-readable': { status: 422, message: 'a profile import is not OSCAL that can be read' },
  'not-a-catalog-or-profile': { status: 422, message: 'a profile import is neither a catalog nor a profile' },
  'circular-import': { status: 422, message: 'a profile imports itself, directly or through others' },
  'invalid-profile': { status: 422, message: 'the profile holds a directive that stops resolution' },
  'expression-failed': { status: 422, message: 'the Metapath expression raised an error when evaluated' },
  'expression-too-costly': {
    status: 422,
    message: 'the Metapath expression needed more time or memory than this server gives one',
  },
  'version-mismatch': { status: 422, message: 'the profile and an import are of different OSCAL major versions' },
  'too-many-failures': { status: 429, message: 'too many failed authentication attempts from this address' },
  'headers-too-large': { status: 431, message: 'the request headers are larger than this server accepts' },
  internal: { status: 500, message: 'something went wrong on the server' },
  'provider-error': { status: 502, message: 'the sign-in provider could not be reached or refused this server' },
  'provider-unavailable': { status: 503, message: 'the sign-in provider cannot be reached; try again shortly' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}

/** A problem detail of the error body: where in the document, and where in the source. */
export interface ErrorDetail {
  path: string;
  message: string;
  line?: number;
  column?: number;
}

/** An error body lists at most this many details (the message says how many there were). */
export const MAX_ERROR_DETAILS = 100;

export interface RefusalExtras {
  errors?: ErrorDetail[];
  /** Response headers the refusal calls for, such as Retry-After. */
  headers?: Record<string, string>;
}

/** A refusal of a request: a catalogued code, its status, and a message a person can act on. */
export class ServiceError extends Error {
  readonly status: number;
  readonly errors?: ErrorDetail[];
  readonly headers?: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    extras: RefusalExtras = {},
  ) {
    super(message);
    this.name = 'ServiceError';
    this.status = ERROR_CODES[code].status;
    if (extras.errors) this.errors = extras.errors;
    if (extras.headers) this.headers = extras.headers;
  }
}

/** The one way to raise a refusal; without a message, the catalogue's. */
export function refuse(
  code: ErrorCode,
  message: string = ERROR_CODES[code].message,
  extras?: RefusalExtras,
): ServiceError {
  return new ServiceError(code, message, extras);
}

export const notFound = (what = 'document') => refuse('not-found', `no such ${what}, or you may not read it`);
export const forbidden = (what: string) => refuse('forbidden', `you may read this document but not ${what}`);

/**
 * No credentials where they are needed. The message says how to authenticate on this server, which
 * only the HTTP layer knows (whether web sign-in is configured): it rewords this refusal.
 */
export class AuthenticationRequired extends ServiceError {
  constructor() {
    super('unauthenticated', authenticationRequired(false));
  }
}

/** How to authenticate: a bearer token always; the web sign-in only where there is one. */
export function authenticationRequired(signIn: boolean): string {
  return signIn
    ? 'authentication is required: send Authorization: Bearer <token> (a local API token or a JWT of the OpenID Connect provider), or sign in at /auth/login'
    : 'authentication is required: send Authorization: Bearer <token> with an API token (oscal-depot token create makes one)';
}

export const unauthenticated = () => new AuthenticationRequired();

/**
 * A record read back, after a write or a check of the caller's rights: a delete committed in
 * between (another request, or another process) makes it 404, as a request a moment later gets.
 */
export function found<T>(record: T | undefined, what = 'document'): T {
  if (record === undefined) throw notFound(what);
  return record;
}

export type StoreConflictReason = 'exists' | 'legal-hold' | 'not-found' | 'last-version' | 'stale';

/** A write the store refused because of what it holds; the services say what it means to the client. */
export class StoreConflictError extends Error {
  constructor(
    readonly reason: StoreConflictReason,
    message: string,
  ) {
    super(message);
    this.name = 'StoreConflictError';
  }
}

const CONFLICT_CODES: Record<Exclude<StoreConflictReason, 'not-found'>, ErrorCode> = {
  exists: 'conflict',
  stale: 'conflict',
  'legal-hold': 'legal-hold',
  'last-version': 'last-version',
};

/** What the client is told for each store conflict a call expects: a message, or one made from the store's. */
export type ConflictWording = Partial<
  Record<Exclude<StoreConflictReason, 'not-found'>, string | ((stored: string) => string)>
>;

/**
 * The one translation of store conflicts: a record gone is the 404 of `what`; each reason the
 * caller words becomes its catalogued refusal; anything else goes on unchanged (a reason the call
 * did not expect is a bug, and answers 500).
 */
export function storeRefusal(error: unknown, wording: ConflictWording = {}, what = 'document'): unknown {
  if (!(error instanceof StoreConflictError)) return error;
  if (error.reason === 'not-found') return notFound(what);
  const words = wording[error.reason];
  if (words === undefined) return error;
  return refuse(CONFLICT_CODES[error.reason], typeof words === 'string' ? words : words(error.message));
}
