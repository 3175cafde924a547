/** Mutations of catalogs, profiles and mapping collections. */
import type { Mutation } from './corpus.js';
import { add, remove, set, unwrap } from './json-edit.js';

/** The trimmed rev5 catalog (1.0.0) and the basic example catalog place their first control differently. */
const REV5 = 'groups/0/controls/0';
const BASIC = 'groups/0/groups/0/controls/0';

const extraProp = { name: 'review-priority', ns: 'https://example.org/ns/oscal', value: 'high', class: 'internal' };

export const CATALOG_MUTATIONS: readonly Mutation[] = [
  {
    kind: 'bad-enum', what: 'parameter select how-many "two"', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.0.0'],
    edits: [set(`${REV5}/params/1/select/how-many`, 'two')],
  },
  {
    kind: 'bad-enum', what: 'parameter select how-many "two"', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.0.4', 'catalog@1.1.2', 'catalog@1.2.1'],
    edits: [set(`${BASIC}/params/0/select/how-many`, 'two')],
    path: `${BASIC}/params/0/select/how-many`,
  },
  {
    kind: 'valid-edit', what: 'parameter select how-many "one"', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.2.1', 'catalog@1.0.4'],
    edits: [set(`${BASIC}/params/0/select/how-many`, 'one')],
  },
  {
    kind: 'wrong-type', what: 'parameter select how-many as a number', expect: 'invalid',
    on: ['catalog@1.0.0'],
    edits: [set(`${REV5}/params/1/select/how-many`, 1)],
  },
  {
    kind: 'bad-token', what: 'control id starting with a digit', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.0.0'],
    edits: [set(`${REV5}/id`, '1-ac')],
  },
  {
    kind: 'bad-token', what: 'control id starting with a digit', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.1.2'],
    edits: [set(`${BASIC}/id`, '1.1.1')],
  },
  {
    kind: 'bad-token', what: 'group id with a space', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.0.0', 'catalog@1.2.1'],
    edits: [set('groups/0/id', 'access control')],
  },
  {
    kind: 'bad-token', what: 'control class with a space', expect: 'invalid', alsoAs: ['yaml'],
    on: ['catalog@1.0.0'],
    edits: [set(`${REV5}/class`, 'SP 800-53')],
  },
  {
    kind: 'bad-token', what: 'prop name with a space', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.2.1', 'catalog@1.0.4'],
    edits: [set('groups/0/props/0/name', 'sort id')],
  },
  {
    kind: 'missing-required', what: 'control without title', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.0.0'],
    edits: [remove('groups/0/controls/1/title')],
  },
  {
    kind: 'missing-required', what: 'control without title', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.0.4', 'catalog@1.2.1'],
    edits: [remove('groups/0/groups/0/controls/1/title')],
  },
  {
    kind: 'missing-required', what: 'control without id', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.1.2'],
    edits: [remove('groups/1/groups/0/controls/0/id')],
  },
  {
    kind: 'missing-required', what: 'part without name', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.0.0'],
    edits: [remove(`${REV5}/parts/0/name`)],
  },
  {
    kind: 'missing-required', what: 'part without name', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.2.1'],
    edits: [remove(`${BASIC}/parts/0/name`)],
  },
  {
    kind: 'missing-required', what: 'prop without value', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.0.0'],
    edits: [remove(`${REV5}/props/0/value`)],
  },
  {
    kind: 'missing-required', what: 'prop without value', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.1.2'],
    edits: [remove('groups/0/props/0/value')],
  },
  {
    kind: 'extra-property', what: 'unknown property in an enhancement (depth 5)', expect: 'invalid',
    on: ['catalog@1.0.0'],
    edits: [add('groups/0/controls/1/controls/0/status', 'withdrawn')],
  },
  {
    kind: 'extra-property', what: 'unknown property in a nested control', expect: 'invalid',
    on: ['catalog@1.1.2', 'catalog@1.2.1'],
    edits: [add(`${BASIC}/status`, 'withdrawn')],
    path: `${BASIC}/status`,
  },
  {
    kind: 'extra-property', what: 'unknown property in a parameter select', expect: 'invalid',
    on: ['catalog@1.0.4'],
    edits: [add(`${BASIC}/params/0/select/default`, 'one')],
  },
  {
    kind: 'singleton-for-array', what: 'control props as one object', expect: 'invalid',
    on: ['catalog@1.0.0'],
    edits: [unwrap(`${REV5}/props`)],
  },
  {
    kind: 'singleton-for-array', what: 'group props as one object', expect: 'invalid',
    on: ['catalog@1.0.4', 'catalog@1.2.1'],
    edits: [unwrap('groups/0/props')],
  },
  {
    kind: 'empty-array', what: 'control parts empty', expect: 'invalid', alsoAs: ['yaml'],
    on: ['catalog@1.2.1', 'catalog@1.1.2'],
    edits: [set('groups/0/groups/0/controls/1/parts', [])],
  },
  {
    kind: 'empty-array', what: 'control links empty', expect: 'invalid', alsoAs: ['yaml'],
    on: ['catalog@1.0.0'],
    edits: [set(`${REV5}/links`, [])],
  },
  {
    kind: 'wrong-type', what: 'prop value is a number', expect: 'invalid',
    on: ['catalog@1.0.0'],
    edits: [set(`${REV5}/props/0/value`, 1)],
  },
  {
    kind: 'wrong-type', what: 'prop value is a number', expect: 'invalid',
    on: ['catalog@1.2.1'],
    edits: [set('groups/0/props/0/value', 1)],
  },
  {
    kind: 'wrong-type', what: 'parameter is a string', expect: 'invalid',
    on: ['catalog@1.1.2'],
    edits: [set(`${BASIC}/params/1`, 's1.1.1-prm_2')],
  },
  {
    kind: 'wrong-type', what: 'parameter is a string', expect: 'invalid',
    on: ['catalog@1.0.0'],
    edits: [set(`${REV5}/params/0`, 'ac-1_prm_1')],
  },
  {
    kind: 'bad-string', what: 'prop value with a leading space', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.0.0'],
    edits: [set(`${REV5}/props/0/value`, ' AC-1')],
  },
  {
    kind: 'bad-string', what: 'prop value with a leading space', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.1.2'],
    edits: [set('groups/0/props/0/value', ' 1')],
  },
  {
    kind: 'bad-string', what: 'prop value empty', expect: 'invalid', alsoAs: ['yaml'],
    on: ['catalog@1.0.4', 'catalog@1.2.1'],
    edits: [set('groups/0/props/0/value', '')],
  },
  {
    kind: 'markup-line', what: 'parameter label with a line break', expect: 'invalid', alsoAs: ['yaml'],
    on: ['catalog@1.0.0'],
    edits: [set(`${REV5}/params/0/label`, 'organization-defined\npersonnel or roles')],
  },
  {
    kind: 'markup-line', what: 'metadata title with a line break', expect: 'invalid', alsoAs: ['yaml'],
    on: ['catalog@1.1.2', 'catalog@1.0.4'],
    edits: [set('metadata/title', 'Sample Security Catalog\nfor Demonstration')],
    path: 'metadata/title',
  },
  {
    // Valid in every release's XSD; 1.1.0 on, the JSON Schema's markup-line pattern refuses it, which is a warning.
    kind: 'markup-line', what: 'metadata title empty', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.0.4', 'catalog@1.1.2', 'catalog@1.2.1'],
    edits: [set('metadata/title', '')],
  },
  {
    kind: 'markup-line', what: 'select choice with a line break', expect: 'invalid', alsoAs: ['yaml'],
    on: ['catalog@1.2.1'],
    edits: [set(`${BASIC}/params/0/select/choice/0`, 'initiating a device lock\nafter inactivity')],
  },
  {
    kind: 'valid-edit', what: 'metadata title with inline Markdown', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.0.0', 'catalog@1.2.1'],
    edits: [set('metadata/title', 'A **bold** and *emphasized* `code` [link](https://example.org) title')],
  },
  {
    kind: 'valid-edit', what: 'a namespaced prop added to a control', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.0.0'],
    edits: [add(`${REV5}/props/-`, extraProp)],
  },
  {
    kind: 'valid-edit', what: 'a namespaced prop added to a control', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.1.2', 'catalog@1.2.1'],
    edits: [add(`${BASIC}/props/-`, extraProp)],
  },
  {
    kind: 'cross-release', what: 'prop with a group flag (added in 1.1)', expect: { '1.0': 'invalid', '1.1': 'valid', '1.2': 'valid' }, alsoAs: ['yaml'],
    on: ['catalog@1.0.4', 'catalog@1.1.2', 'catalog@1.2.1'],
    edits: [add('groups/0/props/-', { ...extraProp, group: 'triage' })],
  },
  {
    kind: 'bad-uri', what: 'prop ns that is no absolute URI', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.0.0'],
    edits: [add(`${REV5}/props/-`, { ...extraProp, ns: 'example.org/ns/oscal' })],
  },
  {
    kind: 'bad-uri', what: 'prop ns that is no absolute URI', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.0.4', 'catalog@1.2.1'],
    edits: [add('groups/0/props/-', { ...extraProp, ns: 'example.org/ns/oscal' })],
  },
  {
    kind: 'bad-uri', what: 'link href with spaces', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.0.0'],
    edits: [set(`${REV5}/links/0/href`, '#see ac 2')],
  },
  {
    kind: 'valid-edit', what: 'link href as a relative path', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.0.0'],
    edits: [set(`${REV5}/links/0/href`, '../rev4/catalog.json#ac-1')],
  },
  {
    kind: 'choice', what: 'parameter with both values and select', expect: 'invalid',
    on: ['catalog@1.0.0'],
    edits: [add(`${REV5}/params/1/values`, ['System-level'])],
  },
  {
    kind: 'choice', what: 'parameter with both values and select', expect: 'invalid',
    on: ['catalog@1.1.2', 'catalog@1.2.1'],
    edits: [add(`${BASIC}/params/0/values`, ['never'])],
  },
  {
    kind: 'bad-uuid', what: 'back-matter resource uuid truncated', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.0.0'],
    edits: [set('back-matter/resources/0/uuid', '27847491-5ce1-4f6a-a1e4')],
  },
];

/** The a849dbc LOW profile imports by href; the 88bb8de one through back-matter. */
const merge = (combine: string) => ({ combine: { method: combine }, 'as-is': true });
const alter = (position: string) => ({
  alters: [{ 'control-id': 'ac-1', adds: [{ position, props: [extraProp] }] }],
});

export const PROFILE_MUTATIONS: readonly Mutation[] = [
  {
    kind: 'bad-enum', what: 'merge combine method "overwrite"', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['profile@1.0.0', 'profile@1.0.3', 'profile@1.1.2', 'profile@1.2.0'],
    edits: [set('merge', merge('overwrite'))],
    path: 'merge/combine/method',
  },
  {
    kind: 'valid-edit', what: 'merge combine method "merge" (deprecated, still allowed)', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['profile@1.0.0', 'profile@1.2.0'],
    edits: [set('merge', merge('merge'))],
  },
  {
    kind: 'valid-edit', what: 'merge combine method "use-first"', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['profile@1.1.2'],
    edits: [set('merge', merge('use-first'))],
  },
  {
    kind: 'bad-enum', what: 'with-child-controls "sometimes"', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['profile@1.0.0', 'profile@1.2.0'],
    edits: [add('imports/0/include-controls/0/with-child-controls', 'sometimes')],
  },
  {
    kind: 'valid-edit', what: 'with-child-controls "yes"', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['profile@1.0.3', 'profile@1.1.2'],
    edits: [add('imports/0/include-controls/0/with-child-controls', 'yes')],
  },
  {
    kind: 'wrong-type', what: 'merge as-is is the string "true"', expect: 'invalid',
    on: ['profile@1.0.0', 'profile@1.1.2'],
    edits: [set('merge/as-is', 'true')],
    path: 'merge/as-is',
  },
  {
    kind: 'wrong-type', what: 'merge as-is is the number 1', expect: 'invalid',
    on: ['profile@1.2.0'],
    edits: [set('merge/as-is', 1)],
  },
  {
    kind: 'wrong-type', what: 'with-ids is a string', expect: 'invalid',
    on: ['profile@1.0.0'],
    edits: [set('imports/0/include-controls/0/with-ids', 'ac-1')],
  },
  {
    kind: 'singleton-for-array', what: 'imports as one object', expect: 'invalid',
    on: ['profile@1.0.3', 'profile@1.2.0'],
    edits: [unwrap('imports')],
    path: 'imports',
  },
  {
    kind: 'empty-array', what: 'imports empty', expect: 'invalid', alsoAs: ['yaml'],
    on: ['profile@1.0.0', 'profile@1.1.2'],
    edits: [set('imports', [])],
  },
  {
    kind: 'empty-array', what: 'with-ids empty', expect: 'invalid', alsoAs: ['yaml'],
    on: ['profile@1.0.3'],
    edits: [set('imports/0/include-controls/0/with-ids', [])],
  },
  {
    kind: 'missing-required', what: 'import without href', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['profile@1.0.0', 'profile@1.2.0'],
    edits: [remove('imports/0/href')],
  },
  {
    kind: 'missing-required', what: 'no imports', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['profile@1.1.2'],
    edits: [remove('imports')],
  },
  {
    kind: 'bad-token', what: 'with-ids entry with a space', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['profile@1.0.0', 'profile@1.1.2'],
    edits: [set('imports/0/include-controls/0/with-ids/0', 'ac 1')],
  },
  {
    kind: 'bad-uri', what: 'import href with spaces', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['profile@1.0.0', 'profile@1.2.0'],
    edits: [set('imports/0/href', 'https://example.org/NIST SP-800-53 catalog.json')],
  },
  {
    kind: 'extra-property', what: 'unknown property in an include-controls selection', expect: 'invalid',
    on: ['profile@1.1.2', 'profile@1.0.0'],
    edits: [add('imports/0/include-controls/0/with-parents', true)],
  },
  {
    kind: 'choice', what: 'import with both include-all and include-controls', expect: 'invalid',
    on: ['profile@1.0.0', 'profile@1.2.0'],
    edits: [add('imports/0/include-all', {})],
  },
  {
    kind: 'valid-edit', what: 'import with include-all instead of include-controls', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['profile@1.0.3', 'profile@1.1.2'],
    edits: [remove('imports/0/include-controls'), add('imports/0/include-all', {})],
  },
  {
    kind: 'choice', what: 'import with neither include-all nor include-controls', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['profile@1.0.0', 'profile@1.1.2'],
    edits: [remove('imports/0/include-controls')],
  },
  {
    kind: 'choice', what: 'merge with both as-is and custom', expect: 'invalid',
    on: ['profile@1.0.3', 'profile@1.1.2'],
    edits: [add('merge/custom', {})],
  },
  {
    kind: 'cross-release', what: 'merge flat (added in 1.0.1)', expect: { '1.0.0': 'invalid', '1.0': 'valid', '1.1': 'valid', '1.2': 'valid' }, alsoAs: ['yaml'],
    on: ['profile@1.0.0', 'profile@1.0.3', 'profile@1.1.2', 'profile@1.2.0'],
    edits: [set('merge', { flat: {} })],
  },
  {
    kind: 'valid-edit', what: 'modify set-parameters added', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['profile@1.0.0', 'profile@1.2.0'],
    edits: [add('modify', { 'set-parameters': [{ 'param-id': 'ac-1_prm_1', values: ['all personnel'] }] })],
  },
  {
    kind: 'empty-array', what: 'set-parameter values empty', expect: 'invalid', alsoAs: ['yaml'],
    on: ['profile@1.1.2'],
    edits: [add('modify', { 'set-parameters': [{ 'param-id': 'ac-1_prm_1', values: [] }] })],
  },
  {
    kind: 'bad-enum', what: 'alter add position "middle"', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['profile@1.0.3', 'profile@1.1.2', 'profile@1.2.0'],
    edits: [add('modify', alter('middle'))],
  },
  {
    kind: 'valid-edit', what: 'alter add position "ending"', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['profile@1.0.0', 'profile@1.1.2'],
    edits: [add('modify', alter('ending'))],
  },
  {
    kind: 'cross-release', what: 'alter without control-id (required from 1.0.2)', expect: { '1.0.0': 'valid', '1.0': 'invalid', '1.1': 'invalid', '1.2': 'invalid' }, alsoAs: ['xml', 'yaml'],
    on: ['profile@1.0.0', 'profile@1.0.3', 'profile@1.1.2', 'profile@1.2.0'],
    edits: [add('modify', { alters: [{ adds: [{ position: 'ending', props: [extraProp] }] }] })],
  },
  {
    kind: 'bad-enum', what: 'insert-controls order "random"', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['profile@1.0.3', 'profile@1.2.0'],
    edits: [set('merge', { custom: { 'insert-controls': [{ order: 'random', 'include-all': {} }] } })],
  },
  {
    kind: 'valid-edit', what: 'insert-controls order "ascending"', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['profile@1.0.0', 'profile@1.1.2'],
    edits: [set('merge', { custom: { 'insert-controls': [{ order: 'ascending', 'include-all': {} }] } })],
  },
  {
    kind: 'bad-uuid', what: 'back-matter resource uuid in braces', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['profile@1.2.0', 'component-definition@1.0.2'],
    edits: [set('back-matter/resources/0/uuid', '{84cbf061-eb87-4ec1-8112-1f529232e907}')],
  },
];

const MAP = 'mappings/maps/0';

export const MAPPING_MUTATIONS: readonly Mutation[] = [
  {
    kind: 'bad-enum', what: 'mapping source type "family"', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['mapping-collection@1.2.0', 'mapping-collection@1.2.2'],
    edits: [set(`${MAP}/sources/0/type`, 'family')],
    path: `${MAP}/sources/0/type`,
  },
  {
    kind: 'bad-enum', what: 'qualifier subject "neither"', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['mapping-collection@1.2.2'],
    edits: [set(`${MAP}/qualifiers/0/subject`, 'neither')],
  },
  {
    kind: 'bad-enum', what: 'provenance method "ai"', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['mapping-collection@1.2.0', 'mapping-collection@1.2.2'],
    edits: [set('provenance/method', 'ai')],
  },
  {
    kind: 'valid-edit', what: 'provenance method "hybrid", status "complete"', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['mapping-collection@1.2.0'],
    edits: [set('provenance/method', 'hybrid'), set('provenance/status', 'complete')],
  },
  {
    // SINGLETON_OR_ARRAY: "If a single value is provided, then the child value MUST be that value" (Metaschema, group-as).
    kind: 'singleton-for-array', what: 'one mapping written as an array of one', expect: 'invalid', alsoAs: ['yaml'],
    on: ['mapping-collection@1.2.2'],
    edits: [(doc, root) => {
      const body = (doc as Record<string, Record<string, unknown>>)[root]!;
      body.mappings = [body.mappings];
    }],
  },
  {
    kind: 'valid-edit', what: 'two mappings as an array', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['mapping-collection@1.2.0', 'mapping-collection@1.2.2'],
    edits: [(doc, root) => {
      const body = (doc as Record<string, Record<string, unknown>>)[root]!;
      const mapping = body.mappings as Record<string, unknown>;
      body.mappings = [mapping, { ...structuredClone(mapping), uuid: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d' }];
    }],
  },
  {
    kind: 'singleton-for-array', what: 'maps as one object', expect: 'invalid',
    on: ['mapping-collection@1.2.0'],
    edits: [unwrap(`mappings/maps`)],
  },
  {
    kind: 'empty-array', what: 'maps empty', expect: 'invalid', alsoAs: ['yaml'],
    on: ['mapping-collection@1.2.2'],
    edits: [set('mappings/maps', [])],
  },
  {
    kind: 'missing-required', what: 'provenance without mapping-description', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['mapping-collection@1.2.0', 'mapping-collection@1.2.2'],
    edits: [remove('provenance/mapping-description')],
  },
  {
    kind: 'missing-required', what: 'map without relationship', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['mapping-collection@1.2.2'],
    edits: [remove(`${MAP}/relationship`)],
  },
  {
    kind: 'missing-required', what: 'mapping item without id-ref', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['mapping-collection@1.2.0'],
    edits: [remove(`${MAP}/targets/0/id-ref`)],
  },
  {
    kind: 'bad-token', what: 'relationship with a space', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['mapping-collection@1.2.2'],
    edits: [set(`${MAP}/relationship`, 'equal to')],
  },
  {
    kind: 'extra-property', what: 'unknown property in a map', expect: 'invalid',
    on: ['mapping-collection@1.2.0'],
    edits: [add(`${MAP}/weight`, 3)],
  },
  {
    kind: 'valid-edit', what: 'confidence-score category (1.2.1 assembly form)', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['mapping-collection@1.2.2'],
    edits: [add(`${MAP}/confidence-score`, { category: 'high' })],
  },
  {
    kind: 'choice', what: 'confidence-score with both category and percentage', expect: 'invalid',
    on: ['mapping-collection@1.2.2'],
    edits: [add(`${MAP}/confidence-score`, { category: 'high', percentage: 0.9 })],
  },
  {
    kind: 'wrong-type', what: 'confidence-score percentage as text', expect: 'invalid',
    on: ['mapping-collection@1.2.2'],
    edits: [add(`${MAP}/confidence-score`, { percentage: 'ninety' })],
  },
  {
    // 1.2.0 gives coverage no json-value-key, so its value sits under the default STRVALUE.
    kind: 'valid-edit', what: 'coverage with generation-method', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['mapping-collection@1.2.0'],
    edits: [add(`${MAP}/coverage`, { 'generation-method': 'arbitrary', STRVALUE: 0.5 })],
  },
  {
    kind: 'valid-edit', what: 'coverage with generation-method (json-value-key target-coverage from 1.2.1)', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['mapping-collection@1.2.2'],
    edits: [add(`${MAP}/coverage`, { 'generation-method': 'arbitrary', 'target-coverage': 0.5 })],
  },
  {
    kind: 'wrong-type', what: 'coverage value as text', expect: 'invalid', alsoAs: ['yaml'],
    on: ['mapping-collection@1.2.2'],
    edits: [add(`${MAP}/coverage`, { 'target-coverage': 'half' })],
  },
  {
    kind: 'bad-uri', what: 'target-resource href with spaces', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['mapping-collection@1.2.0'],
    edits: [set('mappings/target-resource/href', '../catalog/basic catalog.json')],
  },
  {
    kind: 'bad-uuid', what: 'map uuid too short', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['mapping-collection@1.2.2'],
    edits: [set(`${MAP}/uuid`, '0f8e7d6c-5b4a-4392-8a1b-0c9d8e7f6a5')],
  },
];
