/** Mutations of assessment plans, assessment results and plans of action and milestones. */
import { basesOf, type Mutation } from './corpus.js';
import { add, remove, set, unwrap } from './json-edit.js';

const TASK = 'tasks/0';
const ACTIVITY = 'local-definitions/activities/0';
const plans = basesOf('assessment-plan');

export const ASSESSMENT_PLAN_MUTATIONS: readonly Mutation[] = [
  {
    kind: 'bad-enum', what: 'task at-frequency unit "fortnights"', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: plans,
    edits: [add(`${TASK}/timing`, { 'at-frequency': { period: 2, unit: 'fortnights' } })],
  },
  {
    kind: 'out-of-range', what: 'task at-frequency period 0', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: plans,
    edits: [add(`${TASK}/timing`, { 'at-frequency': { period: 0, unit: 'days' } })],
    path: `${TASK}/timing/at-frequency/period`,
  },
  {
    kind: 'wrong-type', what: 'task at-frequency period a fraction', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['assessment-plan@1.1.2'],
    edits: [add(`${TASK}/timing`, { 'at-frequency': { period: 1.5, unit: 'days' } })],
  },
  {
    kind: 'valid-edit', what: 'task every 3 months', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['assessment-plan@1.0.2', 'assessment-plan@1.2.2'],
    edits: [add(`${TASK}/timing`, { 'at-frequency': { period: 3, unit: 'months' } })],
  },
  {
    kind: 'date-time', what: 'task on-date without timezone', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['assessment-plan@1.0.2', 'assessment-plan@1.1.2'],
    edits: [add(`${TASK}/timing`, { 'on-date': { date: '2024-06-01T09:00:00' } })],
  },
  {
    kind: 'valid-edit', what: 'task within a date range', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['assessment-plan@1.1.2'],
    edits: [add(`${TASK}/timing`, { 'within-date-range': { start: '2024-06-01T09:00:00-04:00', end: '2024-06-07T17:00:00-04:00' } })],
  },
  {
    kind: 'choice', what: 'task timing with neither date, range nor frequency', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['assessment-plan@1.2.2'],
    edits: [add(`${TASK}/timing`, {})],
  },
  {
    kind: 'choice', what: 'task timing with both a date and a frequency', expect: 'invalid',
    on: ['assessment-plan@1.0.2', 'assessment-plan@1.1.2'],
    edits: [add(`${TASK}/timing`, { 'on-date': { date: '2024-06-01T09:00:00Z' }, 'at-frequency': { period: 1, unit: 'years' } })],
  },
  {
    kind: 'missing-required', what: 'import-ssp without href', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: plans,
    edits: [remove('import-ssp/href')],
    path: 'import-ssp',
  },
  {
    kind: 'missing-required', what: 'no reviewed-controls', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['assessment-plan@1.0.2', 'assessment-plan@1.2.2'],
    edits: [remove('reviewed-controls')],
  },
  {
    kind: 'missing-required', what: 'task without title', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['assessment-plan@1.1.2'],
    edits: [remove(`${TASK}/title`)],
  },
  {
    kind: 'empty-array', what: 'include-controls empty', expect: 'invalid', alsoAs: ['yaml'],
    on: ['assessment-plan@1.0.2', 'assessment-plan@1.1.2'],
    edits: [set('reviewed-controls/control-selections/0/include-controls', [])],
  },
  {
    kind: 'bad-token', what: 'task type with a space', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['assessment-plan@1.0.2', 'assessment-plan@1.2.2'],
    edits: [set(`${TASK}/type`, 'site visit')],
  },
  {
    kind: 'valid-edit', what: 'task type outside the suggested list (the list is open)', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['assessment-plan@1.1.2'],
    edits: [set(`${TASK}/type`, 'review')],
  },
  {
    kind: 'bad-uuid', what: 'activity step uuid with an underscore', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['assessment-plan@1.0.2', 'assessment-plan@1.2.2'],
    edits: [set(`${ACTIVITY}/steps/0/uuid`, '733e3cbf_e398_46b6_9c02_a2cb534c341e')],
  },
  {
    kind: 'extra-property', what: 'unknown property in related-controls', expect: 'invalid',
    on: ['assessment-plan@1.1.2', 'assessment-plan@1.0.2'],
    edits: [add(`${ACTIVITY}/related-controls/priority`, 'high')],
  },
  {
    kind: 'singleton-for-array', what: 'tasks as one object', expect: 'invalid',
    on: ['assessment-plan@1.2.2'],
    edits: [unwrap('tasks')],
  },
  {
    kind: 'singleton-for-array', what: 'task subjects as one object', expect: 'invalid',
    on: ['assessment-plan@1.0.2'],
    edits: [unwrap(`${TASK}/associated-activities/0/subjects`)],
  },
  {
    kind: 'markup-line', what: 'activity title with a line break', expect: 'invalid', alsoAs: ['yaml'],
    on: ['assessment-plan@1.0.2', 'assessment-plan@1.2.2'],
    edits: [set(`${ACTIVITY}/title`, 'Examine System Elements\nfor Least Privilege')],
  },
  {
    kind: 'bad-string', what: 'activity prop value empty', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['assessment-plan@1.1.2'],
    edits: [set(`${ACTIVITY}/props/0/value`, '')],
  },
];

const RESULT = 'results/0';
const FINDING = `${RESULT}/findings/0`;
const OBSERVATION = `${RESULT}/observations/0`;
const results = basesOf('assessment-results');

export const ASSESSMENT_RESULTS_MUTATIONS: readonly Mutation[] = [
  {
    kind: 'bad-enum', what: 'finding target type "control-id"', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: results,
    edits: [set(`${FINDING}/target/type`, 'control-id')],
    path: `${FINDING}/target/type`,
  },
  {
    kind: 'bad-enum', what: 'finding objective state "partially-satisfied"', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['assessment-results@1.0.5', 'assessment-results@1.2.1'],
    edits: [set(`${FINDING}/target/status/state`, 'partially-satisfied')],
  },
  {
    kind: 'valid-edit', what: 'finding objective satisfied, with a reason', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['assessment-results@1.1.3'],
    edits: [set(`${FINDING}/target/status/state`, 'satisfied'), add(`${FINDING}/target/status/reason`, 'pass')],
  },
  {
    kind: 'date-time', what: 'result start without timezone', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: results,
    edits: [set(`${RESULT}/start`, '2023-06-02T08:31:20')],
  },
  {
    kind: 'date-time', what: 'result end in month 13', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['assessment-results@1.0.5', 'assessment-results@1.1.3'],
    edits: [set(`${RESULT}/end`, '2023-13-02T08:46:51-04:00')],
  },
  {
    kind: 'date-time', what: 'observation collected as words', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['assessment-results@1.2.1'],
    edits: [set(`${OBSERVATION}/collected`, 'yesterday')],
  },
  {
    kind: 'missing-required', what: 'result without start', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['assessment-results@1.0.5', 'assessment-results@1.2.1'],
    edits: [remove(`${RESULT}/start`)],
  },
  {
    kind: 'missing-required', what: 'result without reviewed-controls', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['assessment-results@1.1.3'],
    edits: [remove(`${RESULT}/reviewed-controls`)],
  },
  {
    kind: 'missing-required', what: 'observation without collected', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['assessment-results@1.0.5'],
    edits: [remove(`${OBSERVATION}/collected`)],
  },
  {
    kind: 'empty-array', what: 'observation methods empty', expect: 'invalid', alsoAs: ['yaml'],
    on: ['assessment-results@1.0.5', 'assessment-results@1.2.1'],
    edits: [set(`${OBSERVATION}/methods`, [])],
  },
  {
    kind: 'singleton-for-array', what: 'observation methods a string', expect: 'invalid',
    on: ['assessment-results@1.1.3'],
    edits: [unwrap(`${OBSERVATION}/methods`)],
  },
  {
    kind: 'bad-token', what: 'risk status with a space', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['assessment-results@1.0.5', 'assessment-results@1.1.3'],
    edits: [set(`${RESULT}/risks/0/status`, 'under investigation')],
  },
  {
    kind: 'valid-edit', what: 'observation origin by a tool', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['assessment-results@1.0.5', 'assessment-results@1.2.1'],
    edits: [add(`${OBSERVATION}/origins`, [{ actors: [{ type: 'tool', 'actor-uuid': '3b8a6c2e-1f4d-4e7a-9c5b-2d6f8a0b1c3e' }] }])],
  },
  {
    kind: 'bad-enum', what: 'observation origin actor type "robot"', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['assessment-results@1.0.5', 'assessment-results@1.1.3'],
    edits: [add(`${OBSERVATION}/origins`, [{ actors: [{ type: 'robot', 'actor-uuid': '3b8a6c2e-1f4d-4e7a-9c5b-2d6f8a0b1c3e' }] }])],
  },
  {
    kind: 'valid-edit', what: 'a namespaced prop on an observation', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['assessment-results@1.0.5', 'assessment-results@1.1.3'],
    edits: [add(`${OBSERVATION}/props`, [{ name: 'ticket', ns: 'https://example.org/ns/oscal', value: 'IFA-1234' }])],
  },
  {
    kind: 'extra-property', what: 'unknown property in a finding target', expect: 'invalid',
    on: ['assessment-results@1.2.1'],
    edits: [add(`${FINDING}/target/severity`, 'high')],
  },
  {
    kind: 'bad-uri', what: 'import-ap href with a space', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['assessment-results@1.1.3'],
    edits: [set('import-ap/href', './assessment plan.xml')],
  },
  {
    kind: 'bad-uuid', what: 'result uuid with a version digit of 0', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['assessment-results@1.0.5', 'assessment-results@1.2.1'],
    edits: [set(`${RESULT}/uuid`, 'a1d20136-37e0-02aa-9834-4e9d8c36d798')],
  },
  {
    kind: 'bad-uuid', what: 'related observation uuid with a bad variant digit', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['assessment-results@1.1.3'],
    edits: [set(`${FINDING}/related-observations/0/observation-uuid`, '8807eb6e-0c05-43bc-c438-799739615e34')],
  },
];

const RISK = 'risks/0';
const MILESTONE = `${RISK}/remediations/0/tasks/0`;
const ACTOR = `${RISK}/characterizations/0/origin/actors/0`;
const poams = basesOf('plan-of-action-and-milestones');

export const POAM_MUTATIONS: readonly Mutation[] = [
  {
    kind: 'bad-enum', what: 'risk origin actor type "auditor"', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: poams,
    edits: [set(`${ACTOR}/type`, 'auditor')],
    path: `${ACTOR}/type`,
  },
  {
    kind: 'valid-edit', what: 'risk origin actor type "assessment-platform"', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['plan-of-action-and-milestones@1.0.6', 'plan-of-action-and-milestones@1.2.2'],
    edits: [set(`${ACTOR}/type`, 'assessment-platform')],
  },
  {
    kind: 'date-time', what: 'milestone start without timezone', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: poams,
    edits: [set(`${MILESTONE}/timing/within-date-range/start`, '2023-09-29T09:00:00')],
  },
  {
    kind: 'date-time', what: 'risk deadline as words', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['plan-of-action-and-milestones@1.0.6', 'plan-of-action-and-milestones@1.1.1'],
    edits: [set(`${RISK}/deadline`, 'end of quarter')],
  },
  {
    kind: 'valid-edit', what: 'risk deadline in UTC', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['plan-of-action-and-milestones@1.1.1'],
    edits: [set(`${RISK}/deadline`, '2024-01-01T09:00:00Z')],
  },
  {
    kind: 'missing-required', what: 'poam item without title', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['plan-of-action-and-milestones@1.0.6', 'plan-of-action-and-milestones@1.2.2'],
    edits: [remove('poam-items/0/title')],
  },
  {
    kind: 'missing-required', what: 'poam item without description', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['plan-of-action-and-milestones@1.1.1'],
    edits: [remove('poam-items/0/description')],
  },
  {
    kind: 'missing-required', what: 'system-id without its value', expect: 'invalid', alsoAs: ['yaml'],
    on: ['plan-of-action-and-milestones@1.0.6', 'plan-of-action-and-milestones@1.2.2'],
    edits: [remove('system-id/id')],
  },
  {
    kind: 'missing-required', what: 'milestone within-date-range without end', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['plan-of-action-and-milestones@1.1.1'],
    edits: [remove(`${MILESTONE}/timing/within-date-range/end`)],
  },
  {
    kind: 'bad-uri', what: 'system-id identifier-type without a scheme', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['plan-of-action-and-milestones@1.0.6', 'plan-of-action-and-milestones@1.1.1'],
    edits: [set('system-id/identifier-type', 'ietf.org/rfc/rfc4122')],
  },
  {
    kind: 'bad-uri', what: 'facet system with a space', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['plan-of-action-and-milestones@1.2.2'],
    edits: [set(`${RISK}/characterizations/0/facets/0/system`, 'https://ifa.gov/division/ociso/sca guide')],
  },
  {
    kind: 'empty-array', what: 'poam items empty', expect: 'invalid', alsoAs: ['yaml'],
    on: ['plan-of-action-and-milestones@1.0.6', 'plan-of-action-and-milestones@1.1.1'],
    edits: [set('poam-items', [])],
  },
  {
    kind: 'singleton-for-array', what: 'poam items as one object', expect: 'invalid',
    on: ['plan-of-action-and-milestones@1.2.2'],
    edits: [unwrap('poam-items')],
  },
  {
    kind: 'bad-uuid', what: 'observation subject uuid with spaces', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['plan-of-action-and-milestones@1.0.6', 'plan-of-action-and-milestones@1.2.2'],
    edits: [set('observations/0/subjects/0/subject-uuid', '551b9706 d6a4 4d25 8207 f2ccec548b89')],
  },
  {
    kind: 'bad-token', what: 'milestone type starting with a digit', expect: 'invalid', alsoAs: ['xml', 'yaml'],
    on: ['plan-of-action-and-milestones@1.1.1'],
    edits: [set(`${MILESTONE}/type`, '1st-milestone')],
  },
  {
    kind: 'extra-property', what: 'unknown property in a date range (depth 7)', expect: 'invalid',
    on: ['plan-of-action-and-milestones@1.0.6', 'plan-of-action-and-milestones@1.2.2'],
    edits: [add(`${MILESTONE}/timing/within-date-range/duration`, 'P3M')],
  },
  {
    kind: 'markup-line', what: 'risk title with a line break', expect: 'invalid', alsoAs: ['yaml'],
    on: ['plan-of-action-and-milestones@1.0.6', 'plan-of-action-and-milestones@1.1.1'],
    edits: [set(`${RISK}/title`, 'Least privilege\nnot enforced')],
  },
  {
    kind: 'singleton-for-array', what: 'risk characterizations as one object', expect: 'invalid',
    on: ['plan-of-action-and-milestones@1.1.1'],
    edits: [unwrap(`${RISK}/characterizations`)],
  },
  {
    kind: 'valid-edit', what: 'a namespaced prop on a poam item', expect: 'valid', alsoAs: ['xml', 'yaml'],
    on: ['plan-of-action-and-milestones@1.0.6', 'plan-of-action-and-milestones@1.2.2'],
    edits: [add('poam-items/0/props', [{ name: 'ticket', ns: 'https://example.org/ns/oscal', value: 'IFA-1234' }])],
  },
];
