/**
 * A corpus of documents mutated to break one Metaschema constraint each: the mistakes people make
 * (a role-id that names no role, a party, component or control that is not there, two parts with
 * one id, a prop name outside the OSCAL namespace's list, a link to a missing back-matter
 * resource). Each starts from a base of the validation corpus (NIST's content), and the change
 * must add exactly one finding, of the constraint it breaks, in JSON and XML alike.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { serializeOscal, type Format } from '../src/oscal/formats/index.js';
import { validateFully, type ValidationIssue } from '../src/oscal/validate/index.js';
import { baseById, type Base } from './validation-corpus/bases.js';
import { add, applyEdits, set, type Edit, type Json, type JsonObject } from './validation-corpus/json-edit.js';

interface Breakage {
  what: string;
  on: readonly string[];
  edits: readonly Edit[];
  /** The constraint that must fire: its kind, and a pattern its id and message must both meet. */
  kind: string;
  id: RegExp;
  message: RegExp;
  /** Where (relative to the model's body, as the edits are). */
  path: string;
  /** The findings' level, when not ERROR. */
  level?: string;
  /** How many constraints fire, when NIST defines more than one that the change breaks (by release, where they differ). */
  fires?: number | Record<string, number>;
  /** The releases where two of the constraints that fire share one id (1.2.2 names two lists alike). */
  sharedIds?: string[];
}

const MISSING_UUID = '0badc0de-0000-4000-8000-000000000000';

const BREAKAGES: readonly Breakage[] = [
  {
    what: 'a responsible-party role-id that names no role',
    on: ['system-security-plan@1.1.2', 'system-security-plan@1.2.0', 'system-security-plan@1.0.1'],
    edits: [set('metadata/responsible-parties/0/role-id', 'no-such-role')],
    kind: 'index-has-key',
    id: /responsible-party/,
    message: /"no-such-role".*index-metadata-role-id/,
    path: 'metadata/responsible-parties/0',
  },
  {
    what: 'a responsible-party party-uuid that names no party',
    on: ['system-security-plan@1.1.2', 'assessment-plan@1.2.2'],
    edits: [set('metadata/responsible-parties/0/party-uuids/0', MISSING_UUID)],
    kind: 'index-has-key',
    id: /part/i,
    message: new RegExp(`"${MISSING_UUID}".*index-metadata-party-uuid`),
    path: 'metadata/responsible-parties/0/party-uuids/0',
  },
  {
    what: "an implemented requirement's responsible role that names no role",
    on: ['system-security-plan@1.1.2', 'system-security-plan@1.2.0'],
    edits: [add('control-implementation/implemented-requirements/0/responsible-roles', [{ 'role-id': 'nobody' }])],
    kind: 'index-has-key',
    id: /implemented-requirement/,
    message: /"nobody".*index-metadata-role-id/,
    path: 'control-implementation/implemented-requirements/0/responsible-roles/0',
  },
  {
    what: "a component's depends-on link to a component that does not exist",
    on: ['system-security-plan@1.1.2', 'system-security-plan@1.2.0'],
    edits: [add('system-implementation/components/0/links', [{ href: MISSING_UUID, rel: 'depends-on' }])],
    kind: 'index-has-key',
    id: /system-implementation/,
    message: new RegExp(`"${MISSING_UUID}".*index-system-implementation-component-uuid`),
    path: 'system-implementation/components/0/links/0',
  },
  {
    // NIST's 1.2.0 level, applied to 1.1.x too (corrections.ts).
    what: 'a related link to a control that is not in the catalog (a warning, as 1.2.0 made it)',
    on: ['catalog@1.1.2'],
    edits: [add('groups/1/groups/0/controls/1/links', [{ href: '#zz-99', rel: 'related' }])],
    kind: 'index-has-key',
    id: /control/,
    message: /"zz-99".*catalog-groups-controls-parts/,
    path: 'groups/1/groups/0/controls/1/links/0',
    level: 'WARNING',
  },
  {
    what: 'a related link to a control that is not in the catalog (a warning since 1.2.0)',
    on: ['catalog@1.2.1'],
    edits: [add('groups/1/groups/0/controls/1/links', [{ href: '#zz-99', rel: 'related' }])],
    kind: 'index-has-key',
    id: /catalog-groups-controls-parts/,
    message: /"zz-99"/,
    path: 'groups/1/groups/0/controls/1/links/0',
    level: 'WARNING',
  },
  {
    // Two indexes hold controls (every control; every control, group and part): both say so.
    what: 'two controls with one id',
    on: ['catalog@1.1.2', 'catalog@1.2.1'],
    edits: [set('groups/1/groups/0/controls/1/id', 's2.1.1')],
    kind: 'index',
    id: /index|catalog/,
    message: /"s2\.1\.1".*(catalog-controls|catalog-groups-controls-parts)/,
    path: 'groups/1/groups/0/controls/1',
    fires: 2,
  },
  {
    // Likewise the index of parts and the index of controls, groups and parts.
    what: 'two parts with one id',
    on: ['catalog@1.1.2', 'catalog@1.2.1'],
    edits: [set('groups/1/groups/0/controls/1/parts/1/id', 's2.1.2_stm')],
    kind: 'index',
    id: /index|catalog/,
    message: /"s2\.1\.2_stm".*(catalog-parts|catalog-groups-controls-parts)/,
    path: 'groups/1/groups/0/controls/1/parts/1',
    fires: 2,
  },
  {
    // 1.1.2's metadata defines two indexes of role ids (index-metadata-role-ids and -role-id).
    what: 'two roles with one id',
    on: ['system-security-plan@1.1.2'],
    edits: [add('metadata/roles/-', { id: 'developer', title: 'Twin' })],
    kind: 'index',
    id: /index-metadata-role/,
    message: /"developer".*index-metadata-role-ids?\b/,
    path: 'metadata/roles/4',
    fires: 2,
  },
  {
    what: 'an OSCAL-namespace prop name outside its allowed values',
    on: ['system-security-plan@1.1.2', 'component-definition@1.2.2', 'catalog@1.0.4'],
    edits: [add('metadata/props', [{ name: 'no-such-prop', value: 'x' }])],
    kind: 'allowed-values',
    id: /allowed-values|prop/i,
    message: /"no-such-prop"; it must be one of/,
    path: 'metadata/props/0/name',
    // Several lists name the value (metadata's, the property's own, and in 1.0.4 the catalog's);
    // metaschema-java fails each (DefaultConstraintValidator.ValueStatus.validate).
    fires: { 'system-security-plan@1.1.2': 2, 'component-definition@1.2.2': 2, 'catalog@1.0.4': 3 },
    sharedIds: ['component-definition@1.2.2'],
  },
  {
    what: 'a link to a back-matter resource that does not exist',
    on: ['component-definition@1.1.2', 'catalog@1.1.2', 'system-security-plan@1.2.0'],
    edits: [add('metadata/links', [{ href: `#${MISSING_UUID}`, rel: 'reference' }])],
    kind: 'index-has-key',
    id: /link|back-matter/i,
    message: new RegExp(`"${MISSING_UUID}".*index-back-matter-resource`),
    path: 'metadata/links/0',
  },
];

/** What makes a finding one and the same in two runs. */
const key = (i: ValidationIssue) => `${i.constraintId} ${i.path} ${i.message}`;

async function findings(doc: Json, base: Base, format: Format): Promise<ValidationIssue[]> {
  const text =
    format === 'json'
      ? JSON.stringify(doc)
      : serializeOscal({ model: base.model, version: base.version, content: doc as Record<string, unknown> }, format);
  const result = await validateFully(text, { format });
  assert.equal(
    result.constraintsChecked,
    true,
    `the schema accepts it, so constraints ran: ${result.issues.map((i) => i.message).join('; ')}`,
  );
  return result.issues;
}

const relative = (base: Base, path: string) => `/${base.model}/${path}`;

describe('constraint corpus: each mutation breaks one rule, and only its constraints fire', () => {
  for (const b of BREAKAGES) {
    for (const id of b.on) {
      const base = baseById(id);
      for (const format of ['json', 'xml'] as const) {
        test(`${id} (${format}): ${b.what}`, async () => {
          const original = base.json() as JsonObject;
          const before = new Set((await findings(original, base, format)).map(key));
          const mutated = applyEdits(original, base.model, b.edits);
          const added = (await findings(mutated, base, format)).filter((i) => !before.has(key(i)));
          const fires = typeof b.fires === 'object' ? b.fires[id]! : (b.fires ?? 1);
          assert.equal(
            added.length,
            fires,
            `${fires} new finding(s), got:\n  ${added.map(key).join('\n  ') || '(none)'}`,
          );
          assert.equal(
            new Set(added.map((f) => f.constraintId)).size,
            b.sharedIds?.includes(id) ? 1 : added.length,
            'each from a constraint of its own',
          );
          for (const finding of added) {
            assert.equal(finding.code, `constraint-${b.kind}`, key(finding));
            assert.match(finding.constraintId!, b.id);
            assert.match(finding.message, b.message);
            assert.equal(finding.path, relative(base, b.path));
            assert.equal(finding.level, b.level ?? 'ERROR');
            assert.ok(finding.line !== undefined && finding.line > 0, 'located in the source');
          }
        });
      }
    }
  }
});
