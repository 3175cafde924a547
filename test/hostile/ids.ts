/**
 * Path traversal and SQL-ish text where an id goes: in paths (no such resource: 404, or 400 for a
 * path that is not even valid percent-encoding), in query strings (400) and in documents (400/422).
 */
import { catalogJson, JSON_TYPE, type Category, type HostileCase } from './case.js';

/** As they appear in the URL, already percent-encoded where a raw character could not go. */
const IDS: Record<string, string> = {
  'dot-dot': '..',
  'encoded traversal to /etc/passwd': '..%2F..%2F..%2Fetc%2Fpasswd',
  'fully encoded traversal': '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  'double-encoded traversal': '%252e%252e%252fetc%252fpasswd',
  'backslash traversal': '..%5C..%5Cwindows%5Cwin.ini',
  'dot-dot-slash doubled': '....%2F%2F....%2F%2Fetc',
  'SQL tautology': "'%20OR%20'1'%3D'1",
  'SQL statement': '1%3B%20DROP%20TABLE%20documents%3B--',
  'SQL comment after a real-looking uuid': "0f5c2f2e-7a1b-4c3d-9e8f-1a2b3c4d5e6f'--",
  'SQL UNION': "x'%20UNION%20SELECT%20hash%20FROM%20tokens--",
  'LIKE wildcard': '%25',
  'underscore wildcard': '_',
  'asterisk': '*',
  '65 characters': 'a'.repeat(65),
  '5000 characters': 'a'.repeat(5000),
  'emoji': '%F0%9F%92%A3',
};
/** Not valid percent-encoding, encoding no valid UTF-8, or a NUL: the URL itself is bad. */
const BAD_URL_IDS: Record<string, string> = {
  'encoded NUL': 'a%00b',
  'truncated percent-encoding': '%E0%A4%A',
  'percent without hex': '%zz',
  'encoded overlong slash': '%C0%AF',
};

function idCases(name: string, id: string, expect: number | readonly number[]): HostileCase[] {
  const doc = `/oscal/v1/catalog/${id}`;
  const reg = `/api/v1/catalogs/${id}`;
  return [
    { name: `${name} → GET generic`, method: 'GET', path: doc, expect },
    { name: `${name} → PUT generic`, method: 'PUT', path: doc, headers: JSON_TYPE, body: () => catalogJson(), expect },
    { name: `${name} → DELETE generic`, method: 'DELETE', path: doc, expect },
    { name: `${name} → GET access`, method: 'GET', path: `${doc}/access`, expect },
    {
      name: `${name} → PUT access`,
      method: 'PUT',
      path: `${doc}/access`,
      headers: JSON_TYPE,
      body: () => '{"visibility":"public"}',
      expect,
    },
    { name: `${name} → GET job`, method: 'GET', path: `/oscal/v1/jobs/${id}`, expect },
    { name: `${name} → GET registry`, method: 'GET', path: reg, expect },
    { name: `${name} → DELETE registry`, method: 'DELETE', path: reg, expect },
    { name: `${name} → GET registry versions`, method: 'GET', path: `${reg}/versions`, expect },
    { name: `${name} → DELETE registry version`, method: 'DELETE', path: `${reg}/versions/1`, expect },
    // The body's content-uuid differs from the path: 409 where the path could name a document.
    {
      name: `${name} → PUT registry`,
      method: 'PUT',
      path: reg,
      headers: JSON_TYPE,
      body: () => catalogJson(),
      expect: typeof expect === 'number' && expect === 404 ? [404, 409] : expect,
    },
  ];
}

const QUERIES: Record<string, string> = {
  'negative limit': '?limit=-1',
  'limit beyond the maximum': '?limit=1000000',
  'limit as text': '?limit=ten',
  'SQL in sort': '?sort=title%3B%20DROP%20TABLE%20documents',
  'SQL in the cursor': "?cursor='%20OR%201%3D1--",
  'forged cursor': `?cursor=${Buffer.from('["zzz","\' OR 1=1"').toString('base64url')}`,
  'NUL in q': '?q=a%00b',
  'q of 5000 characters': `?q=${'q'.repeat(5000)}`,
};

export const ids: Category = {
  name: 'ids with traversal and SQL-ish text',
  cases: (seeds) => [
    ...Object.entries(IDS).flatMap(([name, id]) => idCases(name, id, 404)),
    ...Object.entries(BAD_URL_IDS).flatMap(([name, id]) => idCases(name, id, [400, 404])),
    ...Object.entries(QUERIES).flatMap(([name, query]): HostileCase[] => [
      { name: `${name} → generic list`, method: 'GET', path: `/oscal/v1/catalog${query}`, expect: 400 },
      { name: `${name} → registry list`, method: 'GET', path: `/api/v1/catalogs${query}`, expect: 400 },
    ]),
    { name: 'SQL in an audit filter', method: 'GET', path: "/oscal/v1/audit?since='%20OR%201%3D1--", expect: 400 },
    {
      name: 'SQL in a version number',
      method: 'GET',
      path: `/api/v1/catalogs/${seeds.registryCatalog}/versions/1%20OR%201%3D1`,
      expect: 400,
    },
    {
      name: 'traversal in a version number',
      method: 'DELETE',
      path: `/api/v1/catalogs/${seeds.registryCatalog}/versions/..%2F..%2F1`,
      expect: 400,
    },
    {
      name: 'SQL-ish content-uuid in a document-ids entry → POST upload',
      method: 'POST',
      path: '/api/upload',
      headers: JSON_TYPE,
      expect: 400,
      body: () =>
        catalogJson({
          extraMetadata:
            ',"document-ids":[{"scheme":"http://oscal.io/oscal/identifier/contentuuid","identifier":"\' OR \'1\'=\'1"}]',
        }),
    },
    {
      name: 'SQL-ish content-uuid in a document-ids entry → POST generic',
      method: 'POST',
      path: '/oscal/v1/catalog',
      headers: JSON_TYPE,
      expect: 422,
      body: () =>
        catalogJson({
          extraMetadata:
            ',"document-ids":[{"scheme":"http://oscal.io/oscal/identifier/contentuuid","identifier":"1; DROP TABLE documents"}]',
        }),
    },
    {
      name: 'traversal as the content-uuid → POST generic',
      method: 'POST',
      path: '/oscal/v1/catalog',
      headers: JSON_TYPE,
      expect: 422,
      body: () =>
        catalogJson({
          extraMetadata:
            ',"document-ids":[{"scheme":"http://oscal.io/oscal/identifier/contentuuid","identifier":"../../etc/passwd"}]',
        }),
    },
    {
      name: 'SQL-ish principal in a grant',
      method: 'PUT',
      path: `/oscal/v1/catalog/${seeds.catalog}/access`,
      headers: JSON_TYPE,
      expect: 400,
      body: () => '{"grants":[{"principal":"user:x\' OR \'1\'=\'1 --","permission":"write"}]}',
    },
    {
      name: 'SQL-ish permission in a grant',
      method: 'PUT',
      path: `/oscal/v1/catalog/${seeds.catalog}/access`,
      headers: JSON_TYPE,
      expect: 400,
      body: () => '{"grants":[{"principal":"user:x","permission":"write\'; UPDATE documents SET owner=\'x"}]}',
    },
  ],
};
