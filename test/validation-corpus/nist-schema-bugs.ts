/**
 * Cases that NIST's official 1.0.x JSON Schemas judge wrongly, by a defect in those schemas.
 * They are kept out of the agreement check: our validator is held to the corpus's verdict
 * instead, and the test checks that NIST's schema still gives the other verdict, so an entry
 * cannot outlive the disagreement it explains.
 */

/**
 * 1.0.0–1.0.4: the date-time pattern is `^A|B|C|DT<time><zone>$`. With no group around the four
 * date alternatives, `^` binds to the first alone and the time and zone to the last alone, so
 * text that merely contains a valid date passes. The date-time format keeps out most bad
 * values, but RFC 3339 allows what OSCAL's datatype does not: a lower-case t or z, a space for T,
 * second 60. 1.0.5 added the group.
 */
const DATE_TIME_UNGROUPED = 'date-time pattern without a group around its alternation (1.0.0–1.0.4)';

/** The same missing group in the date pattern of 1.0.0–1.0.4; no format backs it up. */
const DATE_UNGROUPED = 'date pattern without a group around its alternation (1.0.0–1.0.4)';

/**
 * 1.0.0–1.0.4 accept any two-digit offset, [+-][0-9]{2}:[0-9]{2}. No zone is at +14:30 and
 * xs:dateTime, which the 1.0.0 XSD builds on, stops at ±14:00; from 1.0.5 the pattern lists the
 * real offsets, as OSCAL's datatype does.
 */
const ANY_OFFSET = 'timezone offset pattern admits offsets no zone has (1.0.0–1.0.4)';

/**
 * 1.0.0–1.0.3 admit version 4 UUIDs only; 1.0.4 corrected the datatype to version 4 or 5, and our
 * validator applies the corrected datatype to every release.
 */
const UUID_V4_ONLY = 'uuid pattern admits version 4 only (1.0.0–1.0.3, corrected in 1.0.4)';

/** 1.0.3's JSON Schema lost every datatype pattern and format: uuid, token, date-time, email and URIs are any string. */
const NO_DATATYPES = 'the 1.0.3 JSON Schema has no datatype patterns or formats at all';

/**
 * 1.0.x type markup-line as any string, so a line break passes; a markup-line is one line (NIST's
 * later Metaschema datatype schema: ^[^\n]+$).
 */
const MARKUP_LINE_ANY_STRING = 'markup-line is an unconstrained string in the 1.0.x JSON Schemas';

/**
 * The 1.0.x JSON Schemas leave Metaschema choices out: two alternatives together pass, and so
 * does a required choice with none. NIST's XSD of the same releases (xs:choice) rejects both.
 */
const NO_CHOICES = 'choices are not expressed in the 1.0.x JSON Schemas (the XSD has them)';

/** 1.0.5's date-time pattern wants fractional seconds not to end in 0, `(\.[0-9]*[1-9])?`; 1.0.6 takes any digits again. */
const FRACTION_NO_TRAILING_ZERO = 'fractional seconds may not end in 0 (1.0.5 only)';

/**
 * 1.0.5 closes every allowed-values list, also those marked allow-other="yes" (allOf where 1.0.6
 * has anyOf), so any prop name but "marking" fails.
 */
const OPEN_LISTS_CLOSED = 'allow-other="yes" lists closed (1.0.5 only)';

export const NIST_SCHEMA_BUGS: ReadonlyMap<string, string> = new Map<string, string>([
  ['catalog@1.0.0 date-time: last-modified with a leap second', DATE_TIME_UNGROUPED],
  ['profile@1.0.0 date-time: last-modified in lower case (t, z)', DATE_TIME_UNGROUPED],
  ['assessment-plan@1.0.2 date-time: last-modified in lower case (t, z)', DATE_TIME_UNGROUPED],
  ['system-security-plan@1.0.1 bad-date: date-authorized with trailing text', DATE_UNGROUPED],
  ['component-definition@1.0.2 date-time: last-modified with an offset no zone has (+14:30)', ANY_OFFSET],
  ['catalog@1.0.0 valid-edit: party uuid of version 5', UUID_V4_ONLY],
  ['profile@1.0.3 bad-uuid: model uuid with a non-hex digit', NO_DATATYPES],
  ['profile@1.0.3 date-time: last-modified without timezone', NO_DATATYPES],
  ['catalog@1.0.0 markup-line: parameter label with a line break', MARKUP_LINE_ANY_STRING],
  ['catalog@1.0.4 markup-line: metadata title with a line break', MARKUP_LINE_ANY_STRING],
  ['component-definition@1.0.2 markup-line: component title with a line break', MARKUP_LINE_ANY_STRING],
  ['system-security-plan@1.0.1 markup-line: user title with a line break', MARKUP_LINE_ANY_STRING],
  ['assessment-plan@1.0.2 markup-line: activity title with a line break', MARKUP_LINE_ANY_STRING],
  ['plan-of-action-and-milestones@1.0.6 markup-line: risk title with a line break', MARKUP_LINE_ANY_STRING],
  ['catalog@1.0.0 choice: parameter with both values and select', NO_CHOICES],
  ['profile@1.0.0 choice: import with both include-all and include-controls', NO_CHOICES],
  ['profile@1.0.0 choice: import with neither include-all nor include-controls', NO_CHOICES],
  ['profile@1.0.3 choice: merge with both as-is and custom', NO_CHOICES],
  ['assessment-plan@1.0.2 choice: task timing with both a date and a frequency', NO_CHOICES],
  ['assessment-results@1.0.5 valid-edit: last-modified with fractional seconds ending in 0', FRACTION_NO_TRAILING_ZERO],
  ['assessment-results@1.0.5 valid-edit: a namespaced prop on an observation', OPEN_LISTS_CLOSED],
]);
