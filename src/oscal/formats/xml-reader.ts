import { SaxesParser } from 'saxes';
import { OscalError } from '../errors.js';
import { modelFor, type OscalModel } from '../model/model.js';
import type { ParsedDocument } from './document.js';
import { positionAt, type Position } from './positions.js';
import type { ReadProblems } from './tree-reader.js';
import { XmlElementReader } from './xml-element-reader.js';
import { notWellFormed } from './xml-reader-errors.js';

/*
 * The XML reader in parts:
 *   xml-reader.ts          the entry points: the prolog and declared version looked at before
 *                          parsing, the quick pass and its fallback
 *   xml-element-reader.ts  one streaming pass: each element opened against the model, its
 *                          attributes read as flags, its text taken, its value set on close
 *   xml-reader-frames.ts   the frames of the open elements
 *   xml-markup-capture.ts  markup content captured as a tree and converted to Markdown
 *   xml-reader-errors.ts   errors with their line and column
 */

export { OSCAL_NS } from './xml-element-reader.js';

const VERSION_ELEMENT = /<(?:[\w.-]+:)?oscal-version\s*>\s*([^<]*?)\s*<\//;

/**
 * A DOCTYPE can only stand in the prolog, so the prolog is checked before parsing: the parser
 * then never sees one, and no entity can be declared, let alone expanded. Returns where the
 * root element starts (-1 for an unterminated prolog, which the parser then reports).
 */
function checkProlog(text: string): number {
  let i = 0;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text.startsWith('<?', i)) i = text.indexOf('?>', i) + 2;
    else if (text.startsWith('<!--', i)) i = text.indexOf('-->', i) + 3;
    else break;
    if (i < 2) return -1;
  }
  if (text.startsWith('<!DOCTYPE', i) || text.startsWith('<!doctype', i)) {
    const { line, column } = positionAt(text, i);
    throw new OscalError(
      'forbidden-construct',
      'a DOCTYPE is not accepted: OSCAL XML needs no DTD, and entities are never expanded',
      { line, column },
    );
  }
  return i;
}

/**
 * Without a declared version there is no model to read with; before saying so, make sure the
 * text is XML at all, so that (say) JSON sent as XML is reported as not well-formed.
 */
function assertWellFormed(text: string): void {
  const parser = new SaxesParser({ xmlns: false, position: true });
  try {
    parser.write(text).close();
  } catch (e) {
    throw notWellFormed(parser, e);
  }
}

/** The root element's local name, read off the text where the prolog ends. */
function rootName(text: string, at: number): string {
  const name = /^<([^\s/>]+)/.exec(text.slice(at, at + 200))?.[1] ?? '*';
  return name.slice(name.indexOf(':') + 1);
}

/** The declared release is needed before the first element is interpreted. */
function declaredVersion(text: string): string | undefined {
  return VERSION_ELEMENT.exec(text)?.[1];
}

/**
 * Reads OSCAL XML into the OSCAL JSON form in one streaming pass. Strict: an element, attribute
 * or text the model does not allow is an error with its line and column, and a DOCTYPE is
 * refused outright so no entity is ever declared, let alone expanded.
 *
 * With `problems`, as readJson and readYaml: the read goes past what the model does not allow
 * and records it there, with its line, column and JSON pointer (see XmlElementReader). What is
 * not XML, a DOCTYPE or a root that is no model of the declared release still stops it.
 */
export function readXml(text: string, positions?: Map<string, Position>, problems?: ReadProblems): ParsedDocument {
  const rootAt = checkProlog(text);
  const version = declaredVersion(text) ?? problems?.assumeVersion;
  if (version === undefined) assertWellFormed(text);
  const model: OscalModel = modelFor(version, rootAt < 0 ? '*' : rootName(text, rootAt));
  // Problems are recorded with the pointers that positions are recorded under.
  const tracked = positions ?? (problems ? new Map<string, Position>() : undefined);
  const recorded = problems?.found.length ?? 0;
  try {
    return parseXml(text, model, tracked, false, problems);
  } catch {
    // Whatever stopped the quick pass, the pass that is handed every text reports it, and
    // exactly where and as it always has; what the quick pass recorded is recorded again.
    tracked?.clear();
    if (problems) problems.found.length = recorded;
    return parseXml(text, model, tracked, true, problems);
  }
}

/**
 * One streaming pass (see XmlElementReader). Unless `everyText` is set it is the quick pass,
 * which throws at text between elements for the caller to read the document again with it set.
 */
function parseXml(
  text: string,
  model: OscalModel,
  positions: Map<string, Position> | undefined,
  everyText: boolean,
  problems: ReadProblems | undefined,
): ParsedDocument {
  return new XmlElementReader(text, model, positions, everyText, problems).read();
}

/**
 * Where each value of a well-formed document starts, by its JSON pointer. The document is read
 * as validation reads it, past what the model does not allow, so that the issues the schema
 * finds in such a document have their positions too.
 */
export function xmlPositions(text: string, assumeVersion?: string): Map<string, Position> {
  const positions = new Map<string, Position>();
  readXml(text, positions, { found: [], limit: 0, ...(assumeVersion !== undefined ? { assumeVersion } : {}) });
  return positions;
}
