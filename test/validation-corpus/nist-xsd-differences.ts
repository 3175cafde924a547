/**
 * Cases where NIST's official 1.0.x XSD gives another verdict than ours on the XML form. In each,
 * the XSD does not express a rule that the release's Metaschema definition and its JSON Schema
 * both state, or it is the defect already listed for the JSON Schema (nist-schema-bugs.ts).
 * docs/decisions/0012-verdicts-against-official-schemas.md explains them.
 */
import type { CorpusCase } from './corpus.js';

/** The XSDs leave closed allowed-values lists to Schematron: any value of the datatype passes. */
const NO_ALLOWED_VALUES = 'the 1.0.x XSDs do not express allowed-values lists (NIST checked them with Schematron)';

/** The XSD's token is StringDatatype with no pattern of its own, though its documentation says NCName. */
const TOKEN_ANY_STRING = 'the 1.0.x XSD token admits spaces (a trimmed string, no NCName pattern)';

/** libxml2's xs:anyURI and the XSD's pattern (\S(.*\S)?) take a space inside a URI; RFC 3986 does not. */
const URI_WITH_SPACES = 'the 1.0.x XSD URI types admit spaces';

/** The XSD's email pattern is \S.*@.*\S ("Need a better pattern", says its documentation). */
const EMAIL_LOOSE = 'the 1.0.x XSD email pattern admits spaces';

/** 1.0.0-1.0.3 admit version 4 UUIDs only; NIST corrected the datatype in 1.0.4 and we apply the correction. */
const UUID_V4_ONLY = 'uuid admits version 4 only (1.0.0-1.0.3, corrected in 1.0.4)';

/** 1.0.5's date-time pattern refuses fractional seconds that end in 0, in its XSD as in its JSON Schema. */
const FRACTION_NO_TRAILING_ZERO = 'fractional seconds may not end in 0 (1.0.5 only)';

const BY_NAME: ReadonlyMap<string, string> = new Map([
  ['catalog@1.0.4 bad-token: prop name with a space', TOKEN_ANY_STRING],
  ['system-security-plan@1.0.4 bad-token: implemented requirement control-id with a space', TOKEN_ANY_STRING],
  ['catalog@1.0.0 bad-uri: link href with spaces', URI_WITH_SPACES],
  ['component-definition@1.0.2 bad-uri: control implementation source with spaces', URI_WITH_SPACES],
  ['profile@1.0.0 bad-uri: import href with spaces', URI_WITH_SPACES],
  ['system-security-plan@1.0.1 bad-uri: import-profile href with spaces', URI_WITH_SPACES],
  ['catalog@1.0.0 bad-email: email address with a space', EMAIL_LOOSE],
  ['catalog@1.0.0 valid-edit: party uuid of version 5', UUID_V4_ONLY],
  ['assessment-results@1.0.5 valid-edit: last-modified with fractional seconds ending in 0', FRACTION_NO_TRAILING_ZERO],
]);

/** Why NIST's XSD judges the case otherwise, or undefined when it should agree with us. */
export function xsdDifference(c: CorpusCase): string | undefined {
  return c.kind === 'bad-enum' ? NO_ALLOWED_VALUES : BY_NAME.get(c.name);
}

export const XSD_DIFFERENCE_NAMES: readonly string[] = [...BY_NAME.keys()];
