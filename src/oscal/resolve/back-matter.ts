import { keptAlways, type Resource } from './types.js';

/**
 * Resources of the imports in import order, then the profile's own. A later resource with a uuid
 * already present replaces it (and takes the later place), unless the earlier one is kept always
 * and the later one is not.
 */
export function mergeResources(lists: readonly (Resource[] | undefined)[]): Resource[] {
  const byUuid = new Map<string, Resource>();
  for (const list of lists) {
    for (const resource of list ?? []) {
      const previous = byUuid.get(resource.uuid);
      if (previous && keptAlways(previous) && !keptAlways(resource)) continue;
      byUuid.delete(resource.uuid);
      byUuid.set(resource.uuid, resource);
    }
  }
  return [...byUuid.values()];
}
