/** Malformed JSON (400) and well-formed JSON that is no OSCAL document (422), on every JSON write. */
import { catalogJson, everyJsonWrite, type Category, type HttpCase } from './case.js';

const MALFORMED: Record<string, string> = {
  'empty body': '',
  'whitespace only': ' \n\t ',
  'lone open brace': '{',
  'lone close brace': '}',
  'lone open bracket': '[',
  'cut after the model key': '{"catalog":',
  'cut inside the model': '{"catalog":{}',
  'value missing': '{"catalog":{"uuid":}}',
  'trailing comma': '{"catalog":{"uuid":"x",}}',
  'single quotes': "{'catalog':{}}",
  'unquoted keys': '{catalog:{}}',
  'NaN': '{"catalog":NaN}',
  'Infinity': '{"catalog":Infinity}',
  'leading zero': '{"catalog":01}',
  'bare exponent': '{"catalog":1e}',
  'lone minus': '{"catalog":-}',
  'invalid escape': '{"catalog":"\\x41"}',
  'short unicode escape': '{"catalog":"\\u12"}',
  'unterminated string': '{"catalog":"unterminated}',
  'raw tab in a string': '{"catalog":"a\tb"}',
  'raw newline in a string': '{"catalog":"a\nb"}',
  'raw NUL in a string': '{"catalog":"a\u0000b"}',
  'two documents': '{}{}',
  'trailing garbage': `${catalogJson()} trailing`,
  'line comment': `// comment\n${catalogJson()}`,
  'block comment': `/* comment */${catalogJson()}`,
  'NUL byte only': '\u0000',
  'undefined': 'undefined',
  'capitalised True': 'True',
  'missing colon': '{"catalog" {}}',
  'missing comma': '{"a":1 "b":2}',
  'comma only': '{,}',
  'unclosed array': '[1,2',
  'two byte order marks': `\uFEFF\uFEFF${catalogJson()}`,
  'XML sent as JSON': '<catalog xmlns="http://csrc.nist.gov/ns/oscal/1.0"/>',
  'YAML sent as JSON': 'catalog:\n  uuid: x\n',
};

const NOT_OSCAL: Record<string, string> = {
  'null': 'null',
  'true': 'true',
  'a number': '0',
  'a string': '"catalog"',
  'an empty array': '[]',
  'an empty object': '{}',
  'an array of a document': `[${catalogJson()}]`,
  'a null model': '{"catalog":null}',
  'an array model': '{"catalog":[]}',
  'an empty model': '{"catalog":{}}',
  'two models': '{"catalog":{},"profile":{}}',
  '__proto__ as the root': '{"__proto__":{"catalog":{}}}',
  '__proto__ inside the model': catalogJson({ extra: ',"__proto__":{"isAdmin":true}' }),
  'constructor.prototype inside the metadata': catalogJson({
    extraMetadata: ',"constructor":{"prototype":{"isAdmin":true}}',
  }),
  'an unknown oscal-version': catalogJson().replace('"1.1.2"', '"9.9.9"'),
  'oscal-version as a number': catalogJson().replace('"1.1.2"', '1.1'),
  'a uuid that is no UUID': catalogJson({ uuid: "' OR '1'='1" }),
  'a duplicate model key, the last one broken': `{"catalog":${catalogJson().slice('{"catalog":'.length, -1)},"catalog":5}`,
  'a lone surrogate in the title': catalogJson().replace('"Hostile"', '"\\ud800"'),
  'a NUL escape in the title': catalogJson().replace('"Hostile"', '"a\\u0000b"'),
  'a number too large for a double': catalogJson({ extraMetadata: `,"version":1${'0'.repeat(400)}` }),
};

/** A form's file that is XML or YAML is a format the registry does not take (415), not broken JSON (registry-api 7, 8). */
const OTHER_FORMATS = new Set(
  ['XML sent as JSON', 'YAML sent as JSON'].map((name) => `${name} → POST upload as a form`),
);
const asOtherFormat = (c: HttpCase): HttpCase => (OTHER_FORMATS.has(c.name) ? { ...c, expect: 415 } : c);

export const json: Category = {
  name: 'malformed JSON',
  cases: (seeds) => [
    ...Object.entries(MALFORMED).flatMap(([name, body]) =>
      everyJsonWrite(seeds, name, () => body, 400).map(asOtherFormat),
    ),
    ...Object.entries(NOT_OSCAL).flatMap(([name, body]) => everyJsonWrite(seeds, name, () => body, 422)),
  ],
};
