/**
 * An error raised while reading or evaluating a Metapath expression. `code` is the W3C error
 * code of XPath 3.1 and its function library (XPST0003 syntax, XPTY0004 type, FORX0002 regex, …),
 * so that a message can be looked up in the specifications; `position` is the character offset
 * in the expression, when the error belongs to one place in it.
 */
export class MetapathError extends Error {
  readonly code: string;
  position: number | undefined;

  constructor(code: string, message: string, position?: number) {
    super(message);
    this.name = 'MetapathError';
    this.code = code;
    this.position = position;
  }
}
