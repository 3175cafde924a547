/**
 * Our verdict against NIST's official schemas of the document's own release and format: the
 * JSON Schema for JSON and YAML, the XSD for XML. Every document of the shared content that
 * declares a release with official schemas here, and every case of the mutated validation
 * corpus in the formats our writer can carry it in, gets NIST's verdict, or the difference is
 * one of those listed (each explained in docs/decisions/0012-verdicts-against-official-schemas.md).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { parseOscal, serializeOscal } from '../src/oscal/formats/index.js';
import { validateText } from '../src/oscal/validate/index.js';
import { NIST_SCHEMA_VERSIONS, nistVerdict, xsdVerdicts } from './support/nist-oracle.js';
import { CONTENT, filesUnder, shortName } from './support/shared.js';
import { declaredVersion } from './validation-corpus/corpus.js';
import { CASES } from './validation-corpus/index.js';
import { applyEdits } from './validation-corpus/json-edit.js';
import { XSD_DIFFERENCE_NAMES, xsdDifference } from './validation-corpus/nist-xsd-differences.js';

const verdict = (valid: boolean) => (valid ? 'valid' : 'invalid');

describe("the shared content: our verdict is NIST's for the document's release and format", () => {
  const files = ['.json', '.xml', '.yaml'].flatMap((ext) => filesUnder(CONTENT, ext));
  const docs = files.flatMap((path) => {
    const text = readFileSync(path, 'utf8');
    const { version, content, format } = parseOscal(text);
    return NIST_SCHEMA_VERSIONS.includes(version) ? [{ path, text, version, content, format }] : [];
  });
  const xml = docs.filter((d) => d.format === 'xml');
  const xsd = xsdVerdicts(xml.map((d) => ({ xml: d.text, version: d.version })));

  test(`there is content of releases with official schemas (${docs.length} documents, ${xml.length} XML)`, () => {
    assert.ok(docs.length >= 15 && xml.length >= 5);
  });
  for (const d of docs) {
    test(`${shortName(d.path)} (${d.version})`, () => {
      const ours = validateText(d.text);
      const nist = d.format === 'xml' ? xsd[xml.indexOf(d)]! : nistVerdict(d.content, d.version);
      assert.equal(
        verdict(ours.valid),
        verdict(nist.valid),
        JSON.stringify({ ours: ours.issues, nist: 'errors' in nist ? nist.errors : [] }).slice(0, 2000),
      );
    });
  }
});

describe("the mutated corpus as XML: our verdict is the XSD's, or the difference is listed", () => {
  // A change XML can carry is marked so in the corpus; any valid document can be written.
  const written = CASES.filter((c) => c.alsoAs.includes('xml') || c.expect === 'valid').flatMap((c) => {
    const doc = applyEdits(c.base.json(), c.base.model, c.edits);
    const version = declaredVersion(doc);
    if (version === undefined || !NIST_SCHEMA_VERSIONS.includes(version)) return [];
    return [
      {
        c,
        version,
        xml: serializeOscal({ model: c.base.model, version, content: doc as Record<string, unknown> }, 'xml'),
      },
    ];
  });
  const xsd = xsdVerdicts(written);

  test(`${written.length} cases of 1.0.x releases written as XML`, () => {
    assert.ok(written.length >= 60);
    for (const name of XSD_DIFFERENCE_NAMES)
      assert.ok(
        written.some((w) => w.c.name === name),
        `listed but not in the corpus as XML: ${name}`,
      );
  });
  for (const [i, { c, xml }] of written.entries()) {
    test(c.name, () => {
      const ours = validateText(xml, { format: 'xml' });
      const nist = xsd[i]!;
      const detail = `ours: ${ours.issues.map((x) => x.message).join('; ') || 'valid'}\nXSD: ${nist.errors.join('; ') || 'valid'}`;
      const difference = xsdDifference(c);
      if (difference === undefined) assert.equal(verdict(ours.valid), verdict(nist.valid), detail);
      else
        assert.notEqual(
          verdict(ours.valid),
          verdict(nist.valid),
          `listed as a difference (${difference}), but the verdicts agree:\n${detail}`,
        );
      assert.equal(verdict(ours.valid), c.expect, detail);
    });
  }
});
