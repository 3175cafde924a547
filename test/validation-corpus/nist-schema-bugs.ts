export const NIST_SCHEMA_BUGS: ReadonlyMap<string, string> = new Map<string, string>([]);
