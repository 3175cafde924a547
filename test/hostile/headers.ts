/** Hostile request headers: credentials, content types, Accept, file names, and headers beyond any sane size. */
import { catalogJson, JSON_TYPE, type Category, type HostileCase } from './case.js';

const AUTHORIZATIONS: Record<string, string> = {
  'a bearer token of 8000 characters': `Bearer odt_${'a'.repeat(8000)}`,
  'a JWT-shaped token in local mode': 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiIsInJvbGVzIjoiYWRtaW4ifQ.',
  'an unsigned JWT claiming admin': 'Bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJhZG1pbiJ9.',
  'Basic credentials': `Basic ${Buffer.from('admin:admin').toString('base64')}`,
  'two tokens': 'Bearer a, Bearer b',
  'SQL in the token': "Bearer ' OR '1'='1",
  'the scheme alone': 'Bearer',
  'a token with a tab': 'Bearer odt_a\tb',
};

const CONTENT_TYPES: Record<string, { type?: string; body: string; expect: number }> = {
  'no Content-Type': { body: catalogJson(), expect: 415 },
  'text/plain': { type: 'text/plain', body: catalogJson(), expect: 415 },
  'a form encoding': { type: 'application/x-www-form-urlencoded', body: 'catalog=1', expect: 415 },
  '*/*': { type: '*/*', body: catalogJson(), expect: 415 },
  'a Content-Type of 4000 characters': { type: `application/${'x'.repeat(4000)}`, body: catalogJson(), expect: 415 },
  'parameters of 4000 characters on JSON': { type: `application/json; x=${'y'.repeat(4000)}`, body: '{', expect: 400 },
  'JSON declared as UTF-16 but broken': { type: 'application/json; charset=utf-16', body: '{', expect: 400 },
  'XML declared, JSON sent': { type: 'application/xml', body: catalogJson(), expect: 400 },
  'YAML declared, XML sent': {
    type: 'application/yaml',
    body: '<catalog xmlns="http://csrc.nist.gov/ns/oscal/1.0"/>',
    expect: 422,
  },
};

const ACCEPTS: Record<string, string> = {
  'HTML only': 'text/html',
  'JSON refused by q=0': 'application/json;q=0',
  'a malformed q': 'image/png;q=abc',
  '500 unsupported types': Array.from({ length: 500 }, (_, i) => `application/x-${i}`).join(', '),
};

export const headers: Category = {
  name: 'hostile headers',
  cases: (seeds) => {
    const doc = `/oscal/v1/catalog/${seeds.catalog}`;
    const cases: HostileCase[] = [];
    for (const [name, authorization] of Object.entries(AUTHORIZATIONS)) {
      cases.push({
        name: `${name} → GET public registry document`,
        method: 'GET',
        path: `/api/v1/catalogs/${seeds.registryCatalog}`,
        as: 'anonymous',
        headers: { authorization },
        expect: 401,
      });
      cases.push({
        name: `${name} → POST generic`,
        method: 'POST',
        path: '/oscal/v1/catalog',
        as: 'anonymous',
        headers: { authorization, ...JSON_TYPE },
        body: () => catalogJson(),
        expect: 401,
      });
    }
    for (const [name, { type, body, expect }] of Object.entries(CONTENT_TYPES)) {
      cases.push({
        name: `${name} → POST generic`,
        method: 'POST',
        path: '/oscal/v1/catalog',
        headers: type === undefined ? {} : { 'content-type': type },
        body: () => body,
        expect,
      });
    }
    for (const [name, accept] of Object.entries(ACCEPTS))
      cases.push({ name: `Accept: ${name}`, method: 'GET', path: doc, headers: { accept }, expect: 406 });
    cases.push(
      {
        name: 'a header of 20 KB',
        method: 'GET',
        path: doc,
        headers: { 'x-padding': 'p'.repeat(20 * 1024) },
        expect: 431,
      },
      // Past 2000 headers Node keeps none of the rest, Host among them (400), or their bytes overflow (431).
      {
        name: '5000 small headers',
        method: 'GET',
        path: doc,
        headers: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`x-h${i}`, 'v'])),
        expect: [400, 431],
      },
      {
        name: 'a cookie of 20 KB',
        method: 'GET',
        path: doc,
        headers: { cookie: `appSession=${'c'.repeat(20 * 1024)}` },
        expect: 431,
      },
      { name: 'a URL of 20 KB', method: 'GET', path: `${doc}?q=${'q'.repeat(20 * 1024)}`, expect: [400, 414, 431] },
      {
        name: 'a request id of 8 KB on a refused write',
        method: 'POST',
        path: '/oscal/v1/catalog',
        as: 'anonymous',
        headers: { 'x-request-id': 'r'.repeat(8 * 1024), ...JSON_TYPE },
        body: () => catalogJson(),
        expect: 401,
      },
      {
        name: 'a foreign Host on a refused write',
        method: 'POST',
        path: '/oscal/v1/catalog',
        as: 'anonymous',
        headers: { host: 'evil.example', ...JSON_TYPE },
        body: () => catalogJson(),
        expect: 401,
      },
      {
        name: 'a Content-Disposition file name with traversal on the generic create',
        method: 'POST',
        path: '/oscal/v1/catalog',
        headers: { ...JSON_TYPE, 'content-disposition': 'attachment; filename="../../../etc/passwd"' },
        body: () => '{',
        expect: 400,
      },
      {
        name: 'a Content-Disposition file name of 8 KB',
        method: 'POST',
        path: '/oscal/v1/catalog',
        headers: { ...JSON_TYPE, 'content-disposition': `attachment; filename="${'n'.repeat(8192)}"` },
        body: () => '{',
        expect: 400,
      },
      {
        name: 'an RFC 5987 file name with encoded CRLF',
        method: 'POST',
        path: '/oscal/v1/catalog',
        headers: { ...JSON_TYPE, 'content-disposition': "attachment; filename*=UTF-8''a%0D%0AX-Injected%3A%20yes" },
        body: () => '{',
        expect: 400,
      },
      {
        name: 'a method no route has (PATCH)',
        method: 'PATCH',
        path: doc,
        headers: JSON_TYPE,
        body: () => catalogJson(),
        expect: 404,
      },
      { name: 'TRACE', method: 'TRACE', path: doc, expect: [400, 404, 405] },
      {
        name: 'a preflight with CORS off',
        method: 'OPTIONS',
        path: doc,
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'DELETE' },
        expect: 404,
      },
    );
    return cases;
  },
};
