import { OscalError } from '../errors.js';
import { detectFormat } from './detect.js';
import type { Format, ParsedDocument } from './document.js';
import { readJson } from './json-reader.js';
import { readXml } from './xml-reader.js';
import { writeXml } from './xml-writer.js';
import { readYaml } from './yaml-reader.js';
import { writeYaml } from './yaml-writer.js';

export { decodeDocumentBytes, decodeXmlBytes, detectFormatOfBytes } from './decode.js';
export { detectFormat } from './detect.js';
export { FORMATS, type Format, type ParsedDocument } from './document.js';

const BOM = '\uFEFF';

/** Reads an OSCAL document in any of the three formats (detected from the text when not given). */
export function parseOscal(text: string, format: Format = detectFormat(text)): ParsedDocument & { format: Format } {
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  switch (format) {
    case 'xml':
      return { ...readXml(body), format };
    case 'json':
      return { ...readJson(body), format };
    case 'yaml':
      return { ...readYaml(body), format };
    default:
      throw new OscalError('malformed', `unknown format ${String(format)}; use json, xml or yaml`);
  }
}

export function serializeOscal(doc: ParsedDocument, format: Format): string {
  switch (format) {
    case 'xml':
      return writeXml(doc);
    case 'json':
      return JSON.stringify(doc.content, null, 2) + '\n';
    case 'yaml':
      return writeYaml(doc);
  }
}
