/**
 * A document as the located entries a full-text search finds: each object named by a uuid or id
 * (and the document itself) with its own words, its title and the controls it is about.
 */
import type { ParsedDocument } from '../formats/document.js';
import { modelFor, type ChildBinding, type FieldBinding, type OscalModel } from '../model/model.js';
import { controlOfPartId, linkedId } from './control-ids.js';
import { planOf, type Plan, type Role } from './plan.js';
import { collapse, markupWords } from './plain-text.js';

export interface SearchEntry {
  /** JSON pointer of the object in the document's JSON form, e.g. /catalog/groups/0/controls/3 */
  path: string;
  /** The object's Metaschema definition name: catalog, group, control, part, component, implemented-requirement, finding, poam-item, party, ... */
  kind: string;
  /** Its uuid or id, when it has one. */
  key?: string;
  /** Its title, as plain text (Markdown markup removed), when it has one. */
  title?: string;
  /** The words of the object itself as plain text: its markup fields (prose, description, remarks, ...) with Markdown syntax removed, prop values, labels, names, parameter labels/values/choices, ids of controls and parts it names — not the text of descendants that are entries of their own. */
  text: string;
  /** Control ids this object is about: a control's own id; an implemented requirement's control-id; a statement's control; a set-parameter's param's control... lower-cased, in the form the document uses (ac-2.1). */
  controlIds: string[];
}

/** An entry being filled while its object is walked. */
interface Open {
  slot: number;
  path: string;
  kind: string;
  key?: string;
  title?: string;
  words: string[];
  controls: Set<string>;
}

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const pointer = (segment: string) =>
  segment.includes('~') || segment.includes('/') ? segment.replace(/~/g, '~0').replace(/\//g, '~1') : segment;

function keyOf(node: Obj, plan: Plan): string | undefined {
  for (const name of plan.keys) {
    const value = node[name];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

class Extraction {
  private readonly entries: SearchEntry[] = [];

  constructor(private readonly model: OscalModel) {}

  run(root: Obj, def: number, path: string): SearchEntry[] {
    this.assembly(root, def, path, undefined, []);
    return this.entries;
  }

  private plan(def: number): Plan {
    return planOf(this.model.defs[def]!);
  }

  /** `about`: the controls that the objects around this one are about. */
  private assembly(node: Obj, def: number, path: string, enclosing: Open | undefined, about: readonly string[]): void {
    const plan = this.plan(def);
    const key = keyOf(node, plan);
    // A control, or whatever names one (an implemented requirement, an alter, a local objective),
    // is what the entries inside it are about.
    const named = plan.name === 'control' ? key : node['control-id'];
    const inner = typeof named === 'string' ? [named.toLowerCase()] : about;
    // The document itself is an entry even without a uuid, so every word has one to belong to.
    const opened = key !== undefined || enclosing === undefined ? this.open(plan, path, key, inner) : undefined;
    const here = (opened ?? enclosing)!;
    // The metadata's title is the document's.
    const titled = opened ?? (plan.name === 'metadata' && here.title === undefined ? here : undefined);
    this.flags(node, plan, here);
    const children = this.model.index(def).json;
    for (const name of Object.keys(node)) {
      const child = children.get(name);
      if (!child) continue;
      const value = node[name];
      if (titled && name === plan.titleChild && typeof value === 'string') {
        titled.title = collapse(markupWords(value, false));
        continue;
      }
      this.child(value, child, `${path}/${pointer(name)}`, here, inner);
    }
    if (opened) this.close(opened);
  }

  private child(value: unknown, child: ChildBinding, path: string, here: Open, about: readonly string[]): void {
    const binding = this.model.defs[child.def]!;
    if (binding.kind === 'field') {
      const plan = planOf(binding);
      if (Array.isArray(value)) for (const item of value) this.field(item, binding, plan, here);
      else if (child.group === 'BY_KEY' && isObject(value))
        for (const item of Object.values(value)) this.field(item, binding, plan, here);
      else this.field(value, binding, plan, here);
      return;
    }
    const assembly = (node: unknown, at: string) => {
      if (isObject(node)) this.assembly(node, child.def, at, here, about);
    };
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) assembly(value[i], `${path}/${i}`);
    else if (child.group === 'BY_KEY' && isObject(value))
      for (const [key, item] of Object.entries(value)) assembly(item, `${path}/${pointer(key)}`);
    else assembly(value, path);
  }

  private field(value: unknown, binding: FieldBinding, plan: Plan, here: Open): void {
    let scalar = value;
    if (isObject(value)) {
      this.flags(value, plan, here);
      scalar = value[binding.valueKey];
    }
    if (plan.value && scalar !== undefined && scalar !== null) take(here, plan.value, String(scalar));
  }

  private flags(node: Obj, plan: Plan, here: Open): void {
    for (const [name, role] of plan.flags) {
      const value = node[name];
      if (value !== undefined && value !== null) take(here, role, String(value));
    }
  }

  private open(plan: Plan, path: string, key: string | undefined, about: readonly string[]): Open {
    const open: Open = { slot: this.entries.length, path, kind: plan.name, words: [], controls: new Set(about) };
    if (key !== undefined) open.key = key;
    // Reserved now so that entries stay in document order, each before those inside it.
    this.entries.push(undefined as unknown as SearchEntry);
    return open;
  }

  private close(open: Open): void {
    // Assigned, not spread: fifty entries a document, and spreads of optional fields cost more than the walk.
    const entry: SearchEntry = {
      path: open.path,
      kind: open.kind,
      text: collapse(open.words.join(' ')),
      controlIds: [...open.controls],
    };
    if (open.key !== undefined) entry.key = open.key;
    if (open.title !== undefined) entry.title = open.title;
    this.entries[open.slot] = entry;
  }
}

function take(here: Open, role: Role, value: string): void {
  switch (role) {
    case 'markup-line':
    case 'markup-multiline':
      here.words.push(markupWords(value, role === 'markup-multiline'));
      return;
    case 'fragment': {
      const id = linkedId(value);
      if (id !== undefined) here.words.push(id);
      return;
    }
    case 'control':
      here.controls.add(value.toLowerCase());
      break;
    case 'part': {
      const control = controlOfPartId(value);
      if (control !== undefined) here.controls.add(control);
      break;
    }
  }
  here.words.push(value);
}

/**
 * The search entries of a document, in document order, each before the entries inside it: the
 * document itself first, then every object named by a uuid or id (properties aside), walked
 * with the model of the document's own release.
 */
export function searchEntriesOf(doc: ParsedDocument): SearchEntry[] {
  const model = modelFor(doc.version, doc.model);
  const def = model.rootDef(doc.model);
  const root = doc.content[doc.model];
  if (def === undefined || !isObject(root)) return [];
  return new Extraction(model).run(root, def, `/${pointer(doc.model)}`);
}
