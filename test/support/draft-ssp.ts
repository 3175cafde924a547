/**
 * A cloud provider's draft system security plan: NIST's SSP example with its own root uuid and
 * title, in three states. Schema-valid with constraint findings: an inventory item's responsible
 * party names a party the metadata does not have (two ERROR findings, of index-has-key
 * constraints, as `oscal-depot validate` reports them). Valid: the example as NIST has it.
 * Schema-invalid: the metadata has no title.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTENT } from './shared.js';

export const SSP_EXAMPLE = join(CONTENT, 'oscal-content@88bb8de', 'examples', 'ssp', 'json', 'ssp-example.json');

/** The constraints the draft breaks, as findings name them. */
export const BROKEN_CONSTRAINTS = [
  'oscal-implementation-common:assembly:inventory-item/index-has-key-2',
  'oscal-metadata:field:party-uuid/index-has-key-1',
];

export type SspState = 'findings' | 'valid' | 'schema-invalid';

/** The SSP (root uuid `id`) as JSON text in `state`; a fresh id and title unless given. */
export function ssp(state: SspState, id: string = randomUUID(), title = `Draft SSP ${randomBytes(4).toString('hex')}`) {
  const doc = JSON.parse(readFileSync(SSP_EXAMPLE, 'utf8'));
  const plan = doc['system-security-plan'];
  plan.uuid = id;
  plan.metadata.title = title;
  // The same content uuid on both interfaces: the generic one would otherwise make its own (D2).
  plan.metadata['document-ids'] = [{ scheme: 'http://oscal.io/oscal/identifier/contentuuid', identifier: id }];
  if (state === 'findings')
    plan['system-implementation']['inventory-items'][0]['responsible-parties'][0]['party-uuids'] = [randomUUID()];
  if (state === 'schema-invalid') delete plan.metadata.title;
  return { id, title, body: JSON.stringify(doc, null, 2) };
}
