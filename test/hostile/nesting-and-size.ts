/** 10 000-deep nesting in every format, Markdown nesting, 100 MB single strings and very many items. */
import {
  catalogJson,
  catalogXml,
  catalogYaml,
  everyJsonWrite,
  everyTextWrite,
  JSON_TYPE,
  UUID,
  XML_TYPE,
  YAML_TYPE,
  type Category,
  type HostileCase,
} from './case.js';

const DEEP = 10_000;
const HUNDRED_MB = 100 * 1024 * 1024;

const nestedGroups = () => {
  let group = '{"title":"g"}';
  for (let i = 0; i < DEEP; i++) group = `{"title":"g","groups":[${group}]}`;
  return catalogJson({ extra: `,"groups":[${group}]` });
};
const nestedParts = () =>
  catalogJson({
    extra: `,"controls":[{"id":"c","title":"c","parts":[${'{"name":"item","parts":['.repeat(DEEP)}{"name":"item"}${']}'.repeat(DEEP)}]}]`,
  });
const xmlGroups = () => catalogXml({ body: `${'<group><title>g</title>'.repeat(DEEP)}${'</group>'.repeat(DEEP)}` });
const xmlMarkup = () =>
  catalogXml({ metadataExtra: `<remarks><p>${'<em>'.repeat(DEEP)}x${'</em>'.repeat(DEEP)}</p></remarks>` });
const yamlBlock = () =>
  `catalog:\n${Array.from({ length: DEEP }, (_, i) => `${' '.repeat(i + 2)}k${i}:`).join('\n')} x\n`;
const markdownEmphasis = () => catalogJson({ extraMetadata: `,"remarks":${JSON.stringify(EMPHASIS)}` });
const EMPHASIS = `${'*'.repeat(DEEP)}x${'*'.repeat(DEEP)}`;

const MANY = 100_000;
const manyUnknown = () => catalogJson({ extraMetadata: Array.from({ length: MANY }, (_, i) => `,"p${i}":1`).join('') });
const manyInvalid = () =>
  catalogJson({ extraMetadata: `,"props":[${Array(MANY).fill('{"name":"","value":""}').join(',')}]` });

export const nestingAndSize: Category = {
  name: 'deep nesting and huge inputs',
  cases: (seeds) => {
    const cases: HostileCase[] = [
      ...everyJsonWrite(seeds, `${DEEP}-deep arrays`, () => `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`, 400),
      ...everyJsonWrite(
        seeds,
        `${DEEP}-deep objects inside the model`,
        () => catalogJson({ extra: `,"back-matter":${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}` }),
        400,
      ),
      ...everyJsonWrite(seeds, `${DEEP} open brackets, never closed`, () => '['.repeat(DEEP), 400),
      ...everyJsonWrite(seeds, `${DEEP}-deep groups (valid OSCAL shape)`, nestedGroups, 400),
      ...everyJsonWrite(seeds, `${DEEP}-deep parts (valid OSCAL shape)`, nestedParts, 400),
      ...everyTextWrite(seeds, `${DEEP}-deep XML groups`, XML_TYPE, xmlGroups, 400),
      ...everyTextWrite(seeds, `${DEEP}-deep XML markup`, XML_TYPE, xmlMarkup, 400),
      // The reader stops at the first element the model does not allow, however deep the rest goes.
      ...everyTextWrite(
        seeds,
        `${DEEP}-deep unknown XML elements`,
        XML_TYPE,
        () => catalogXml({ metadataExtra: `${'<x>'.repeat(DEEP)}${'</x>'.repeat(DEEP)}` }),
        422,
      ),
      ...everyTextWrite(
        seeds,
        `${DEEP}-deep YAML flow`,
        YAML_TYPE,
        () => `catalog: ${'['.repeat(DEEP)}${']'.repeat(DEEP)}`,
        400,
      ),
      ...everyTextWrite(seeds, `${DEEP}-deep YAML block mappings`, YAML_TYPE, yamlBlock, 400),
      ...everyJsonWrite(seeds, `Markdown emphasis ${DEEP} deep`, markdownEmphasis, 422),
      ...everyTextWrite(
        seeds,
        `Markdown emphasis ${DEEP} deep in YAML`,
        YAML_TYPE,
        () => catalogYaml().replace('title: Hostile', `title: Hostile\n    remarks: ${JSON.stringify(EMPHASIS)}`),
        422,
      ),
      // Very many problems: the answer lists 100 of them, and costs time in proportion (not squared).
      {
        name: '100 000 unknown properties → POST generic',
        method: 'POST',
        path: '/oscal/v1/catalog',
        headers: JSON_TYPE,
        body: manyUnknown,
        expect: 422,
      },
      {
        name: '100 000 unknown properties → POST upload',
        method: 'POST',
        path: '/api/upload',
        headers: JSON_TYPE,
        body: manyUnknown,
        expect: 422,
      },
      {
        name: '100 000 invalid props → PUT generic',
        method: 'PUT',
        path: `/oscal/v1/catalog/${seeds.catalog}`,
        headers: JSON_TYPE,
        body: manyInvalid,
        expect: 422,
      },
      {
        name: '100 000 invalid props → PUT registry',
        method: 'PUT',
        path: `/api/v1/catalogs/${seeds.registryCatalog}`,
        headers: JSON_TYPE,
        body: manyInvalid,
        expect: 422,
      },
      // One string of 100 MB: parsed, checked, refused with an error body that does not echo it.
      {
        name: '100 MB uuid in JSON → POST generic',
        method: 'POST',
        path: '/oscal/v1/catalog',
        headers: JSON_TYPE,
        body: () => catalogJson({ uuid: 'u'.repeat(HUNDRED_MB) }),
        expect: 422,
      },
      {
        name: '100 MB property name in JSON → POST upload',
        method: 'POST',
        path: '/api/upload',
        headers: JSON_TYPE,
        body: () => catalogJson({ extra: `,"${'k'.repeat(HUNDRED_MB)}":1` }),
        expect: 422,
      },
      {
        name: '100 MB attribute in XML → POST generic',
        method: 'POST',
        path: '/oscal/v1/catalog',
        headers: XML_TYPE,
        body: () => catalogXml({ uuid: 'u'.repeat(HUNDRED_MB) }),
        expect: 422,
      },
      {
        name: '100 MB text of an unknown XML element → PUT generic',
        method: 'PUT',
        path: `/oscal/v1/catalog/${seeds.catalog}`,
        headers: XML_TYPE,
        body: () => catalogXml({ metadataExtra: `<evil>${'t'.repeat(HUNDRED_MB)}</evil>` }),
        expect: 422,
      },
      {
        name: '100 MB YAML scalar → POST generic',
        method: 'POST',
        path: '/oscal/v1/catalog',
        headers: YAML_TYPE,
        body: () => catalogYaml().replace(UUID, 'u'.repeat(HUNDRED_MB)),
        expect: 422,
      },
      {
        name: '100 MB body → PUT access (a small-body route)',
        method: 'PUT',
        path: `/oscal/v1/catalog/${seeds.catalog}/access`,
        headers: JSON_TYPE,
        body: () => `{"visibility":"${'v'.repeat(HUNDRED_MB)}"}`,
        expect: 413,
      },
    ];
    return cases;
  },
};
