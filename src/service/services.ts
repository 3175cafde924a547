import type { Level } from '../oscal/constraints/index.js';
import { searchEntriesOffThread, type SearchEntriesOf } from '../oscal/search/extract-thread.js';
import type { Store, Visibility } from '../store/types.js';
import { AliasService } from './aliases.js';
import { AttachmentService } from './attachments.js';
import { ConstraintSetService } from './constraint-sets.js';
import { ContentService } from './content.js';
import { DiffService } from './diff.js';
import { SearchService } from './search.js';
import { DocumentService } from './documents.js';
import { MetapathService } from './metapath.js';
import { RegistryService } from './registry.js';
import { ResolutionService } from './resolution.js';
import { SnapshotService } from './snapshots.js';
import { ValidationService } from './validation.js';

export interface ServiceSettings {
  publicUrl: string;
  defaultVisibility: Visibility;
  inlineRenditionLimit: number;
  /** Where profile imports may come from besides this store (D10). */
  imports: { importMap: ReadonlyMap<string, string>; allowHosts: ReadonlySet<string> };
  /** Largest import fetched over the network. */
  maxFetch: number;
  /** Constraint findings at this level or above refuse a write. */
  rejectLevel: Level;
}

export type Services = ReturnType<typeof createServices>;

/**
 * Every use case over one store, wired as both interfaces use them. `searchEntries` makes the
 * search entries of a write and of a reindex: the search bench gives one that makes none, to time
 * writes without the index.
 */
export function createServices(
  store: Store,
  settings: ServiceSettings,
  searchEntries: SearchEntriesOf = searchEntriesOffThread,
) {
  // Writes are checked with the constraints, whose doc() loads as profile imports do, which read
  // documents as the caller may: the one circle of the services, closed once all exist.
  let validation: ValidationService | undefined;
  const documents = new DocumentService(
    store,
    settings,
    {
      findingsForWrite: (...args) => validation!.findingsForWrite(...args),
    },
    searchEntries,
  );
  const attachments = new AttachmentService(store, documents, settings.publicUrl);
  const snapshots = new SnapshotService(store, documents);
  const aliases = new AliasService(store, documents);
  const resolution = new ResolutionService(store, documents, attachments, snapshots, aliases, {
    publicUrl: settings.publicUrl,
    maxFetch: settings.maxFetch,
    ...settings.imports,
  });
  const constraintSets = new ConstraintSetService(store);
  const search = new SearchService(store, searchEntries);
  validation = new ValidationService(
    store,
    documents,
    constraintSets,
    (identity) => resolution.importLoader(identity),
    (identity) => resolution.profileResolver(identity),
    settings,
  );
  return {
    documents,
    aliases,
    content: new ContentService(store, documents),
    registry: new RegistryService(store, documents, search),
    attachments,
    snapshots,
    resolution,
    constraintSets,
    validation,
    diff: new DiffService(store, documents),
    metapath: new MetapathService(store, documents),
    search,
  };
}
