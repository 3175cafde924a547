/** A node of OSCAL markup as read from XML: a text node (entities decoded) or an element. */
export type MarkupNode = string | MarkupElement;

/** An element of OSCAL markup, named without namespace prefix. */
export interface MarkupElement {
  name: string;
  attrs: Record<string, string>;
  children: MarkupNode[];
  /** Position in the source document, when known, so errors can point at it. */
  line?: number;
  column?: number;
}

/**
 * Raised when markup cannot be converted: an element, attribute or text that the
 * Metaschema markup model does not allow, or content that Markdown cannot carry.
 * The message names the problem and how to fix it; the position is kept apart (the
 * element's in the XML, the line in the Markdown) for the caller to report with its own.
 */
export class MarkupError extends Error {
  override name = 'MarkupError';
  line?: number;
  column?: number;

  constructor(message: string, line?: number, column?: number) {
    super(message);
    if (line !== undefined) this.line = line;
    if (column !== undefined) this.column = column;
  }
}
