/** The registry's plural path segments (registry-api 2.1, D1) and the models they name. */
export const PLURALS: Record<string, string> = {
  catalogs: 'catalog',
  profiles: 'profile',
  'component-definitions': 'component-definition',
  'system-security-plans': 'system-security-plan',
  'assessment-plans': 'assessment-plan',
  'assessment-results': 'assessment-results',
  'plans-of-action-and-milestones': 'plan-of-action-and-milestones',
  'mapping-collections': 'mapping-collection',
};
