/**
 * Three places where Metapath follows metaschema-java (or, where that has been fixed there,
 * XPath 3.1): comparisons of text with other values, the document root of `/`, and
 * doc-available() for resources that are not documents. Each names the source it follows;
 * docs/decisions/0098 to 0100 have the reasons.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { fileLoader } from '../src/cli/file-loader.js';
import { readConstraintSet } from '../src/oscal/constraints/external.js';
import { LoadedDocuments } from '../src/oscal/constraints/documents.js';
import { checkConstraints } from '../src/oscal/constraints/index.js';
import { parseOscal } from '../src/oscal/formats/index.js';
import {
  compileMetapath,
  documentNode,
  Dynamic,
  DocumentNeeded,
  isNode,
  metapathOf,
  MetapathError,
  stringOf,
  type Item,
  type Sequence,
} from '../src/oscal/metapath/index.js';
import { Atom } from '../src/oscal/metapath/items.js';

const NS = 'http://csrc.nist.gov/ns/oscal/1.0';
const IMAGE_UUID = '0b1e3d52-7c4e-4f5e-9a61-3a3f7e0c2b11';
const CATALOG_UUID = '5f6d0c1e-2a3b-4c5d-8e9f-0a1b2c3d4e5f';
const MISSING_UUID = '9e8d7c6b-5a49-4837-a261-504f3e2d1c0b';
const INLINE_UUID = 'c3a1e2f4-6b5d-4e7f-8a9b-1c2d3e4f5a6b';

function catalog(resources: unknown[] = []): Record<string, unknown> {
  return {
    catalog: {
      uuid: '8d1ae7b6-6a0c-4ef4-9e2c-2c0cbd8e7cf1',
      metadata: {
        title: 'Semantics',
        published: '2024-03-01T08:00:00Z',
        'last-modified': '2024-06-01T12:00:00Z',
        version: '1',
        'oscal-version': '1.1.2',
        props: [
          { name: 'review-date', value: '2024-06-01T12:00:00Z' },
          { name: 'count', value: '10' },
          { name: 'flag', value: 'true' },
        ],
      },
      groups: [
        {
          id: 'ac',
          title: 'Access Control',
          controls: [{ id: 'ac-1', title: 'Policy', controls: [{ id: 'ac-1.1', title: 'Enhancement' }] }],
        },
      ],
      ...(resources.length ? { 'back-matter': { resources } } : {}),
    },
  };
}

const root = documentNode(parseOscal(JSON.stringify(catalog()), 'json'));

function run(expression: string, focus: Item = root): Sequence {
  return compileMetapath(expression, { modelNamespace: NS }).evaluate(focus, { timezone: 0 });
}

function plain(seq: Sequence): unknown[] {
  return seq.map((item) =>
    isNode(item) ? metapathOf(item) : item instanceof Atom ? `${item.type}:${stringOf(item)}` : item,
  );
}

function errorCode(expression: string, focus: Item = root): string {
  try {
    run(expression, focus);
  } catch (e) {
    if (e instanceof MetapathError) return e.code;
    throw e;
  }
  return 'no error';
}

describe('text compared with a value of another type (metaschema-java ComparisonFunctions.java)', () => {
  // ComparisonFunctions.compare: when either side is an xs:string, both are compared as text;
  // generalCompairison casts an untypedAtomic side to the other side's type first.
  test('a string flag and a dateTime field compare as text', () => {
    assert.deepEqual(
      plain(run('metadata/prop[@name="review-date"]/@value = metadata/last-modified', root.children()[0])),
      [true],
    );
    assert.deepEqual(plain(run('/catalog/metadata/last-modified = "2024-06-01T12:00:00Z"')), [true]);
    assert.deepEqual(plain(run('/catalog/metadata/last-modified != "2024-06-01T12:00:00Z"')), [false]);
    // As text, not as instants: the same instant written with an offset is another string.
    assert.deepEqual(plain(run('/catalog/metadata/last-modified = "2024-06-01T14:00:00+02:00"')), [false]);
    assert.deepEqual(plain(run('xs:dateTime("2024-06-01T14:00:00+02:00") = xs:dateTime("2024-06-01T12:00:00Z")')), [
      true,
    ]);
  });

  test("a string and a date: =, != and the orderings, on the date's text", () => {
    assert.deepEqual(plain(run('"2024-01-01" = xs:date("2024-01-01")')), [true]);
    assert.deepEqual(plain(run('xs:date("2024-01-01") = "2024-01-01"')), [true]);
    assert.deepEqual(plain(run('"2024-01-02" > xs:date("2024-01-01")')), [true]);
    assert.deepEqual(plain(run('"2023-12-31" < xs:date("2024-01-01")')), [true]);
    assert.deepEqual(plain(run('"not a date" = xs:date("2024-01-01")')), [false]);
    assert.deepEqual(plain(run('("x", "2024-01-01") = xs:date("2024-01-01")')), [true]);
  });

  test('a string and a number, a boolean or a duration: as text too', () => {
    assert.deepEqual(plain(run('/catalog/metadata/prop[@name="count"]/@value = 10')), [true]);
    assert.deepEqual(plain(run('"10" = 10')), [true]);
    // As text "9" sorts after "10".
    assert.deepEqual(plain(run('"9" > 10')), [true]);
    assert.deepEqual(plain(run('"true" = true()')), [true]);
    assert.deepEqual(plain(run('/catalog/metadata/prop[@name="flag"]/@value = true()')), [true]);
    assert.deepEqual(plain(run('"P1D" = xs:dayTimeDuration("PT24H")')), [true]);
    assert.deepEqual(plain(run('"1" eq 1')), [true]);
  });

  test("an untypedAtomic side is cast to the other side's type, as XPath has it", () => {
    // Compared as dates: equal, though "2024-01-01Z" and "2024-01-01+00:00" differ as text.
    assert.deepEqual(plain(run('xs:untypedAtomic("2024-01-01Z") = xs:date("2024-01-01+00:00")')), [true]);
    assert.deepEqual(plain(run('xs:untypedAtomic("2024-01-01Z") = xs:date("2024-01-02Z")')), [false]);
    assert.deepEqual(plain(run('xs:untypedAtomic("1.0") = 1')), [true]);
    assert.equal(errorCode('xs:untypedAtomic("soon") = xs:date("2024-01-01")'), 'FORG0001');
  });

  test('binary values are ordered by their octets (ComparisonFunctions.binaryCompare)', () => {
    assert.deepEqual(plain(run('xs:base64Binary("AQI=") < xs:base64Binary("AQM=")')), [true]);
    assert.deepEqual(plain(run('xs:hexBinary("0102") gt xs:hexBinary("01")')), [true]);
    assert.deepEqual(plain(run('xs:hexBinary("0102") >= xs:hexBinary("0103")')), [false]);
  });

  test('pairs without a string stay errors', () => {
    assert.equal(errorCode('xs:date("2024-01-01") = 1'), 'XPTY0004');
    assert.equal(errorCode('true() = 1'), 'XPTY0004');
    assert.equal(errorCode('xs:date("2024-01-01") = xs:dateTime("2024-01-01T00:00:00")'), 'XPTY0004');
  });

  test('a constraint comparing a text prop with a dateTime runs and holds', async () => {
    const set = await readConstraintSet(
      'dates',
      `<metaschema-meta-constraints xmlns="http://csrc.nist.gov/ns/oscal/metaschema/1.0">
      <context><metapath target="/catalog/metadata"/><constraints>
        <expect id="reviewed-when-modified" target="prop[@name='review-date']" test="@value = ../last-modified"/>
        <expect id="reviewed-after-publication" target="prop[@name='review-date']" test="@value ge ../published"/>
      </constraints></context></metaschema-meta-constraints>`,
    );
    const doc = parseOscal(JSON.stringify(catalog()), 'json');
    const result = await checkConstraints(doc, { sets: [set] });
    assert.deepEqual(
      result.findings.filter((f) => f.source === 'dates'),
      [],
    );
    const ran = [...result.outcomes.values()].filter((o) => o.source === 'dates');
    assert.deepEqual(
      ran.map((o) => [o.constraint.id, o.applied, o.failed]),
      [
        ['reviewed-when-modified', true, false],
        ['reviewed-after-publication', true, false],
      ],
    );
  });
});

describe('a leading / is the document node (XPath 3.1; metaschema-java RootSlashPath.java, RootSlashOnlyPathTest.java)', () => {
  const deep = run('//control[@id="ac-1.1"]')[0]!;
  const flag = run('//control[@id="ac-1.1"]/@id')[0]!;

  test('/ alone is the document node from any focus', () => {
    for (const focus of [root, deep, flag]) assert.deepEqual(plain(run('/', focus)), ['/']);
    assert.deepEqual(plain(run('(/) is root()', deep)), [true]);
  });

  test('/catalog/… starts at the document, not at the focus', () => {
    for (const focus of [root, deep, flag]) {
      assert.deepEqual(plain(run('/catalog/@uuid', focus)), ['/catalog[1]/@uuid']);
      assert.deepEqual(plain(run('/catalog/group/control/@id', focus)), ['/catalog[1]/group[1]/control[1]/@id']);
    }
    // Relative to the nested control, catalog names nothing.
    assert.deepEqual(plain(run('catalog', deep)), []);
  });

  test('//x searches the whole document, whatever the focus', () => {
    for (const focus of [root, deep, flag]) {
      assert.deepEqual(plain(run('//control/@id', focus)), [
        '/catalog[1]/group[1]/control[1]/@id',
        '/catalog[1]/group[1]/control[1]/control[1]/@id',
      ]);
      assert.deepEqual(plain(run('count(//title)', focus)), [4]);
    }
  });

  test('/ on a value is an error: XPTY0020', () => {
    assert.equal(errorCode('"x" ! /'), 'XPTY0020');
    assert.equal(errorCode('1 ! /catalog'), 'XPTY0020');
  });
});

describe('doc-available() is true for any readable resource (metaschema-java FnDocumentAvailable.java)', () => {
  let dir: string;
  let base: string;
  const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'doc-available-'));
    await writeFile(join(dir, 'diagram.png'), PNG);
    await writeFile(join(dir, 'notes.txt'), 'plain text, not OSCAL\n');
    await writeFile(join(dir, 'other.json'), JSON.stringify(catalog()));
    base = pathToFileURL(join(dir, 'ssp.json')).href;
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Evaluates as constraint validation does: a document not read yet is loaded, then the evaluation starts again. */
  async function evaluate(expression: string): Promise<unknown[]> {
    const json = catalog([
      { uuid: IMAGE_UUID, rlinks: [{ href: 'diagram.png' }] },
      { uuid: CATALOG_UUID, rlinks: [{ href: 'missing.json' }, { href: 'other.json' }] },
      { uuid: MISSING_UUID, rlinks: [{ href: 'missing.json' }] },
      { uuid: INLINE_UUID, base64: { filename: 'a.png', value: PNG.toString('base64') } },
    ]);
    const doc = parseOscal(JSON.stringify(json), 'json');
    const node = documentNode(doc, base);
    const documents = new LoadedDocuments({ doc, node, base }, fileLoader(new Map()));
    const expr = compileMetapath(expression, { modelNamespace: NS });
    for (;;) {
      try {
        return plain(expr.evaluate(node, new Dynamic({ documents, baseUri: base })));
      } catch (e) {
        if (!(e instanceof DocumentNeeded)) throw e;
        await documents.fetch(e);
      }
    }
  }

  async function evaluationError(expression: string): Promise<string> {
    try {
      await evaluate(expression);
    } catch (e) {
      if (e instanceof MetapathError) return e.code;
      throw e;
    }
    return 'no error';
  }

  test('an image or a text file is available, but doc() of it fails', async () => {
    assert.deepEqual(await evaluate('doc-available("diagram.png")'), [true]);
    assert.deepEqual(await evaluate('doc-available("notes.txt")'), [true]);
    assert.equal(await evaluationError('doc("diagram.png")'), 'FODC0002');
  });

  test('an OSCAL document is available and doc() reads it', async () => {
    assert.deepEqual(await evaluate('doc-available("other.json")'), [true]);
    assert.deepEqual(await evaluate('doc("other.json")/catalog/metadata/title ! string()'), ['Semantics']);
  });

  test('nothing there: not available', async () => {
    assert.deepEqual(await evaluate('doc-available("missing.json")'), [false]);
    assert.deepEqual(await evaluate(`doc-available("${pathToFileURL(join(dir, 'nowhere', 'x.png')).href}")`), [false]);
  });

  test('back-matter resources: an rlink to an image or base64 content makes one available', async () => {
    assert.deepEqual(await evaluate(`doc-available("#${IMAGE_UUID}")`), [true]);
    assert.deepEqual(await evaluate(`doc-available("#${INLINE_UUID}")`), [true]);
    assert.deepEqual(await evaluate(`doc-available("#${CATALOG_UUID}")`), [true]);
    assert.deepEqual(await evaluate(`doc-available("#${MISSING_UUID}")`), [false]);
    assert.equal(await evaluationError(`doc("#${IMAGE_UUID}")`), 'FODC0002');
    assert.deepEqual(await evaluate(`doc("#${CATALOG_UUID}")/catalog/@uuid ! string()`), [
      '8d1ae7b6-6a0c-4ef4-9e2c-2c0cbd8e7cf1',
    ]);
  });

  test("a URL outside the loader's reach is not fetched and is not available", async () => {
    assert.deepEqual(await evaluate('doc-available("https://example.com/diagram.png")'), [false]);
  });
});
