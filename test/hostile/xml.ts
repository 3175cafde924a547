/** DOCTYPEs, external entities, entity expansion bombs and broken XML: 400; XML that is no OSCAL: 422. */
import { catalogXml, everyTextWrite, XML_TYPE, type Category, type HostileCase } from './case.js';

const lol = (n: number) => `<!ENTITY lol${n} "${`&lol${n - 1};`.repeat(10)}">`;
const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE catalog [<!ENTITY lol0 "lol">${Array.from({ length: 9 }, (_, i) => lol(i + 1)).join('')}]>
<catalog xmlns="http://csrc.nist.gov/ns/oscal/1.0" uuid="x"><metadata><title>&lol9;</title></metadata></catalog>`;

const withDoctype = (doctype: string, title = 'Hostile') =>
  catalogXml({ prolog: `<?xml version="1.0" encoding="UTF-8"?>\n${doctype}` }).replace(
    '<title>Hostile</title>',
    `<title>${title}</title>`,
  );

const DOCTYPES: Record<string, string> = {
  'XXE reading a local file': withDoctype('<!DOCTYPE catalog [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>', '&xxe;'),
  'XXE fetching a URL': withDoctype('<!DOCTYPE catalog [<!ENTITY xxe SYSTEM "http://127.0.0.1:9/xxe">]>', '&xxe;'),
  'XXE through a parameter entity': withDoctype(
    '<!DOCTYPE catalog [<!ENTITY % remote SYSTEM "http://127.0.0.1:9/evil.dtd"> %remote;]>',
  ),
  'external DTD by SYSTEM id': withDoctype('<!DOCTYPE catalog SYSTEM "http://127.0.0.1:9/catalog.dtd">'),
  'external DTD by PUBLIC id': withDoctype('<!DOCTYPE catalog PUBLIC "-//HOSTILE//EN" "file:///etc/passwd">'),
  'billion laughs': BILLION_LAUGHS,
  'quadratic blowup': withDoctype(`<!DOCTYPE catalog [<!ENTITY big "${'x'.repeat(50_000)}">]>`, '&big;'.repeat(50_000)),
  'entity in an attribute': withDoctype('<!DOCTYPE catalog [<!ENTITY xxe SYSTEM "file:///etc/hostname">]>').replace(
    /uuid="[^"]*"/,
    'uuid="&xxe;"',
  ),
  'lower-case doctype': withDoctype('<!doctype catalog>'),
  'mixed-case doctype': withDoctype('<!DocType catalog>'),
  'doctype after a comment': catalogXml({
    prolog: '<?xml version="1.0"?><!-- hello --><!DOCTYPE catalog [<!ENTITY e "x">]>',
  }),
  'doctype after a processing instruction': catalogXml({ prolog: '<?xml version="1.0"?><?pi x?><!DOCTYPE catalog>' }),
  'doctype without an XML declaration': catalogXml({ prolog: '<!DOCTYPE catalog [<!ENTITY e "x">]>' }),
  'doctype inside the root': catalogXml({ metadataExtra: '<!DOCTYPE x>' }),
};

const MALFORMED: Record<string, string> = {
  'undefined entity': catalogXml().replace('<title>Hostile</title>', '<title>&xxe;</title>'),
  'character reference to NUL': catalogXml().replace('<title>Hostile</title>', '<title>&#0;</title>'),
  'character reference to a surrogate': catalogXml().replace('<title>Hostile</title>', '<title>&#xD800;</title>'),
  'character reference beyond Unicode': catalogXml().replace('<title>Hostile</title>', '<title>&#x110000;</title>'),
  'unclosed root': catalogXml().replace('</catalog>', ''),
  'mismatched end tag': catalogXml().replace('</metadata>', '</metadatum>'),
  'two roots': `${catalogXml()}<catalog/>`,
  'text after the root': `${catalogXml()} trailing`,
  'unquoted attribute': catalogXml().replace(/uuid="([^"]*)"/, 'uuid=$1'),
  'duplicate attribute': catalogXml().replace('uuid=', 'uuid="a" uuid='),
  'less-than in an attribute': catalogXml().replace(/uuid="[^"]*"/, 'uuid="<"'),
  'undeclared prefix': catalogXml().replace('<title>Hostile</title>', '<x:title>Hostile</x:title>'),
  'unterminated CDATA': catalogXml().replace('<title>Hostile</title>', '<title><![CDATA[Hostile</title>'),
  'double hyphen in a comment': catalogXml({ metadataExtra: '<!-- a -- b -->' }),
  'XML declaration not at the start': ` \n${catalogXml()}`,
  'NUL byte in text': catalogXml().replace('<title>Hostile</title>', '<title>a\u0000b</title>'),
  'JSON sent as XML': '{"catalog":{}}',
  'empty body': '',
  'whitespace only': '   \n',
  'a bare less-than': '<',
};

const NOT_OSCAL: Record<string, string> = {
  'XInclude of a local file': catalogXml({
    metadataExtra: '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="file:///etc/passwd" parse="text"/>',
  }),
  'root in no namespace': catalogXml().replace(' xmlns="http://csrc.nist.gov/ns/oscal/1.0"', ''),
  'root in a foreign namespace': catalogXml().replace('http://csrc.nist.gov/ns/oscal/1.0"', 'http://example.com/evil"'),
  'unknown root element': '<?xml version="1.0"?><evil xmlns="http://csrc.nist.gov/ns/oscal/1.0"/>',
  'ten thousand unknown attributes': catalogXml().replace(
    '<metadata>',
    `<metadata ${Array.from({ length: 10_000 }, (_, i) => `a${i}="x"`).join(' ')}>`,
  ),
  'script element in markup': catalogXml({ metadataExtra: '<remarks><script>alert(1)</script></remarks>' }),
  'unknown element among the metadata': catalogXml({ metadataExtra: '<evil/>' }),
};

export const xml: Category = {
  name: 'XML: DOCTYPE, external entities, bombs, malformed',
  cases: (seeds) => {
    const cases: HostileCase[] = [
      ...Object.entries(DOCTYPES).flatMap(([name, body]) => everyTextWrite(seeds, name, XML_TYPE, () => body, 400)),
      ...Object.entries(MALFORMED).flatMap(([name, body]) => everyTextWrite(seeds, name, XML_TYPE, () => body, 400)),
      ...Object.entries(NOT_OSCAL).flatMap(([name, body]) => everyTextWrite(seeds, name, XML_TYPE, () => body, 422)),
    ];
    // The registry takes JSON only: XML is refused unread, hostile or not.
    for (const [name, body] of Object.entries(DOCTYPES).slice(0, 3)) {
      cases.push({
        name: `${name} → PUT registry`,
        method: 'PUT',
        path: `/api/v1/catalogs/${seeds.registryCatalog}`,
        headers: XML_TYPE,
        body: () => body,
        expect: 415,
      });
      cases.push({
        name: `${name} → POST upload`,
        method: 'POST',
        path: '/api/upload',
        headers: XML_TYPE,
        body: () => body,
        expect: 415,
      });
    }
    return cases;
  },
};
