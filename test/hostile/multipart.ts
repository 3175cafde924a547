/** Multipart abuse on the upload: no or wrong boundary, too many parts, huge part headers, hostile file names. */
import { BOUNDARY, catalogJson, FILE_PART, JSON_TYPE, multipart, type Category, type HostileCase } from './case.js';

const FORM = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
const BROKEN = '{"catalog":';
const file = (body: string | Buffer, headers = FILE_PART) => ({ headers, body });
const field = (name: string, value = 'v') => ({
  headers: `Content-Disposition: form-data; name="${name}"`,
  body: value,
});
const named = (filename: string) =>
  `Content-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/json`;

/** Cases on POST /api/upload: each body is broken or not OSCAL, so nothing may be stored whatever the parser makes of the form. */
const UPLOADS: { name: string; type?: string; body: () => string | Buffer; expect: number | readonly number[] }[] = [
  {
    name: 'no boundary parameter',
    type: 'multipart/form-data',
    body: () => multipart([file(catalogJson())]),
    expect: [400, 415],
  },
  {
    name: 'empty boundary parameter',
    type: 'multipart/form-data; boundary=',
    body: () => multipart([file(catalogJson())]),
    expect: [400, 415],
  },
  {
    name: 'boundary the body does not use',
    type: 'multipart/form-data; boundary=other',
    body: () => multipart([file(catalogJson())]),
    expect: 400,
  },
  {
    name: 'boundary of 300 characters',
    type: `multipart/form-data; boundary=${'b'.repeat(300)}`,
    body: () => multipart([file(BROKEN)], 'b'.repeat(300)),
    expect: 400,
  },
  {
    name: 'no closing boundary',
    body: () => multipart([file(BROKEN)]).subarray(0, -(BOUNDARY.length + 6)),
    expect: 400,
  },
  { name: 'closing boundary only', body: () => `--${BOUNDARY}--\r\n`, expect: 400 },
  { name: 'empty body', body: () => '', expect: 400 },
  { name: 'garbage instead of parts', body: () => 'this is not a form', expect: 400 },
  { name: '1000 parts', body: () => multipart(Array.from({ length: 1000 }, (_, i) => field(`f${i}`))), expect: 413 },
  {
    name: '50 fields before the file',
    body: () => multipart([...Array.from({ length: 50 }, (_, i) => field(`f${i}`)), file(catalogJson())]),
    expect: 413,
  },
  { name: 'two files', body: () => multipart([file(BROKEN), file(BROKEN)]), expect: 413 },
  {
    name: 'the file in another field only',
    body: () => multipart([file(catalogJson(), named('x.json').replace('name="file"', 'name="other"'))]),
    expect: 400,
  },
  { name: 'a plain field named file', body: () => multipart([field('file', catalogJson())]), expect: 400 },
  // Fields beyond 64 KB are cut short, and the broken file refused.
  {
    name: 'a field value of 1 MB',
    body: () => multipart([field('note', 'n'.repeat(1024 * 1024)), file(BROKEN)]),
    expect: [400, 413],
  },
  {
    name: 'a part header of 100 KB',
    body: () => multipart([file(BROKEN, `${FILE_PART}\r\nX-Padding: ${'p'.repeat(100 * 1024)}`)]),
    expect: [400, 413],
  },
  {
    name: '2000 part headers',
    body: () => multipart([file(BROKEN, `${FILE_PART}${'\r\nX-H: v'.repeat(2000)}`)]),
    expect: [400, 413],
  },
  {
    name: 'a part without Content-Disposition',
    body: () => multipart([file(BROKEN, 'Content-Type: application/json')]),
    expect: 400,
  },
  {
    name: 'a file name trying header injection',
    body: () => multipart([file(BROKEN, named('a.json"\r\nX-Injected: yes\r\nX-Other: "b'))]),
    expect: 400,
  },
  {
    name: 'a file name with traversal',
    body: () => multipart([file(BROKEN, named('../../../../etc/passwd'))]),
    expect: 400,
  },
  { name: 'a file name with NUL', body: () => multipart([file(BROKEN, named('a\u0000.json'))]), expect: 400 },
  {
    name: 'a file name of 10 000 characters',
    body: () => multipart([file(BROKEN, named('n'.repeat(10_000)))]),
    expect: [400, 413],
  },
  {
    name: 'a base64 transfer encoding',
    body: () =>
      multipart([
        file(Buffer.from(catalogJson()).toString('base64'), `${FILE_PART}\r\nContent-Transfer-Encoding: base64`),
      ]),
    expect: 400,
  },
  {
    name: 'a nested multipart/mixed',
    body: () =>
      multipart([
        file(
          multipart([file(catalogJson())], 'inner'),
          'Content-Disposition: form-data; name="file"\r\nContent-Type: multipart/mixed; boundary=inner',
        ),
      ]),
    expect: 400,
  },
  {
    name: 'a megabyte of preamble',
    body: () => Buffer.concat([Buffer.from('p'.repeat(1024 * 1024) + '\r\n'), multipart([file(BROKEN)])]),
    expect: 400,
  },
  { name: '30 files', body: () => multipart(Array.from({ length: 30 }, () => file(BROKEN))), expect: 413 },
];

export const multipartAbuse: Category = {
  name: 'multipart abuse',
  cases: (seeds) => [
    ...UPLOADS.map(({ name, type, body, expect }): HostileCase => ({
      name,
      method: 'POST',
      path: '/api/upload',
      headers: { 'content-type': type ?? FORM['content-type'] },
      body,
      expect,
    })),
    {
      name: 'a form sent to the generic create',
      method: 'POST',
      path: '/oscal/v1/catalog',
      headers: FORM,
      body: () => multipart([file(catalogJson())]),
      expect: 415,
    },
    {
      name: 'a form sent to the generic replace',
      method: 'PUT',
      path: `/oscal/v1/catalog/${seeds.catalog}`,
      headers: FORM,
      body: () => multipart([file(catalogJson())]),
      expect: 415,
    },
    {
      name: 'a form sent to the registry',
      method: 'PUT',
      path: `/api/v1/catalogs/${seeds.registryCatalog}`,
      headers: FORM,
      body: () => multipart([file(catalogJson())]),
      expect: 415,
    },
    {
      name: 'a form sent to the access settings',
      method: 'PUT',
      path: `/oscal/v1/catalog/${seeds.catalog}/access`,
      headers: FORM,
      body: () => multipart([field('visibility', 'public')]),
      expect: 415,
    },
    {
      name: 'JSON declared, a form sent',
      method: 'POST',
      path: '/api/upload',
      headers: JSON_TYPE,
      body: () => multipart([file(catalogJson())]),
      expect: 400,
    },
  ],
};
