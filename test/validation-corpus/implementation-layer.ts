/** Mutations of component definitions and system security plans. */
import { basesOf, type Mutation } from './corpus.js';
import { add, remove, set, unwrap } from './json-edit.js';

const COMPONENT = 'components/0';
const PORTS = `${COMPONENT}/protocols/0/port-ranges/0`;
const REQUIREMENT = `${COMPONENT}/control-implementations/0/implemented-requirements/0`;
const compdefs = basesOf('component-definition');

export const COMPONENT_DEFINITION_MUTATIONS: readonly Mutation[] = [
  {
    kind: 'bad-enum', what: 'port-range transport "SCTP"', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: compdefs,
    edits: [set(`${PORTS}/transport`, 'SCTP')],
    path: `${PORTS}/transport`,
  },
  {
    kind: 'bad-enum', what: 'port-range transport in lower case', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['component-definition@1.1.2'],
    edits: [set(`${PORTS}/transport`, 'tcp')],
  },
  {
    kind: 'valid-edit', what: 'port-range UDP up to 65535', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['component-definition@1.0.2', 'component-definition@1.2.2'],
    edits: [set(`${PORTS}/transport`, 'UDP'), set(`${PORTS}/end`, 65535)],
  },
  {
    kind: 'out-of-range', what: 'port-range start -1', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: compdefs,
    edits: [set(`${PORTS}/start`, -1)],
    path: `${PORTS}/start`,
  },
  {
    kind: 'valid-edit', what: 'port-range start 0', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['component-definition@1.1.2'],
    edits: [set(`${PORTS}/start`, 0)],
  },
  {
    kind: 'wrong-type', what: 'port-range start as a string', expect: 'invalid',
    on: ['component-definition@1.0.2', 'component-definition@1.2.2'],
    edits: [set(`${PORTS}/start`, '27017')],
  },
  {
    kind: 'wrong-type', what: 'port-range end a fraction', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['component-definition@1.1.2'],
    edits: [set(`${PORTS}/end`, 27017.5)],
  },
  {
    kind: 'cross-release', what: 'protocol without name (optional from 1.2)', expect: { '1.0': 'invalid', '1.1': 'invalid', '1.2': 'valid' }, alsoAs: ['xml', 'yaml'],
    on: compdefs,
    edits: [remove(`${COMPONENT}/protocols/0/name`)],
  },
  {
    kind: 'missing-required', what: 'component without title', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['component-definition@1.0.2', 'component-definition@1.1.2'],
    edits: [remove(`${COMPONENT}/title`)],
  },
  {
    kind: 'missing-required', what: 'component without description', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['component-definition@1.2.2'],
    edits: [remove(`${COMPONENT}/description`)],
  },
  {
    kind: 'missing-required', what: 'implemented requirement without control-id', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['component-definition@1.0.2', 'component-definition@1.2.2'],
    edits: [remove(`${REQUIREMENT}/control-id`)],
  },
  {
    kind: 'missing-required', what: 'control implementation without source', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['component-definition@1.1.2'],
    edits: [remove(`${COMPONENT}/control-implementations/0/source`)],
  },
  {
    kind: 'bad-uuid', what: 'component uuid is a name', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['component-definition@1.0.2', 'component-definition@1.1.2'],
    edits: [set(`${COMPONENT}/uuid`, 'mongodb')],
  },
  {
    kind: 'bad-uuid', what: 'statement uuid of version 1', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['component-definition@1.2.2', 'component-definition@1.0.2'],
    edits: [set(`${REQUIREMENT}/statements/0/uuid`, 'c232ab00-9414-11ec-b3c8-9f6bdeced846')],
  },
  {
    kind: 'bad-token', what: 'responsible role id starting with a digit', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['component-definition@1.0.2', 'component-definition@1.2.2'],
    edits: [set(`${COMPONENT}/responsible-roles/0/role-id`, '1provider')],
  },
  {
    kind: 'bad-token', what: 'set-parameter param-id with a colon', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['component-definition@1.1.2'],
    edits: [set(`${REQUIREMENT}/set-parameters/0/param-id`, 'sc-8:prm_1')],
  },
  {
    kind: 'valid-edit', what: 'component type with a space (a string, not a token)', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['component-definition@1.0.2', 'component-definition@1.1.2'],
    edits: [set(`${COMPONENT}/type`, 'database service')],
  },
  {
    kind: 'empty-array', what: 'protocols empty', expect: 'invalid', alsoAs: ['yaml'],
    on: ['component-definition@1.0.2', 'component-definition@1.2.2'],
    edits: [set(`${COMPONENT}/protocols`, [])],
  },
  {
    kind: 'empty-array', what: 'set-parameter values empty', expect: 'invalid', alsoAs: ['yaml'],
    on: ['component-definition@1.1.2'],
    edits: [set(`${REQUIREMENT}/set-parameters/0/values`, [])],
  },
  {
    kind: 'wrong-type', what: 'set-parameter values a string', expect: 'invalid',
    on: ['component-definition@1.2.2'],
    edits: [set(`${REQUIREMENT}/set-parameters/0/values`, 'confidentiality')],
  },
  {
    kind: 'singleton-for-array', what: 'control-implementations as one object', expect: 'invalid',
    on: ['component-definition@1.0.2', 'component-definition@1.1.2'],
    edits: [unwrap(`${COMPONENT}/control-implementations`)],
  },
  {
    kind: 'extra-property', what: 'unknown property in a statement (depth 7)', expect: 'invalid',
    on: ['component-definition@1.0.2', 'component-definition@1.2.2'],
    edits: [add(`${REQUIREMENT}/statements/0/implementation-status`, { state: 'implemented' })],
  },
  {
    kind: 'markup-line', what: 'component title with a line break', expect: 'invalid', alsoAs: ['yaml'],
    on: ['component-definition@1.0.2', 'component-definition@1.2.2'],
    edits: [set(`${COMPONENT}/title`, 'MongoDB\nCommunity Edition')],
  },
  {
    kind: 'valid-edit', what: 'multi-paragraph component description', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['component-definition@1.0.2', 'component-definition@1.1.2'],
    edits: [set(`${COMPONENT}/description`, 'MongoDB is a document database.\n\nIt is used by:\n\n- the catalogue service\n- the audit service')],
  },
  {
    kind: 'bad-uri', what: 'control implementation source with spaces', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['component-definition@1.0.2', 'component-definition@1.2.2'],
    edits: [set(`${COMPONENT}/control-implementations/0/source`, '#ba047e56 faef 430c')],
  },
];

const CHARACTERISTICS = 'system-characteristics';
const INFO_TYPE = `${CHARACTERISTICS}/system-information/information-types/0`;
const SYS_COMPONENT = 'system-implementation/components/0';
const ssps = basesOf('system-security-plan');
const ifaSsps = ['system-security-plan@1.0.1', 'system-security-plan@1.1.2', 'system-security-plan@1.2.0'];

const protocol = (transport: string, start: number) => [{ name: 'https', 'port-ranges': [{ start, end: 443, transport }] }];

export const SSP_MUTATIONS: readonly Mutation[] = [
  {
    kind: 'markup-line', what: 'authorization boundary diagram with an empty caption', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.0.4', 'system-security-plan@1.1.0'],
    edits: [add(`${CHARACTERISTICS}/authorization-boundary/diagrams`, [{ uuid: 'd2eb3c18-6754-4e3a-a933-03d289e3fad5', caption: '' }])],
  },
  {
    kind: 'bad-uuid', what: 'component uuid with a suffix', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.0.4', 'system-security-plan@1.1.2', 'system-security-plan@1.2.0'],
    edits: [set(`${SYS_COMPONENT}/uuid`, '551b9706-d6a4-4d25-8207-f2ccec548b89-a')],
  },
  {
    kind: 'bad-uuid', what: 'second component uuid empty', expect: 'invalid', alsoAs: ['yaml'],
    on: ['system-security-plan@1.1.0'],
    edits: [set('system-implementation/components/1/uuid', '')],
    path: 'system-implementation/components/1/uuid',
  },
  {
    kind: 'valid-edit', what: 'system id that is not a UUID (it is a string)', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.0.1', 'system-security-plan@1.2.0'],
    edits: [set(`${CHARACTERISTICS}/system-ids/0/id`, 'FISMA-IFA-0042'), set(`${CHARACTERISTICS}/system-ids/0/identifier-type`, 'https://ifa.gov/fisma-inventory')],
  },
  {
    kind: 'bad-uri', what: 'system id identifier-type relative', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.0.4', 'system-security-plan@1.1.2'],
    edits: [set(`${CHARACTERISTICS}/system-ids/0/identifier-type`, 'ietf/rfc4122')],
    path: `${CHARACTERISTICS}/system-ids/0/identifier-type`,
  },
  {
    kind: 'valid-edit', what: 'system id identifier-type a URN', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.1.0'],
    edits: [set(`${CHARACTERISTICS}/system-ids/0/identifier-type`, 'urn:ietf:rfc:4122')],
  },
  {
    kind: 'bad-uri', what: 'categorization system with a space', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.0.1', 'system-security-plan@1.2.0'],
    edits: [set(`${INFO_TYPE}/categorizations/0/system`, 'NIST SP 800-60')],
  },
  {
    kind: 'valid-edit', what: 'date-authorized with a timezone', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ifaSsps,
    edits: [set(`${CHARACTERISTICS}/date-authorized`, '2023-05-19-04:00')],
  },
  {
    kind: 'valid-edit', what: 'date-authorized in UTC (Z)', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.0.1'],
    edits: [set(`${CHARACTERISTICS}/date-authorized`, '2023-05-19Z')],
  },
  {
    kind: 'bad-date', what: 'date-authorized 2023-02-29 (not a leap year)', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ifaSsps,
    edits: [set(`${CHARACTERISTICS}/date-authorized`, '2023-02-29')],
    path: `${CHARACTERISTICS}/date-authorized`,
  },
  {
    kind: 'valid-edit', what: 'date-authorized 2024-02-29 (a leap year)', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.1.2'],
    edits: [set(`${CHARACTERISTICS}/date-authorized`, '2024-02-29')],
  },
  {
    kind: 'bad-date', what: 'date-authorized without leading zeros', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.0.1', 'system-security-plan@1.2.0'],
    edits: [set(`${CHARACTERISTICS}/date-authorized`, '2023-5-19')],
  },
  {
    kind: 'bad-date', what: 'date-authorized with a time', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.1.2'],
    edits: [set(`${CHARACTERISTICS}/date-authorized`, '2023-05-19T00:00:00Z')],
  },
  {
    kind: 'bad-date', what: 'date-authorized with trailing text', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.0.1', 'system-security-plan@1.2.0'],
    edits: [set(`${CHARACTERISTICS}/date-authorized`, '2023-05-19 (provisional)')],
  },
  {
    kind: 'bad-enum', what: 'system status "retired"', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ssps,
    edits: [set(`${CHARACTERISTICS}/status/state`, 'retired')],
  },
  {
    kind: 'bad-enum', what: 'component status "active"', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.0.4', 'system-security-plan@1.2.0'],
    edits: [set(`${SYS_COMPONENT}/status/state`, 'active')],
  },
  {
    kind: 'valid-edit', what: 'implementation status not in the suggested list (the list is open)', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.0.1', 'system-security-plan@1.1.2'],
    edits: [set('control-implementation/implemented-requirements/0/by-components/0/implementation-status/state', 'in-review')],
  },
  {
    kind: 'missing-required', what: 'no system name', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.0.4', 'system-security-plan@1.2.0'],
    edits: [remove(`${CHARACTERISTICS}/system-name`)],
  },
  {
    kind: 'missing-required', what: 'no import-profile', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.0.1', 'system-security-plan@1.1.0'],
    edits: [remove('import-profile')],
  },
  {
    kind: 'missing-required', what: 'information type without title', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.1.2', 'system-security-plan@1.0.4'],
    edits: [remove(`${INFO_TYPE}/title`)],
  },
  {
    kind: 'missing-required', what: 'no security objective for integrity', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.0.1', 'system-security-plan@1.2.0'],
    edits: [remove(`${CHARACTERISTICS}/security-impact-level/security-objective-integrity`)],
  },
  {
    kind: 'missing-required', what: 'no implemented requirements', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.1.0'],
    edits: [remove('control-implementation/implemented-requirements')],
  },
  {
    kind: 'empty-array', what: 'system ids empty', expect: 'invalid', alsoAs: ['yaml'],
    on: ['system-security-plan@1.0.4', 'system-security-plan@1.1.2'],
    edits: [set(`${CHARACTERISTICS}/system-ids`, [])],
  },
  {
    kind: 'empty-array', what: 'user role-ids empty', expect: 'invalid', alsoAs: ['yaml'],
    on: ['system-security-plan@1.2.0'],
    edits: [set('system-implementation/users/0/role-ids', [])],
  },
  {
    kind: 'singleton-for-array', what: 'system ids as one object', expect: 'invalid',
    on: ['system-security-plan@1.0.1', 'system-security-plan@1.2.0'],
    edits: [unwrap(`${CHARACTERISTICS}/system-ids`)],
  },
  {
    kind: 'singleton-for-array', what: 'information type ids as one string', expect: 'invalid',
    on: ['system-security-plan@1.1.0'],
    edits: [unwrap(`${INFO_TYPE}/categorizations/0/information-type-ids`)],
  },
  {
    kind: 'wrong-type', what: 'functions-performed a string', expect: 'invalid',
    on: ['system-security-plan@1.0.1'],
    edits: [set('system-implementation/users/0/authorized-privileges/0/functions-performed', 'user-creation')],
  },
  {
    kind: 'wrong-type', what: 'security-impact-level a string', expect: 'invalid',
    on: ['system-security-plan@1.1.2'],
    edits: [set(`${CHARACTERISTICS}/security-impact-level`, 'moderate')],
  },
  {
    kind: 'extra-property', what: 'unknown property in system characteristics', expect: 'invalid',
    on: ['system-security-plan@1.0.4', 'system-security-plan@1.2.0'],
    edits: [add(`${CHARACTERISTICS}/system-owner`, 'IFA')],
  },
  {
    kind: 'extra-property', what: 'unknown property in a component status', expect: 'invalid',
    on: ['system-security-plan@1.1.2'],
    edits: [add(`${SYS_COMPONENT}/status/since`, '2023-01-01')],
    path: `${SYS_COMPONENT}/status/since`,
  },
  {
    kind: 'valid-edit', what: 'https protocol on a component', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.0.1', 'system-security-plan@1.2.0'],
    edits: [add(`${SYS_COMPONENT}/protocols`, protocol('TCP', 443))],
  },
  {
    kind: 'bad-enum', what: 'protocol port-range transport "QUIC"', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.0.4', 'system-security-plan@1.1.2'],
    edits: [add(`${SYS_COMPONENT}/protocols`, protocol('QUIC', 443))],
  },
  {
    kind: 'out-of-range', what: 'protocol port-range start -443', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.1.0', 'system-security-plan@1.2.0'],
    edits: [add(`${SYS_COMPONENT}/protocols`, protocol('TCP', -443))],
  },
  {
    kind: 'markup-line', what: 'user title with a line break', expect: 'invalid', alsoAs: ['yaml'],
    on: ['system-security-plan@1.0.1', 'system-security-plan@1.1.2'],
    edits: [set('system-implementation/users/0/title', 'Application\nAdministrator')],
  },
  {
    kind: 'bad-token', what: 'implemented requirement control-id with a space', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.0.4', 'system-security-plan@1.2.0'],
    edits: [set('control-implementation/implemented-requirements/0/control-id', 'ac 6.1')],
  },
  {
    kind: 'bad-token', what: 'inventory prop class with a space', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.1.2'],
    edits: [set('system-implementation/inventory-items/0/props/0/class', 'webserver application')],
  },
  {
    kind: 'bad-uri', what: 'import-profile href with spaces', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['system-security-plan@1.1.0', 'system-security-plan@1.0.1'],
    edits: [set('import-profile/href', '../select/my profile.json')],
  },
];
