/**
 * XML in the encodings a file names for itself (XML 1.0 section 4.3.3, appendix F): UTF-16 with its
 * byte order mark, and ISO-8859-1 and windows-1252 named by the declaration, read on every path
 * (issue 18): POST and PUT of both interfaces, POST /validate, and the CLI's convert, validate and
 * resolve, with its imports. NIST's SSP example, re-encoded, must read as the UTF-8 original does.
 * JSON and YAML stay UTF-8; an encoding that is not read names itself (415 over HTTP).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { OscalError } from '../src/oscal/errors.js';
import { decodeDocumentBytes, parseOscal } from '../src/oscal/formats/index.js';
import { assertErrorBody } from './support/error-body.js';
import { api, type ApiResponse } from './support/http.js';
import { stopWithin } from './support/lifecycle.js';
import { scrub } from './support/resolve.js';
import { TestServer } from './support/server.js';
import { CONTENT } from './support/shared.js';
import { CLI_BIN as BIN } from './support/serve-process.js';

const EXAMPLES = join(CONTENT, 'oscal-content@88bb8de', 'examples');
const SSP = readFileSync(join(EXAMPLES, 'ssp', 'xml', 'ssp-example.xml'), 'utf8');
const CATALOG = readFileSync(join(EXAMPLES, 'catalog', 'xml', 'basic-catalog.xml'), 'utf8');
const work = mkdtempSync(join(tmpdir(), 'oscal-encodings-'));

/** windows-1252's characters at 0x80-0x9F (the rest of its bytes are ISO-8859-1's). */
const CP1252_HIGH: Record<string, number> = {
  '€': 0x80,
  '‚': 0x82,
  'ƒ': 0x83,
  '„': 0x84,
  '…': 0x85,
  '†': 0x86,
  '‡': 0x87,
  'ˆ': 0x88,
  '‰': 0x89,
  'Š': 0x8a,
  '‹': 0x8b,
  'Œ': 0x8c,
  'Ž': 0x8e,
  '‘': 0x91,
  '’': 0x92,
  '“': 0x93,
  '”': 0x94,
  '•': 0x95,
  '–': 0x96,
  '—': 0x97,
  '˜': 0x98,
  '™': 0x99,
  'š': 0x9a,
  '›': 0x9b,
  'œ': 0x9c,
  'ž': 0x9e,
  'Ÿ': 0x9f,
};

function latin1(text: string): Buffer {
  const outside = [...text].find((c) => c.codePointAt(0)! > 0xff);
  assert.equal(outside, undefined, 'the text is all ISO-8859-1');
  return Buffer.from(text, 'latin1');
}

function windows1252(text: string): Buffer {
  return Buffer.from(
    [...text].map((c) => {
      const code = c.codePointAt(0)!;
      if (code < 0x80 || (code >= 0xa0 && code <= 0xff)) return code;
      const byte = CP1252_HIGH[c];
      assert.ok(byte !== undefined, `${c} is in windows-1252`);
      return byte;
    }),
  );
}

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
const declaring = (text: string, encoding: string) =>
  text.replace(/^<\?xml version="1.0" encoding="UTF-8"\?>/, `<?xml version="1.0" encoding="${encoding}"?>`);

/**
 * The SSP has one character outside ISO-8859-1 (’, U+2019), which windows-1252 has (0x92). For
 * ISO-8859-1 it becomes ´ (U+00B4), so that the file still holds a byte the UTF-8 reading refuses.
 */
const SSP_LATIN1 = SSP.replaceAll('’', '´');
assert.ok(SSP.includes('’') && !/[^\u0000-\u00ff’]/.test(SSP), 'the SSP example is as this test expects');

interface Variant {
  name: string;
  bytes: Buffer;
  /** The UTF-8 text the variant must read as. */
  same: string;
}

const VARIANTS: Variant[] = [
  { name: 'UTF-16LE with BOM', bytes: utf16le(declaring(SSP, 'UTF-16')), same: SSP },
  { name: 'UTF-16BE with BOM', bytes: utf16be(declaring(SSP, 'UTF-16')), same: SSP },
  { name: 'UTF-16LE with BOM, the declaration left saying UTF-8', bytes: utf16le(SSP), same: SSP },
  { name: 'ISO-8859-1', bytes: latin1(declaring(SSP_LATIN1, 'ISO-8859-1')), same: SSP_LATIN1 },
  { name: 'windows-1252', bytes: windows1252(declaring(SSP, 'windows-1252')), same: SSP },
  { name: 'UTF-8 with BOM', bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(SSP)]), same: SSP },
];

const contentOf = (text: string) => parseOscal(text, 'xml').content;

function oscalError(code: string, message: RegExp) {
  return (e: unknown) => e instanceof OscalError && e.code === code && message.test(e.message);
}

describe('decodeDocumentBytes', () => {
  for (const { name, bytes, same } of VARIANTS) {
    test(`the SSP example in ${name} reads as the UTF-8 original`, () => {
      assert.deepEqual(parseOscal(decodeDocumentBytes(bytes, 'xml')).content, contentOf(same));
      assert.deepEqual(
        parseOscal(decodeDocumentBytes(bytes)).content,
        contentOf(same),
        'also with the format detected',
      );
    });
  }

  test('ISO-8859-1 is not windows-1252: byte 0x92 is U+0092 in one and ’ in the other', () => {
    const doc = (encoding: string) =>
      Buffer.concat([
        Buffer.from(`<?xml version="1.0" encoding="${encoding}"?><a>`),
        Buffer.from([0x92, 0xe9]),
        Buffer.from('</a>'),
      ]);
    assert.equal(decodeDocumentBytes(doc('ISO-8859-1'), 'xml').slice(-6, -4), '\u0092é');
    assert.equal(decodeDocumentBytes(doc('latin1'), 'xml').slice(-6, -4), '\u0092é');
    assert.equal(decodeDocumentBytes(doc('windows-1252'), 'xml').slice(-6, -4), '’é');
    assert.equal(decodeDocumentBytes(doc('CP1252'), 'xml').slice(-6, -4), '’é');
  });

  test('no declaration, or one without an encoding: UTF-8', () => {
    assert.equal(decodeDocumentBytes(Buffer.from('<a>é</a>'), 'xml'), '<a>é</a>');
    assert.equal(
      decodeDocumentBytes(Buffer.from('<?xml version="1.0"?><a>é</a>'), 'xml'),
      '<?xml version="1.0"?><a>é</a>',
    );
    assert.throws(
      () => decodeDocumentBytes(latin1('<a>é</a>'), 'xml'),
      oscalError('malformed', /not valid UTF-8.*declares no encoding/),
    );
  });

  test('an encoding that is not read names itself; bytes that are not what the declaration says are malformed', () => {
    assert.throws(
      () => decodeDocumentBytes(Buffer.from('<?xml version="1.0" encoding="EBCDIC-CP-US"?><a/>'), 'xml'),
      oscalError('unsupported-encoding', /EBCDIC-CP-US/),
    );
    assert.throws(
      () => decodeDocumentBytes(Buffer.from('<?xml version="1.0" encoding="ISO-2022-KR"?><a/>'), 'xml'),
      oscalError('unsupported-encoding', /ISO-2022-KR/),
    );
    assert.throws(
      () => decodeDocumentBytes(Buffer.from([0xff, 0xfe, 0, 0, 0x3c, 0, 0, 0]), 'xml'),
      oscalError('unsupported-encoding', /UTF-32/),
    );
    assert.throws(
      () => decodeDocumentBytes(Buffer.from('<?xml version="1.0" encoding="UTF-16"?><a/>'), 'xml'),
      oscalError('malformed', /not UTF-16/),
    );
    assert.throws(
      () => decodeDocumentBytes(latin1('<?xml version="1.0" encoding="US-ASCII"?><a>é</a>'), 'xml'),
      oscalError('malformed', /not valid US-ASCII/),
    );
    assert.throws(
      () => decodeDocumentBytes(Buffer.from([0x3c, 0x61, 0x3e, 0xff, 0xfe]), 'xml'),
      oscalError('malformed', /UTF-8/),
    );
  });

  test('JSON and YAML are UTF-8, with or without a BOM; UTF-16 JSON names its encoding', () => {
    const json = '{"a": "é"}';
    assert.equal(decodeDocumentBytes(Buffer.from(json), 'json'), json);
    assert.equal(
      decodeDocumentBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json)]), 'json'),
      `\uFEFF${json}`,
    );
    assert.throws(
      () => decodeDocumentBytes(utf16le(json), 'json'),
      oscalError('unsupported-encoding', /UTF-16LE.*JSON/),
    );
    assert.throws(() => decodeDocumentBytes(utf16be(json)), oscalError('unsupported-encoding', /UTF-16BE/));
    assert.throws(() => decodeDocumentBytes(latin1('a: é\n'), 'yaml'), oscalError('malformed', /UTF-8/));
    // An XML declaration inside a YAML string is no declaration of the file's.
    assert.equal(
      decodeDocumentBytes(Buffer.from('a: \'<?xml version="1.0" encoding="ISO-8859-1"?>é\'\n'), 'yaml'),
      'a: \'<?xml version="1.0" encoding="ISO-8859-1"?>é\'\n',
    );
  });
});

describe('over HTTP', () => {
  let server: TestServer;
  let token: string;
  /** The stored JSON form of the UTF-8 original, its content identifier taken out. */
  let reference: Record<string, unknown>;

  const post = (path: string, body: Buffer | string, contentType: string) =>
    api(server.url, 'POST', path, { token, body, contentType });

  async function storedJson(id: string): Promise<Record<string, any>> {
    const res = await api(server.url, 'GET', `/oscal/v1/system-security-plan/${id}`, { token });
    assert.equal(res.status, 200, res.text);
    const content = res.json();
    delete content['system-security-plan'].metadata['document-ids'];
    return content;
  }

  const created = (res: ApiResponse) => {
    assert.equal(res.status, 201, res.text);
    return res.json()['system-security-plan-list'][0]['content-uuid'] as string;
  };

  before(async () => {
    server = await TestServer.start();
    token = server.adminToken();
    reference = await storedJson(created(await post('/oscal/v1/system-security-plan', SSP, 'application/xml')));
  });
  after(async () => {
    await stopWithin(server);
  });

  for (const { name, bytes, same } of VARIANTS) {
    test(`POST /oscal/v1/system-security-plan in ${name}: stored as the UTF-8 original; the original bytes kept`, async () => {
      const id = created(await post('/oscal/v1/system-security-plan', bytes, 'application/xml'));
      assert.deepEqual(await storedJson(id), same === SSP ? reference : await utf8Stored(same));
      const original = await api(server.url, 'GET', `/oscal/v1/system-security-plan/${id}/original`, { token });
      assert.equal(original.status, 200, original.text);
      assert.ok(original.body.equals(bytes), 'the bytes as sent');
    });
  }

  /** What the UTF-8 text stores as (for the ISO-8859-1 variant, whose text differs from the original's). */
  async function utf8Stored(text: string): Promise<Record<string, unknown>> {
    return storedJson(created(await post('/oscal/v1/system-security-plan', text, 'application/xml')));
  }

  test('PUT /oscal/v1/system-security-plan/{id} in UTF-16BE and in windows-1252', async () => {
    const id = created(
      await post('/oscal/v1/system-security-plan', SSP.replace(/<title>[^<]*/, '<title>Replaced'), 'application/xml'),
    );
    for (const { bytes } of [VARIANTS[1]!, VARIANTS[4]!]) {
      const res = await api(server.url, 'PUT', `/oscal/v1/system-security-plan/${id}`, {
        token,
        body: bytes,
        contentType: 'application/xml',
      });
      assert.equal(res.status, 204, res.text);
      assert.deepEqual(await storedJson(id), reference);
    }
  });

  test('POST /oscal/v1/validate in each encoding: valid, with the same findings as the UTF-8 original', async () => {
    const baseline = await post('/oscal/v1/validate', SSP, 'application/xml');
    assert.equal(baseline.status, 200, baseline.text);
    for (const { name, bytes } of VARIANTS.filter((v) => v.same === SSP)) {
      const res = await post('/oscal/v1/validate', bytes, 'application/xml');
      assert.equal(res.status, 200, `${name}: ${res.text}`);
      assert.equal(res.json().valid, true, name);
      assert.deepEqual(res.json(), baseline.json(), `${name} reads as the original`);
    }
  });

  test('an encoding that is not read: 415 naming it, on POST, PUT and POST /validate', async () => {
    const ebcdic = Buffer.from(declaring(SSP, 'EBCDIC-CP-US'));
    const id = created(await post('/oscal/v1/system-security-plan', SSP, 'application/xml'));
    for (const res of [
      await post('/oscal/v1/system-security-plan', ebcdic, 'application/xml'),
      await api(server.url, 'PUT', `/oscal/v1/system-security-plan/${id}`, {
        token,
        body: ebcdic,
        contentType: 'application/xml',
      }),
      await post('/oscal/v1/validate', ebcdic, 'application/xml'),
    ]) {
      const body = assertErrorBody(res, 415, /EBCDIC-CP-US/);
      assert.equal(body.code, 'unsupported-encoding');
    }
  });

  test('bytes that are not what the declaration names: 400', async () => {
    const res = await post('/oscal/v1/system-security-plan', latin1(SSP_LATIN1), 'application/xml');
    assertErrorBody(res, 400, /not valid UTF-8/);
  });

  test('JSON stays UTF-8: with a BOM it is taken on both interfaces; in UTF-16, 415 naming it', async () => {
    const json = (
      await api(
        server.url,
        'GET',
        `/oscal/v1/system-security-plan/${created(await post('/oscal/v1/system-security-plan', SSP, 'application/xml'))}`,
        { token },
      )
    ).json();
    delete json['system-security-plan'].metadata['document-ids'];
    const text = JSON.stringify(json);
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    assert.equal((await post('/oscal/v1/system-security-plan', withBom, 'application/json')).status, 201);
    const uploaded = await post('/api/upload', withBom, 'application/json');
    assert.ok(uploaded.status === 200 || uploaded.status === 201, uploaded.text);
    for (const res of [
      await post('/oscal/v1/system-security-plan', utf16le(text), 'application/json'),
      await post('/api/upload', utf16le(text), 'application/json'),
      await api(server.url, 'PUT', `/api/v1/system-security-plans/${json['system-security-plan'].uuid}`, {
        token,
        body: utf16le(text),
        contentType: 'application/json',
      }),
    ]) {
      assertErrorBody(res, 415, /UTF-16LE/);
    }
  });
});

describe('the command line', () => {
  const cli = (args: string[]) => {
    const r = spawnSync(process.execPath, [BIN, ...args], { cwd: work, encoding: 'utf8' });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const file = (name: string, bytes: Buffer | string) => {
    const path = join(work, name);
    writeFileSync(path, bytes);
    return path;
  };

  test('convert and validate read each encoding as the UTF-8 original', () => {
    VARIANTS.forEach(({ name, bytes, same }, i) => {
      const path = file(`ssp-${i}.xml`, bytes);
      const reference = file(`ssp-${i}-utf8.xml`, same);
      const converted = cli(['convert', path, '--to', 'json']);
      assert.equal(converted.code, 0, `${name}: ${converted.stderr}`);
      assert.deepEqual(
        JSON.parse(converted.stdout),
        JSON.parse(cli(['convert', reference, '--to', 'json']).stdout),
        name,
      );
      const stated = cli(['convert', path, '--from', 'xml', '--to', 'json']);
      assert.equal(stated.stdout, converted.stdout, `${name} with --from xml`);
      const validated = cli(['validate', path]);
      assert.equal(validated.code, 0, `${name}: ${validated.stdout}${validated.stderr}`);
      assert.match(validated.stdout, /^1 valid, 0 invalid/m);
    });
  });

  test("resolve: a profile in UTF-16 importing a catalog in windows-1252 gives the UTF-8 files' catalog", () => {
    const profile = (href: string) => `<?xml version="1.0" encoding="UTF-8"?>
<profile xmlns="http://csrc.nist.gov/ns/oscal/1.0" uuid="00000000-0000-4000-8000-000000000002">
  <metadata>
    <title>Encodings</title>
    <last-modified>2024-01-01T00:00:00Z</last-modified>
    <version>1</version>
    <oscal-version>1.1.2</oscal-version>
  </metadata>
  <import href="${href}"><include-all/></import>
</profile>
`;
    file('catalog-utf8.xml', CATALOG);
    file('catalog-1252.xml', windows1252(declaring(CATALOG, 'windows-1252')));
    const reference = cli(['resolve', file('profile-utf8.xml', profile('catalog-utf8.xml')), '--to', 'json']);
    assert.equal(reference.code, 0, reference.stderr);
    const encoded = cli([
      'resolve',
      file('profile-utf16.xml', utf16be(declaring(profile('catalog-1252.xml'), 'UTF-16'))),
      '--to',
      'json',
    ]);
    assert.equal(encoded.code, 0, encoded.stderr);
    assert.deepEqual(scrub(JSON.parse(encoded.stdout)), scrub(JSON.parse(reference.stdout)));
    assert.ok(encoded.stdout.includes('’'), 'windows-1252 characters came through');
  });

  test('an encoding that is not read, or UTF-16 JSON, is one line naming it, exit 1', () => {
    const ebcdic = cli(['convert', file('ebcdic.xml', declaring(SSP, 'EBCDIC-CP-US')), '--to', 'json']);
    assert.equal(ebcdic.code, 1);
    assert.match(ebcdic.stderr, /^\S+ebcdic\.xml: encoding EBCDIC-CP-US .*not supported.*\n$/);
    const json = cli(['validate', file('utf16.json', utf16le('{"catalog": {}}'))]);
    assert.equal(json.code, 1);
    assert.match(json.stdout, /UTF-16LE/);
  });
});
