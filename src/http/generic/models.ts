/** The OSCAL models of D1, as path segments of the generic interface. */
export const MODELS = ['catalog', 'profile', 'component-definition', 'system-security-plan', 'assessment-plan', 'assessment-results', 'plan-of-action-and-milestones', 'mapping-collection'] as const;
