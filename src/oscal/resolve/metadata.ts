import { keptAlways, type Json, type Metadata, type Prop } from './types.js';

export interface MetadataSettings {
  lastModified: string;
  oscalVersion: string;
  tool: string;
  sourceProfile: string;
}

/**
 * The profile's metadata with what the specification and D10 ask of a resolved catalog: the
 * resolution time, the result's oscal-version, a resolution-tool prop and a source-profile link
 * (replacing any the profile carried), and the roles and parties of imported documents that are
 * kept always.
 */
export function resultMetadata(profile: Metadata, imported: readonly Metadata[], settings: MetadataSettings): Metadata {
  const out: Metadata = { ...profile, 'last-modified': settings.lastModified, 'oscal-version': settings.oscalVersion };
  out.props = [
    ...(profile.props ?? []).filter((p) => p.name !== 'resolution-tool'),
    { name: 'resolution-tool', value: settings.tool } as Prop,
  ];
  out.links = [
    ...(profile.links ?? []).filter((l) => l.rel !== 'source-profile'),
    { href: settings.sourceProfile, rel: 'source-profile' },
  ];
  for (const [list, key] of [
    ['roles', 'id'],
    ['parties', 'uuid'],
  ] as const) {
    const kept = imported
      .flatMap((m) => (m[list] as (Json & { props?: Prop[] })[] | undefined) ?? [])
      .filter(keptAlways);
    const merged = [...((out[list] as Json[] | undefined) ?? [])];
    for (const item of kept) if (!merged.some((m) => m[key] === item[key])) merged.push(item);
    if (merged.length) out[list] = merged;
  }
  return out;
}
