/** Every case of the corpus: each mutation expanded over the bases it names. */
import { ASSESSMENT_PLAN_MUTATIONS, ASSESSMENT_RESULTS_MUTATIONS, POAM_MUTATIONS } from './assessment-layer.js';
import { CATALOG_MUTATIONS, MAPPING_MUTATIONS, PROFILE_MUTATIONS } from './control-layer.js';
import { expand, type CorpusCase } from './corpus.js';
import { DOCUMENT_MUTATIONS } from './document.js';
import { COMPONENT_DEFINITION_MUTATIONS, SSP_MUTATIONS } from './implementation-layer.js';

export const CASES: readonly CorpusCase[] = expand([
  ...DOCUMENT_MUTATIONS,
  ...CATALOG_MUTATIONS,
  ...PROFILE_MUTATIONS,
  ...MAPPING_MUTATIONS,
  ...COMPONENT_DEFINITION_MUTATIONS,
  ...SSP_MUTATIONS,
  ...ASSESSMENT_PLAN_MUTATIONS,
  ...ASSESSMENT_RESULTS_MUTATIONS,
  ...POAM_MUTATIONS,
]);
