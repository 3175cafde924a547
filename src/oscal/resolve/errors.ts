/** Why a resolution stopped. Each names the import that failed, so a caller can map it to a 4xx. */
export type ResolutionErrorCode =
  | 'import-not-found' // the loader (or the back-matter) has nothing at the href
  | 'import-not-readable' // something is there, but it is not OSCAL that can be read
  | 'not-a-catalog-or-profile' // readable OSCAL of another model
  | 'circular-import' // a profile imports itself, directly or through others
  | 'invalid-profile' // a directive the specification says must stop processing
  | 'version-mismatch'; // OSCAL major versions differ between the profile and an import

export class ResolutionError extends Error {
  readonly code: ResolutionErrorCode;
  /** The href as written in the importing document; absent for problems of the profile itself. */
  readonly href: string | undefined;
  /** Hrefs from the resolved profile down to the failing import. */
  readonly chain: readonly string[];
  /**
   * The loader reached the resource and had its bytes, which are not an OSCAL document (an image,
   * a PDF): fn:doc-available is true for it, though fn:doc fails.
   */
  resourceRead = false;

  constructor(
    code: ResolutionErrorCode,
    message: string,
    href?: string,
    chain: readonly string[] = href === undefined ? [] : [href],
  ) {
    super(message);
    this.name = 'ResolutionError';
    this.code = code;
    this.href = href;
    this.chain = chain;
  }

  /** The same failure seen from a profile one level up, which imported the failing one via `href`. */
  within(href: string): ResolutionError {
    const outer = new ResolutionError(this.code, `import "${href}": ${this.message}`, this.href, [href, ...this.chain]);
    outer.resourceRead = this.resourceRead;
    return outer;
  }
}

/** import-not-readable for a resource whose bytes the loader had: something is there, but not OSCAL. */
export function contentNotOscal(message: string, href: string): ResolutionError {
  const error = new ResolutionError('import-not-readable', message, href);
  error.resourceRead = true;
  return error;
}

export type ResolutionWarningCode =
  | 'no-match' // an id or pattern selected no control
  | 'inoperative-alter' // an alter, add or remove found nothing to act on
  | 'unknown-param' // set-parameter names no parameter of the result
  | 'duplicate-control'; // combine keep left several controls with one id

/** Something the specification asks a resolver to report while going on. */
export interface ResolutionWarning {
  code: ResolutionWarningCode;
  message: string;
  /** JSON pointer to the directive in the profile that caused it. */
  path: string;
  /** Base of the profile holding the directive, when it is an imported profile rather than the one resolved. */
  profile?: string;
}
