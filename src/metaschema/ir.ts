/**
 * The model IR: every definition of one OSCAL release, with imports and names resolved.
 * Everything later stages need (conversion bindings now, JSON Schema and constraint checks
 * later) is derived from this, never from the Metaschema XML again.
 */
import type { XmlElement } from './xml-tree.js';

export type DataType =
  | 'string'
  | 'token'
  | 'uuid'
  | 'uri'
  | 'uri-reference'
  | 'email-address'
  | 'base64'
  | 'date'
  | 'date-time'
  | 'date-with-timezone'
  | 'date-time-with-timezone'
  | 'day-time-duration'
  | 'year-month-duration'
  | 'ncname'
  | 'ip-v4-address'
  | 'ip-v6-address'
  | 'hostname'
  | 'boolean'
  | 'integer'
  | 'non-negative-integer'
  | 'positive-integer'
  | 'decimal'
  | 'string-or-decimal'
  | 'markup-line'
  | 'markup-multiline';

export interface Documentation {
  formalName?: string;
  description?: string;
}

/** Constraints are kept as their Metaschema element trees until a later stage enforces them. */
export type Constraint = XmlElement;

export interface FlagInstance extends Documentation {
  /** Effective name: XML attribute name and JSON property name. */
  name: string;
  def: string;
  required: boolean;
  constraints: Constraint[];
}

export interface GroupAs {
  name: string;
  inJson: 'ARRAY' | 'SINGLETON_OR_ARRAY' | 'BY_KEY';
  inXml: 'GROUPED' | 'UNGROUPED';
}

export interface NamedModelInstance extends Documentation {
  kind: 'assembly' | 'field';
  /** Effective name: the XML element name, and the JSON property when not grouped. */
  name: string;
  def: string;
  minOccurs: number;
  /** -1 for unbounded. */
  maxOccurs: number;
  groupAs?: GroupAs;
  /** Only for markup-multiline fields: UNWRAPPED puts the blocks straight into the parent. */
  wrapped: boolean;
  deprecated?: string;
}

export interface ChoiceInstance {
  kind: 'choice';
  options: ModelInstance[];
}

export interface AnyInstance {
  kind: 'any';
}

export type ModelInstance = NamedModelInstance | ChoiceInstance | AnyInstance;

interface DefinitionBase extends Documentation {
  /** Unique key within the IR (module short name, kind, name; local ones carry their parent). */
  key: string;
  name: string;
  module: string;
  constraints: Constraint[];
  deprecated?: string;
}

export interface FlagDefinition extends DefinitionBase {
  kind: 'flag';
  type: DataType;
  default?: string;
}

export interface FieldDefinition extends DefinitionBase {
  kind: 'field';
  type: DataType;
  flags: FlagInstance[];
  /** JSON property holding the value when the field has flags. */
  valueKey?: string;
  /** Flag whose value names the JSON property holding the value. */
  valueKeyFlag?: string;
  jsonKey?: string;
  default?: string;
}

export interface AssemblyDefinition extends DefinitionBase {
  kind: 'assembly';
  rootName?: string;
  flags: FlagInstance[];
  model: ModelInstance[];
  jsonKey?: string;
}

export type Definition = FlagDefinition | FieldDefinition | AssemblyDefinition;

export interface ModelIR {
  /** OSCAL release, without the leading v. */
  version: string;
  namespace: string;
  definitions: Record<string, Definition>;
  /** Root element name to assembly key, e.g. catalog -> oscal-catalog:assembly:catalog. */
  roots: Record<string, string>;
  /** Each module's short name to its file name, for messages that point into a module. */
  modules: Record<string, string>;
}
