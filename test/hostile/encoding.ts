/** Bytes that are not UTF-8 inside otherwise valid documents of each format: 400, whatever the interface; encodings that are not read: 415. */
import {
  catalogJson,
  catalogXml,
  catalogYaml,
  everyJsonWrite,
  everyTextWrite,
  XML_TYPE,
  YAML_TYPE,
  type Category,
  type HostileCase,
} from './case.js';

const INVALID_UTF8: Record<string, number[]> = {
  'invalid continuation': [0xc3, 0x28],
  'lone continuation bytes': [0xa0, 0xa1],
  'invalid third byte': [0xe2, 0x28, 0xa1],
  'invalid four-byte sequence': [0xf0, 0x28, 0x8c, 0x28],
  'five-byte sequence': [0xf8, 0xa1, 0xa1, 0xa1, 0xa1],
  'overlong slash': [0xc0, 0xaf],
  'overlong NUL': [0xc0, 0x80],
  'encoded surrogate': [0xed, 0xa0, 0x80],
  'beyond U+10FFFF': [0xf4, 0x90, 0x80, 0x80],
  'bytes FE FF': [0xfe, 0xff],
};

/** The title's text replaced by the bytes. */
function spliced(text: string, bytes: number[]): Buffer {
  const [before, after] = text.split('Hostile') as [string, string];
  return Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);
}

/** A sequence cut short by the end of the body. */
const truncated = () => Buffer.concat([Buffer.from(catalogJson()), Buffer.from([0xe2, 0x82])]);

const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf32 = (text: string) =>
  Buffer.concat([
    Buffer.from([0xff, 0xfe, 0, 0]),
    ...[...text].map((c) => {
      const unit = Buffer.alloc(4);
      unit.writeUInt32LE(c.codePointAt(0)!);
      return unit;
    }),
  ]);

export const encoding: Category = {
  name: 'invalid UTF-8 and other encodings',
  cases: (seeds) => {
    const cases: HostileCase[] = [];
    for (const [name, bytes] of Object.entries(INVALID_UTF8)) {
      cases.push(...everyJsonWrite(seeds, `JSON with ${name}`, () => spliced(catalogJson(), bytes), 400));
      cases.push(...everyTextWrite(seeds, `XML with ${name}`, XML_TYPE, () => spliced(catalogXml(), bytes), 400));
      cases.push(...everyTextWrite(seeds, `YAML with ${name}`, YAML_TYPE, () => spliced(catalogYaml(), bytes), 400));
    }
    cases.push(...everyJsonWrite(seeds, 'JSON cut inside a multi-byte sequence', truncated, 400));
    // Encodings that are not read name themselves (415); XML in UTF-16 is read (test/xml-encodings.test.ts).
    cases.push(...everyJsonWrite(seeds, 'JSON in UTF-16 with a byte order mark', () => utf16(catalogJson()), 415));
    cases.push(
      ...everyTextWrite(seeds, 'XML in UTF-32 with a byte order mark', XML_TYPE, () => utf32(catalogXml()), 415),
    );
    cases.push(
      ...everyTextWrite(
        seeds,
        'XML declaring an encoding that is not read',
        XML_TYPE,
        () => catalogXml().replace('encoding="UTF-8"', 'encoding="EBCDIC-CP-US"'),
        415,
      ),
    );
    cases.push(
      ...everyTextWrite(
        seeds,
        'XML declaring UTF-16 in single bytes',
        XML_TYPE,
        () => catalogXml().replace('encoding="UTF-8"', 'encoding="UTF-16"'),
        400,
      ),
    );
    cases.push(
      ...everyTextWrite(
        seeds,
        'XML declaring US-ASCII with a byte above 0x7F',
        XML_TYPE,
        () =>
          Buffer.from(catalogXml().replace('encoding="UTF-8"', 'encoding="US-ASCII"').replace('Hostile', 'Hostilé')),
        400,
      ),
    );
    cases.push(
      ...everyTextWrite(seeds, 'YAML in UTF-32 with a byte order mark', YAML_TYPE, () => utf32(catalogYaml()), 415),
    );
    return cases;
  },
};
