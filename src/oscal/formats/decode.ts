import { TextDecoder } from 'node:util';
import { OscalError } from '../errors.js';
import { detectFormat } from './detect.js';
import type { Format } from './document.js';

/**
 * Bytes of a document as text, the one place every path (request bodies, uploads, files, imports)
 * turns bytes into text. XML is read in the encoding its byte order mark or declaration names
 * (XML 1.0 section 4.3.3 and appendix F); JSON and YAML are UTF-8 (RFC 8259; YAML read here the
 * same way). A byte order mark stays in the text: parseOscal takes one away, and only one.
 */
export function decodeDocumentBytes(bytes: Uint8Array, format?: Format): string {
  if (format === 'xml') return decodeXmlBytes(bytes);
  if (format !== undefined) return decodeUtf8(bytes, format.toUpperCase());
  if (!looksLikeXml(bytes)) return decodeUtf8(bytes, 'JSON or YAML');
  const text = decodeXmlBytes(bytes);
  // Only XML may come in UTF-16: JSON or YAML behind a UTF-16 byte order mark is refused as it is when its format is named.
  if (!/^\uFEFF?\s*</.test(text)) throw onlyUtf8(bytes, 'JSON or YAML');
  return text;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** JSON and YAML: UTF-8, with or without a byte order mark. */
function decodeUtf8(bytes: Uint8Array, what: string): string {
  if ([UTF16LE_BOM, UTF16BE_BOM, UTF32BE_BOM].some((p) => startsWith(bytes, p))) throw onlyUtf8(bytes, what);
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new OscalError('malformed', 'the bytes are not valid UTF-8 text');
  }
}

function onlyUtf8(bytes: Uint8Array, what: string): OscalError {
  const found = startsWith(bytes, UTF32LE_BOM)
    ? 'UTF-32LE'
    : startsWith(bytes, UTF32BE_BOM)
      ? 'UTF-32BE'
      : startsWith(bytes, UTF16BE_BOM)
        ? 'UTF-16BE'
        : 'UTF-16LE';
  return new OscalError(
    'unsupported-encoding',
    `encoding ${found} (named by the byte order mark) is not supported for ${what}, which is read as UTF-8 only; only XML may come in other encodings`,
  );
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const UTF16LE_BOM = [0xff, 0xfe];
const UTF16BE_BOM = [0xfe, 0xff];
const UTF32LE_BOM = [0xff, 0xfe, 0x00, 0x00];
const UTF32BE_BOM = [0x00, 0x00, 0xfe, 0xff];
/** `<?` in UTF-16 without a byte order mark, which appendix F of XML 1.0 still recognises. */
const UTF16LE_DECLARATION = [0x3c, 0x00, 0x3f, 0x00];
const UTF16BE_DECLARATION = [0x00, 0x3c, 0x00, 0x3f];

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);
}

/** Whether bytes of unknown format are XML: a UTF-16 start, or `<` as the first character that is not space. */
function looksLikeXml(bytes: Uint8Array): boolean {
  if ([UTF16LE_BOM, UTF16BE_BOM, UTF16LE_DECLARATION, UTF16BE_DECLARATION].some((p) => startsWith(bytes, p)))
    return true;
  for (let i = startsWith(bytes, UTF8_BOM) ? 3 : 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) return b === 0x3c;
  }
  return false;
}

/** The format of bytes, by their first significant character as detectFormat reads text; XML also by a UTF-16 start. */
export function detectFormatOfBytes(bytes: Uint8Array): Format {
  if (looksLikeXml(bytes)) return 'xml';
  const start = startsWith(bytes, UTF8_BOM) ? UTF8_BOM.length : 0;
  return detectFormat(Buffer.from(bytes.subarray(start, start + 4096)).toString('latin1'));
}

/** The encoding of XML bytes, by what the file itself says (the BOM first, then the declaration), and its text. */
export function decodeXmlBytes(bytes: Uint8Array): string {
  if (startsWith(bytes, UTF32LE_BOM) || startsWith(bytes, UTF32BE_BOM)) throw unsupported('UTF-32', BOM);
  // A byte order mark decides; a declaration naming something else is not held against it, since
  // tools that re-encode a file commonly leave the declaration as it was.
  if (startsWith(bytes, UTF8_BOM)) return decodeWith('UTF-8', bytes, BOM);
  if (startsWith(bytes, UTF16LE_BOM)) return decodeWith('UTF-16LE', bytes, BOM);
  if (startsWith(bytes, UTF16BE_BOM)) return decodeWith('UTF-16BE', bytes, BOM);
  if (startsWith(bytes, UTF16LE_DECLARATION)) return decodeWith('UTF-16LE', bytes, FIRST_BYTES);
  if (startsWith(bytes, UTF16BE_DECLARATION)) return decodeWith('UTF-16BE', bytes, FIRST_BYTES);
  const declared = declaredEncoding(bytes);
  return declared === undefined
    ? decodeWith('UTF-8', bytes, undefined)
    : decodeWith(declared, bytes, 'the XML declaration');
}

/** The declaration's encoding, read from its ASCII bytes; only a declaration at the very start counts (XML 1.0 section 2.8). */
function declaredEncoding(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, 512)).toString('latin1');
  const declaration = /^<\?xml\s[^>]*?\?>/.exec(head)?.[0];
  return declaration && /\sencoding\s*=\s*(["'])([A-Za-z][A-Za-z0-9._-]*)\1/.exec(declaration)?.[2];
}

/**
 * The WHATWG Encoding Standard, which TextDecoder follows, takes ISO-8859-1 and US-ASCII as
 * windows-1252: for XML they are what their names say (bytes 0x80-0x9F are C1 controls in
 * ISO-8859-1, and not ASCII at all).
 */
const LATIN1_LABELS = new Set([
  'iso-8859-1',
  'iso_8859-1',
  'iso_8859-1:1987',
  'iso8859-1',
  'iso88591',
  'latin1',
  'l1',
  'iso-ir-100',
  'cp819',
  'ibm819',
  'csisolatin1',
]);
const ASCII_LABELS = new Set(['us-ascii', 'ascii', 'ansi_x3.4-1968', 'iso646-us', 'us', 'csascii']);

const BOM = 'the byte order mark';
/** `<?` in UTF-16 without a byte order mark. */
const FIRST_BYTES = 'the first bytes';

/** `source`: what named the encoding (undefined: nothing did, and XML is then UTF-8). */
function decodeWith(label: string, bytes: Uint8Array, source: string | undefined): string {
  const name = label.toLowerCase();
  if (LATIN1_LABELS.has(name)) return latin1(bytes);
  if (ASCII_LABELS.has(name)) {
    if (bytes.some((b) => b > 0x7f)) throw invalid(label, source);
    return latin1(bytes);
  }
  const decoder = textDecoder(name);
  if (!decoder) throw unsupported(label, source ?? 'the XML declaration');
  if (decoder.encoding === 'windows-1252') return windows1252(bytes);
  // A declaration read from ASCII bytes cannot be right about UTF-16: such a document would not be ASCII.
  if (decoder.encoding.startsWith('utf-16') && source !== BOM && source !== FIRST_BYTES) {
    throw new OscalError(
      'malformed',
      `the XML declaration names ${label}, but the bytes are not UTF-16: UTF-16 XML starts with a byte order mark`,
    );
  }
  try {
    return decoder.decode(bytes);
  } catch {
    throw invalid(label, source);
  }
}

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** windows-1252 at 0x80-0x9F, from the WHATWG index; its five unassigned bytes stay the C1 controls. */
const CP1252_80_9F =
  '\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F' +
  '\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178';

/**
 * windows-1252 by hand: Node 20's TextDecoder takes it for ISO-8859-1 (nodejs/node#56542), giving
 * C1 controls where the file has ’, “, ” and €. Every byte is a character, so nothing is invalid.
 */
function windows1252(bytes: Uint8Array): string {
  return latin1(bytes).replace(/[\u0080-\u009f]/g, (c) => CP1252_80_9F[c.charCodeAt(0) - 0x80]!);
}

/** A strict decoder for an encoding label; undefined for labels TextDecoder does not know or maps to "replacement". */
function textDecoder(name: string): TextDecoder | undefined {
  try {
    return new TextDecoder(name, { fatal: true, ignoreBOM: true });
  } catch {
    return undefined;
  }
}

function invalid(label: string, source: string | undefined): OscalError {
  return new OscalError(
    'malformed',
    `the bytes are not valid ${label} text (${source ? `the encoding ${source} names` : 'XML that declares no encoding is UTF-8'})`,
  );
}

function unsupported(label: string, source: string): OscalError {
  return new OscalError(
    'unsupported-encoding',
    `encoding ${label} (named by ${source}) is not supported: XML is read in UTF-8, UTF-16 with a byte order mark, ISO-8859-1, windows-1252 and the other encodings of the WHATWG Encoding Standard`,
  );
}
