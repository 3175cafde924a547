/**
 * The parts of the OSCAL JSON form that resolution reads. Objects keep every other property they
 * have (the index signature), since resolution copies what it does not interpret.
 */
export type Json = Record<string, unknown>;

export interface Prop extends Json {
  name: string;
  value: string;
  ns?: string;
  class?: string;
}
export interface Param extends Json {
  id: string;
  props?: Prop[];
}
export interface Part extends Json {
  id?: string;
  name: string;
  ns?: string;
  class?: string;
  props?: Prop[];
  parts?: Part[];
}
export interface Control extends Json {
  id: string;
  class?: string;
  params?: Param[];
  props?: Prop[];
  parts?: Part[];
  controls?: Control[];
}
export interface Group extends Json {
  id?: string;
  params?: Param[];
  props?: Prop[];
  groups?: Group[];
  controls?: Control[];
}
export interface Resource extends Json {
  uuid: string;
  props?: Prop[];
  rlinks?: { href: string }[];
  base64?: { value: string };
}
export interface Metadata extends Json {
  'oscal-version': string;
  props?: Prop[];
  links?: Json[];
  roles?: Json[];
  parties?: Json[];
}
export interface BackMatter extends Json {
  resources?: Resource[];
}

export interface Catalog extends Json {
  uuid: string;
  metadata: Metadata;
  params?: Param[];
  controls?: Control[];
  groups?: Group[];
  'back-matter'?: BackMatter;
}

export interface Selector extends Json {
  'with-child-controls'?: string;
  'with-ids'?: string[];
  matching?: { pattern?: string }[];
}
export interface ControlChoice extends Json {
  'include-all'?: Json;
  'include-controls'?: Selector[];
  'exclude-controls'?: Selector[];
}
export interface Import extends ControlChoice {
  href: string;
}
export interface InsertControls extends ControlChoice {
  order?: string;
}
export interface CustomGroup extends Group {
  'insert-controls'?: InsertControls[];
  groups?: CustomGroup[];
}
export interface Merge extends Json {
  combine?: { method?: string };
  flat?: Json;
  'as-is'?: boolean;
  custom?: { groups?: CustomGroup[]; 'insert-controls'?: InsertControls[] };
}
export interface SetParameter extends Json {
  'param-id': string;
}
export interface Remove extends Json {
  'by-name'?: string;
  'by-class'?: string;
  'by-id'?: string;
  'by-item-name'?: string;
  'by-ns'?: string;
}
export interface Add extends Json {
  position?: string;
  'by-id'?: string;
}
export interface Alter extends Json {
  'control-id': string;
  removes?: Remove[];
  adds?: Add[];
}
export interface Modify extends Json {
  'set-parameters'?: SetParameter[];
  alters?: Alter[];
}

export interface Profile extends Json {
  uuid: string;
  metadata: Metadata;
  imports: Import[];
  merge?: Merge;
  modify?: Modify;
  'back-matter'?: BackMatter;
}

/** `keep: always`, which protects an object from pruning and from replacement. */
export function keptAlways(obj: { props?: Prop[] }): boolean {
  return (
    obj.props?.some((p) => p.name === 'keep' && p.value === 'always' && (p.ns === undefined || p.ns === OSCAL_NS)) ??
    false
  );
}

/** The namespace of props and parts that name none. */
export const OSCAL_NS = 'http://csrc.nist.gov/ns/oscal';
