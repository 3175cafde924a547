/** What a semantic diff reports: changes in OSCAL's own terms, located by JSON pointer. */

export type ChangeKind = 'added' | 'removed' | 'moved' | 'changed';

/** A stretch of a word-level comparison of two texts (Markdown compared as text). */
export interface WordSpan {
  op: 'same' | 'added' | 'removed';
  text: string;
}

/** A field or flag of an object whose value differs between the two sides. */
export interface FieldChange {
  /** The JSON property name (a flag, or a field such as title, prose, remarks). */
  field: string;
  /** Absent when the field is new. */
  old?: unknown;
  /** Absent when the field was removed. */
  new?: unknown;
  /** For Markdown and other prose: the two texts word by word. */
  words?: WordSpan[];
}

export interface Change {
  kind: ChangeKind;
  /** JSON pointer of the object in the newer document; of the older one for a removal. */
  path: string;
  /** Where the object was in the older document (moved and changed objects). */
  from?: string;
  /** The object's definition name in the model (control, part, prop, component...). */
  object: string;
  /** Its identity when it has one: the uuid, id or other key it was matched by. */
  key?: string;
  /** Its title, when it has one, for a person reading the report. */
  title?: string;
  /** Changed objects: the fields that changed. */
  fields?: FieldChange[];
  /** Added and removed values that are not whole objects with content of their own (props, strings...). */
  value?: unknown;
}

/** What changed among a catalog's controls (catalogs and resolved catalogs). */
export interface CatalogSummary {
  controlsAdded: string[];
  controlsRemoved: string[];
  /** Controls whose status became withdrawn. */
  controlsWithdrawn: string[];
  /** Parameters present on both sides whose definition changed. */
  parametersChanged: string[];
  /** Controls present on both sides whose statement changed. */
  statementsChanged: string[];
}

export interface ProfileSummary {
  /** Control ids newly named by an import's include-controls; `all` stands for include-all. */
  controlsSelected: string[];
  controlsDeselected: string[];
  /** set-parameters added, removed or changed, by param-id. */
  parametersChanged: string[];
}

export interface SspSummary {
  /** Implemented requirements by control-id. */
  requirementsAdded: string[];
  requirementsRemoved: string[];
  /** An implemented requirement's implementation-status, by control-id. */
  statusChanges: { control: string; old?: string; new?: string }[];
  /** Components by uuid, with their titles. */
  componentsAdded: { uuid: string; title?: string }[];
  componentsRemoved: { uuid: string; title?: string }[];
}

export interface DiffSummary {
  /** Changes of each kind in `changes`. */
  counts: Record<ChangeKind, number>;
  catalog?: CatalogSummary;
  profile?: ProfileSummary;
  systemSecurityPlan?: SspSummary;
}

export interface DiffReport {
  model: string;
  from: { version: string };
  to: { version: string };
  /** True when nothing differs (after what was asked to be ignored). */
  equal: boolean;
  summary: DiffSummary;
  changes: Change[];
}

export interface DiffOptions {
  /**
   * Leave out what changes on every save without changing what the document says: metadata's
   * last-modified and the content identifier this server keeps in document-ids.
   */
  ignoreVolatile?: boolean;
}
