/**
 * The OSCAL models (D1), each once: its name, which is also its path segment on the generic
 * interface, and its plural, the registry's path segment (registry-api 2.1). The names are the
 * root assemblies of the newest supported release (test/metaschema.test.ts holds them equal).
 */
const MODEL_TABLE = [
  { model: 'catalog', plural: 'catalogs' },
  { model: 'profile', plural: 'profiles' },
  { model: 'component-definition', plural: 'component-definitions' },
  { model: 'system-security-plan', plural: 'system-security-plans' },
  { model: 'assessment-plan', plural: 'assessment-plans' },
  { model: 'assessment-results', plural: 'assessment-results' },
  { model: 'plan-of-action-and-milestones', plural: 'plans-of-action-and-milestones' },
  { model: 'mapping-collection', plural: 'mapping-collections' },
] as const;

export type ModelName = (typeof MODEL_TABLE)[number]['model'];

export const MODELS: readonly ModelName[] = MODEL_TABLE.map((m) => m.model);

/** The registry's plural path segments and the models they name. */
export const PLURALS: Readonly<Record<string, ModelName>> = Object.fromEntries(
  MODEL_TABLE.map((m) => [m.plural, m.model]),
);
