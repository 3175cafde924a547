/** Mutations of what every model shares: the document's shape, its root, and metadata. */
import type { Mutation } from './corpus.js';
import { add, remove, set, unwrap, type Edit, type Json } from './json-edit.js';

/** The model's body under another property name. */
function renameRoot(to: string): Edit {
  return (doc, root) => {
    const { [root]: body, ...rest } = doc as Record<string, Json>;
    return { ...rest, [to]: body! };
  };
}

/** A second model beside the first (a copy of the body under another model's name). */
function secondRoot(name: string): Edit {
  return (doc, root) => ({
    ...(doc as Record<string, Json>),
    [name]: structuredClone((doc as Record<string, Json>)[root]!),
  });
}

const party = {
  uuid: '1c3e5a7b-9d2f-4e6a-8b0c-2d4f6a8b0c1e',
  type: 'person',
  name: 'Casey Reviewer',
};

export const DOCUMENT_MUTATIONS: readonly Mutation[] = [
  // ---- the document and its root ----
  {
    kind: 'wrong-root',
    what: 'root renamed to an unknown model',
    expect: 'invalid',
    on: ['catalog@1.1.2', 'system-security-plan@1.0.1', 'plan-of-action-and-milestones@1.2.2'],
    edits: [renameRoot('oscal-document')],
  },
  {
    kind: 'wrong-root',
    what: 'two models in one document',
    expect: 'invalid',
    on: ['catalog@1.0.4', 'assessment-results@1.1.3', 'mapping-collection@1.2.0'],
    edits: [secondRoot('profile')],
  },
  {
    kind: 'wrong-root',
    what: 'the model body is an array',
    expect: 'invalid',
    on: ['system-security-plan@1.0.4', 'system-security-plan@1.2.0'],
    edits: [(doc, root) => ({ [root]: [(doc as Record<string, Json>)[root]!] })],
  },
  {
    kind: 'wrong-root',
    what: 'the document is an array',
    expect: 'invalid',
    on: ['assessment-plan@1.0.2', 'component-definition@1.1.2'],
    edits: [(doc) => [doc]],
  },
  {
    kind: 'wrong-root',
    what: 'mapping-collection declared as a release that has no such model',
    expect: 'invalid',
    on: ['mapping-collection@1.2.2'],
    edits: [set('metadata/oscal-version', '1.1.2')],
  },
  {
    kind: 'wrong-root',
    what: 'mapping-collection declared as a 1.0.x release',
    expect: 'invalid',
    on: ['mapping-collection@1.2.0'],
    edits: [set('metadata/oscal-version', '1.0.6')],
  },
  {
    kind: 'extra-property',
    what: 'a property beside the model that is no model',
    expect: 'invalid',
    on: ['profile@1.0.0', 'system-security-plan@1.2.0'],
    edits: [add('/comment', 'draft for review')],
  },
  {
    // NIST's JSON Schemas admit the $schema directive from 1.0.6 on (json-schema-directive); the JSON format of earlier releases has no such property.
    kind: 'cross-release',
    what: '$schema directive beside the model',
    expect: { '1.0': 'invalid', '1.0.6': 'valid', '1.1': 'valid', '1.2': 'valid' },
    on: [
      'profile@1.0.0',
      'system-security-plan@1.0.4',
      'plan-of-action-and-milestones@1.0.6',
      'system-security-plan@1.1.2',
      'catalog@1.2.1',
    ],
    edits: [
      add('/$schema', 'https://raw.githubusercontent.com/usnistgov/OSCAL/main/json/schema/oscal_complete_schema.json'),
    ],
  },
  {
    kind: 'bad-uri',
    what: '$schema directive that is no URI reference',
    expect: 'invalid',
    on: ['plan-of-action-and-milestones@1.0.6', 'component-definition@1.1.2'],
    edits: [add('/$schema', 'oscal complete schema.json')],
  },
  {
    kind: 'extra-property',
    what: 'unknown property in the model body',
    expect: 'invalid',
    on: ['catalog@1.0.0', 'profile@1.2.0', 'component-definition@1.0.2', 'assessment-results@1.1.3'],
    edits: [add('annotations', 'reviewed')],
  },
  {
    kind: 'missing-required',
    what: 'no uuid on the model',
    expect: 'invalid',
    alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.0.0', 'assessment-plan@1.1.2', 'mapping-collection@1.2.2', 'plan-of-action-and-milestones@1.0.6'],
    edits: [remove('uuid')],
  },
  {
    kind: 'bad-uuid',
    what: 'model uuid with a non-hex digit',
    expect: 'invalid',
    alsoAs: ['xml', 'yaml'],
    on: ['profile@1.0.3', 'assessment-results@1.2.1', 'system-security-plan@1.1.0'],
    edits: [set('uuid', 'g39a35c0-13c6-4f8c-9b0a-1f0e7c8c9d10')],
  },
  {
    kind: 'missing-required',
    what: 'no metadata at all',
    expect: 'invalid',
    alsoAs: ['yaml'],
    on: ['component-definition@1.2.2', 'profile@1.1.2'],
    edits: [remove('metadata')],
  },

  // ---- oscal-version ----
  {
    kind: 'oscal-version',
    what: 'a release that does not exist (1.0.7)',
    expect: 'invalid',
    on: ['catalog@1.0.4', 'system-security-plan@1.1.0'],
    edits: [set('metadata/oscal-version', '1.0.7')],
    path: 'metadata/oscal-version',
  },
  {
    kind: 'oscal-version',
    what: 'a future release (1.3.0)',
    expect: 'invalid',
    on: ['profile@1.2.0'],
    edits: [set('metadata/oscal-version', '1.3.0')],
  },
  {
    kind: 'oscal-version',
    what: 'release without patch number (1.1)',
    expect: 'invalid',
    on: ['assessment-results@1.1.3'],
    edits: [set('metadata/oscal-version', '1.1')],
  },
  {
    kind: 'oscal-version',
    what: 'release with a v prefix',
    expect: 'invalid',
    on: ['plan-of-action-and-milestones@1.2.2'],
    edits: [set('metadata/oscal-version', 'v1.2.2')],
  },
  {
    kind: 'oscal-version',
    what: 'release given as a number',
    expect: 'invalid',
    on: ['assessment-plan@1.2.2'],
    edits: [set('metadata/oscal-version', 1.2)],
  },
  {
    kind: 'oscal-version',
    what: 'no oscal-version',
    expect: 'invalid',
    on: ['system-security-plan@1.0.4', 'mapping-collection@1.2.0', 'catalog@1.1.2'],
    edits: [remove('metadata/oscal-version')],
  },
  {
    kind: 'valid-edit',
    what: 'declared as a later release of the same line',
    expect: 'valid',
    alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.0.4', 'profile@1.1.2', 'component-definition@1.0.2'],
    edits: [
      (doc, root) => {
        const metadata = (doc as Record<string, Record<string, Record<string, Json>>>)[root]!.metadata!;
        metadata['oscal-version'] = (
          { '1.0.4': '1.0.6', '1.1.2': '1.1.3', '1.0.2': '1.0.4' } as Record<string, string>
        )[metadata['oscal-version'] as string]!;
      },
    ],
  },

  // ---- metadata ----
  {
    kind: 'missing-required',
    what: 'no metadata title',
    expect: 'invalid',
    alsoAs: ['xml', 'yaml'],
    on: ['profile@1.0.0', 'system-security-plan@1.1.2', 'assessment-results@1.2.1'],
    edits: [remove('metadata/title')],
  },
  {
    kind: 'missing-required',
    what: 'no last-modified',
    expect: 'invalid',
    alsoAs: ['xml', 'yaml'],
    on: ['component-definition@1.0.2', 'catalog@1.2.1'],
    edits: [remove('metadata/last-modified')],
  },
  {
    kind: 'missing-required',
    what: 'no metadata version',
    expect: 'invalid',
    alsoAs: ['xml', 'yaml'],
    on: ['assessment-plan@1.0.2', 'plan-of-action-and-milestones@1.1.1'],
    edits: [remove('metadata/version')],
  },
  {
    kind: 'extra-property',
    what: 'unknown property in metadata',
    expect: 'invalid',
    on: ['system-security-plan@1.0.1', 'assessment-plan@1.2.2', 'mapping-collection@1.2.0'],
    edits: [add('metadata/classification', 'internal')],
  },
  {
    kind: 'wrong-type',
    what: 'metadata title is a number',
    expect: 'invalid',
    on: ['catalog@1.0.4', 'plan-of-action-and-milestones@1.1.1', 'assessment-results@1.0.5'],
    edits: [set('metadata/title', 2024)],
  },
  {
    kind: 'wrong-type',
    what: 'metadata is a string',
    expect: 'invalid',
    on: ['profile@1.1.2', 'assessment-results@1.0.5'],
    edits: [set('metadata', 'see title page')],
  },
  {
    kind: 'wrong-type',
    what: 'metadata version is an object',
    expect: 'invalid',
    on: ['component-definition@1.2.2', 'profile@1.0.3'],
    edits: [set('metadata/version', { number: '1.0' })],
  },
  {
    kind: 'wrong-type',
    what: 'metadata version is null',
    expect: 'invalid',
    on: ['catalog@1.0.0', 'catalog@1.1.2'],
    edits: [set('metadata/version', null)],
  },
  {
    kind: 'bad-string',
    what: 'metadata version with a trailing space',
    expect: 'invalid',
    alsoAs: ['yaml'],
    on: ['assessment-results@1.0.5', 'assessment-plan@1.0.2', 'system-security-plan@1.2.0'],
    edits: [set('metadata/version', '1.1 ')],
  },
  {
    kind: 'bad-string',
    what: 'metadata version with a line break',
    expect: 'invalid',
    alsoAs: ['yaml'],
    on: ['plan-of-action-and-milestones@1.0.6', 'component-definition@1.1.2'],
    edits: [set('metadata/version', '1.1\nrc')],
  },
  {
    kind: 'singleton-for-array',
    what: 'metadata roles as one object',
    expect: 'invalid',
    on: ['system-security-plan@1.1.2', 'profile@1.0.0', 'assessment-plan@1.0.2'],
    edits: [unwrap('metadata/roles')],
  },
  {
    kind: 'empty-array',
    what: 'metadata roles empty',
    expect: 'invalid',
    alsoAs: ['yaml'],
    on: ['system-security-plan@1.0.4', 'assessment-plan@1.2.2', 'component-definition@1.1.2'],
    edits: [set('metadata/roles', [])],
  },
  {
    kind: 'bad-token',
    what: 'role id starting with a digit',
    expect: 'invalid',
    alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.0.1', 'profile@1.2.0'],
    edits: [set('metadata/roles/0/id', '1st-owner')],
  },
  {
    kind: 'bad-token',
    what: 'role id with a space',
    expect: 'invalid',
    alsoAs: ['xml', 'yaml'],
    on: ['assessment-plan@1.1.2', 'catalog@1.0.0'],
    edits: [set('metadata/roles/0/id', 'lead engineer')],
  },
  {
    kind: 'bad-token',
    what: 'role id with a colon',
    expect: 'invalid',
    alsoAs: ['xml', 'yaml'],
    on: ['component-definition@1.0.2', 'assessment-results@1.2.1'],
    edits: [set('metadata/roles/0/id', 'nist:owner')],
  },
  {
    kind: 'valid-edit',
    what: 'role id with non-ASCII letters',
    expect: 'valid',
    alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.0.0', 'system-security-plan@1.1.2', 'profile@1.0.3'],
    edits: [set('metadata/roles/0/id', 'créateur_principal')],
  },
  {
    kind: 'bad-enum',
    what: 'party type team',
    expect: 'invalid',
    alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.0.1', 'profile@1.1.2', 'assessment-results@1.2.1'],
    edits: [set('metadata/parties/0/type', 'team')],
  },
  {
    kind: 'missing-required',
    what: 'party without type',
    expect: 'invalid',
    alsoAs: ['xml', 'yaml'],
    on: ['profile@1.0.3', 'component-definition@1.2.2'],
    edits: [remove('metadata/parties/0/type')],
  },
  {
    kind: 'bad-uuid',
    what: 'party uuid not hyphenated',
    expect: 'invalid',
    alsoAs: ['xml', 'yaml'],
    on: ['component-definition@1.0.2', 'system-security-plan@1.2.0'],
    edits: [set('metadata/parties/0/uuid', 'ef7c799ac50e49ab83e0515e989e6df1')],
  },
  {
    kind: 'bad-uuid',
    what: 'party uuid of version 1',
    expect: 'invalid',
    alsoAs: ['yaml'],
    on: ['assessment-results@1.0.5', 'assessment-plan@1.1.2'],
    edits: [set('metadata/parties/0/uuid', 'c232ab00-9414-11ec-b3c8-9f6bdeced846')],
  },
  {
    kind: 'valid-edit',
    what: 'party uuid of version 5',
    expect: 'valid',
    alsoAs: ['yaml'],
    on: ['catalog@1.0.0', 'system-security-plan@1.0.4', 'component-definition@1.1.2'],
    edits: [set('metadata/parties/0/uuid', '886313e1-3b8a-5372-9b90-0c9aee199e5d')],
  },
  {
    kind: 'valid-edit',
    what: 'party uuid in upper case',
    expect: 'valid',
    alsoAs: ['xml', 'yaml'],
    on: ['assessment-results@1.0.5', 'profile@1.2.0'],
    edits: [set('metadata/parties/0/uuid', '984E6C07-B5B6-4AB6-B22B-283609C325E6')],
  },
  {
    kind: 'valid-edit',
    what: 'a party with an email address added',
    expect: 'valid',
    alsoAs: ['xml', 'yaml'],
    on: ['assessment-plan@1.0.2', 'system-security-plan@1.1.2', 'mapping-collection@1.2.2'],
    edits: [
      (doc, root) => {
        const metadata = (doc as Record<string, Record<string, Record<string, Json[]>>>)[root]!.metadata!;
        (metadata.parties ??= []).push({ ...party, 'email-addresses': ['casey.reviewer@example.org'] });
      },
    ],
  },
  {
    kind: 'bad-email',
    what: 'email address without @',
    expect: 'invalid',
    alsoAs: ['xml', 'yaml'],
    on: ['profile@1.0.0', 'profile@1.1.2', 'profile@1.2.0'],
    edits: [set('metadata/parties/0/email-addresses/0', 'sec-cert(at)nist.gov')],
  },
  {
    kind: 'bad-email',
    what: 'email address without a domain',
    expect: 'invalid',
    alsoAs: ['yaml'],
    on: ['profile@1.0.0'],
    edits: [set('metadata/parties/0/email-addresses/0', 'sec-cert@')],
  },
  {
    kind: 'bad-email',
    what: 'email address with a space',
    expect: 'invalid',
    alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.0.0'],
    edits: [set('metadata/parties/0/email-addresses/0', 'sec cert@nist.gov')],
  },

  // ---- dates and times ----
  {
    kind: 'date-time',
    what: 'last-modified without timezone',
    expect: 'invalid',
    alsoAs: ['xml', 'yaml'],
    on: ['profile@1.0.3', 'assessment-plan@1.1.2', 'plan-of-action-and-milestones@1.2.2', 'catalog@1.0.0'],
    edits: [set('metadata/last-modified', '2024-02-01T13:57:28.355446')],
  },
  {
    kind: 'valid-edit',
    what: 'last-modified in UTC (Z)',
    expect: 'valid',
    alsoAs: ['xml', 'yaml'],
    on: ['catalog@1.0.0', 'component-definition@1.2.2'],
    edits: [set('metadata/last-modified', '2024-02-01T13:57:28Z')],
  },
  {
    kind: 'valid-edit',
    what: 'last-modified with a +05:30 offset and fractional seconds',
    expect: 'valid',
    alsoAs: ['xml', 'yaml'],
    on: ['assessment-results@1.2.1', 'system-security-plan@1.0.1'],
    edits: [set('metadata/last-modified', '2024-02-01T13:57:28.5+05:30')],
  },
  {
    kind: 'valid-edit',
    what: 'last-modified with fractional seconds ending in 0',
    expect: 'valid',
    alsoAs: ['xml', 'yaml'],
    on: ['assessment-results@1.0.5', 'plan-of-action-and-milestones@1.0.6', 'profile@1.1.2'],
    edits: [set('metadata/last-modified', '2024-02-01T13:57:28.500Z')],
  },
  {
    kind: 'date-time',
    what: 'last-modified on 30 February',
    expect: 'invalid',
    alsoAs: ['xml', 'yaml'],
    on: ['component-definition@1.1.2', 'system-security-plan@1.0.4'],
    edits: [set('metadata/last-modified', '2024-02-30T10:00:00Z')],
  },
  {
    kind: 'date-time',
    what: 'last-modified as a date only',
    expect: 'invalid',
    alsoAs: ['xml', 'yaml'],
    on: ['mapping-collection@1.2.2', 'catalog@1.0.4'],
    edits: [set('metadata/last-modified', '2024-02-01')],
  },
  {
    kind: 'date-time',
    what: 'last-modified with hour 24',
    expect: 'invalid',
    alsoAs: ['yaml'],
    on: ['assessment-results@1.0.5', 'profile@1.2.0'],
    edits: [set('metadata/last-modified', '2024-02-01T24:00:00Z')],
  },
  {
    kind: 'date-time',
    what: 'last-modified with a leap second',
    expect: 'invalid',
    on: ['catalog@1.0.0', 'plan-of-action-and-milestones@1.0.6', 'system-security-plan@1.1.2'],
    edits: [set('metadata/last-modified', '2016-12-31T23:59:60Z')],
  },
  {
    kind: 'date-time',
    what: 'last-modified in lower case (t, z)',
    expect: 'invalid',
    on: ['profile@1.0.0', 'assessment-plan@1.0.2', 'plan-of-action-and-milestones@1.0.6', 'catalog@1.1.2'],
    edits: [set('metadata/last-modified', '2024-02-01t13:57:28z')],
  },
  {
    kind: 'date-time',
    what: 'last-modified with a space for T',
    expect: 'invalid',
    on: ['assessment-results@1.0.5', 'component-definition@1.2.2'],
    edits: [set('metadata/last-modified', '2024-02-01 13:57:28Z')],
  },
  {
    kind: 'date-time',
    what: 'last-modified with an offset no zone has (+14:30)',
    expect: 'invalid',
    on: ['component-definition@1.0.2', 'plan-of-action-and-milestones@1.0.6', 'assessment-plan@1.2.2'],
    edits: [set('metadata/last-modified', '2024-02-01T13:57:28+14:30')],
  },
  {
    kind: 'date-time',
    what: 'published with a two-digit year',
    expect: 'invalid',
    alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.0.1', 'catalog@1.2.1'],
    edits: [set('metadata/published', '23-05-19T14:46:54-04:00')],
  },
];
