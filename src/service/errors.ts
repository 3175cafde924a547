/** A problem detail for the error body of D3: where in the document, and where in the source. */
export interface ErrorDetail {
  path: string;
  message: string;
  line?: number;
  column?: number;
}

/** An error body lists at most this many details (the message says how many there were). */
export const MAX_ERROR_DETAILS = 100;

/** A use case's refusal, carrying the HTTP status D3 assigns to it and a stable code. */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors?: ErrorDetail[],
    /** Response headers the refusal calls for, such as Retry-After. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

export const notFound = (what = 'document') => new ServiceError(404, 'not-found', `no such ${what}, or you may not read it`);
/**
 * No credentials where they are needed. The message says how to authenticate on this server, which
 * the service does not know: the HTTP layer words it (authenticationRequired), by whether web
 * sign-in is configured; this one is for any other caller.
 */
export class AuthenticationRequired extends ServiceError {
  constructor() {
    super(401, 'unauthenticated', authenticationRequired(false));
  }
}

/** How to authenticate: a bearer token always; the web sign-in only where there is one. */
export function authenticationRequired(signIn: boolean): string {
  return signIn
    ? 'authentication is required: send Authorization: Bearer <token> (a local API token or a JWT of the OpenID Connect provider), or sign in at /auth/login'
    : 'authentication is required: send Authorization: Bearer <token> with an API token (oscal-depot token create makes one)';
}

export const unauthenticated = () => new AuthenticationRequired();
export const forbidden = (what: string) => new ServiceError(403, 'forbidden', `you may read this document but not ${what}`);

/**
 * A record read back, after a write or a check of the caller's rights: a delete committed in
 * between (another request, or another process) makes it 404, as a request a moment later gets.
 */
export function found<T>(record: T | undefined, what = 'document'): T {
  if (record === undefined) throw notFound(what);
  return record;
}
