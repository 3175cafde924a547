import { diffWordsWithSpace } from 'diff';
import type { ChildBinding, DefinitionBinding, OscalModel } from '../model/model.js';
import { canonical, hasDocumentKey, identityOf, type Identity } from './identity.js';
import type { Change, FieldChange, WordSpan } from './types.js';

/** One side of the comparison: its model and the objects named by a uuid or id, wherever they are. */
interface Side {
  model: OscalModel;
  located: Map<string, Located>;
}

interface Located {
  node: Record<string, unknown>;
  def: number;
  path: string;
  /** The nearest ancestor named by a uuid or id, and the property this object sits under. */
  parent: string;
}

/** An entry of a list: the value, and the pointer segment that reaches it. */
interface Item {
  node: unknown;
  segment: string;
}

const pointer = (segment: string) =>
  segment.includes('~') || segment.includes('/') ? segment.replace(/~/g, '~0').replace(/\//g, '~1') : segment;
const parentOf = (path: string) => path.slice(0, path.lastIndexOf('/'));
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function titleOf(node: unknown): string | undefined {
  return isObject(node) && typeof node.title === 'string' ? node.title : undefined;
}

/** The values of a child property in the order the document holds them. */
function itemsOf(value: unknown, child: ChildBinding | undefined): Item[] {
  if (child?.group === 'BY_KEY' && isObject(value))
    return Object.entries(value).map(([key, node]) => ({ node, segment: `/${pointer(key)}` }));
  if (Array.isArray(value)) return value.map((node, i) => ({ node, segment: `/${i}` }));
  return [{ node: value, segment: '' }];
}

const isList = (child: ChildBinding | undefined, value: unknown) =>
  Array.isArray(value) || child?.group === 'BY_KEY' || (child !== undefined && child.max !== 1);

/** Markdown and other text is compared word by word; the spans rebuild either side. */
function words(old: string, now: string): WordSpan[] {
  return diffWordsWithSpace(old, now).map((part) => ({
    op: part.added ? 'added' : part.removed ? 'removed' : 'same',
    text: part.value,
  }));
}

const isProse = (def: DefinitionBinding | undefined) =>
  def?.kind === 'field' && (def.type === 'markup-line' || def.type === 'markup-multiline');

/**
 * Markdown as it reads, not as a converter spaced it: runs of spaces render as one, spaces at line
 * ends and after a list marker are layout, and a blank line between list items only makes the
 * list loose (NIST's JSON and XML of one SSP differ just so).
 */
export const proseText = (text: string) =>
  text
    .replace(/[ \t]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n\n(?=(?:[*+-]|\d+[.)]) )/g, '\n')
    .trim();

function sameValue(old: unknown, now: unknown, def: DefinitionBinding | undefined): boolean {
  if (old === undefined || now === undefined) return old === now;
  if (typeof old === 'string' && typeof now === 'string')
    return old === now || (isProse(def) && proseText(old) === proseText(now));
  if (typeof old !== 'object' || typeof now !== 'object') return old === now;
  return JSON.stringify(old) === JSON.stringify(now) || canonical(old) === canonical(now);
}

/** The longest run of entries already in their old order (indices increasing): the ones that did not move. */
function unmoved(oldOrder: number[]): Set<number> {
  const tails: number[] = [];
  const previous = new Array<number>(oldOrder.length).fill(-1);
  const at: number[] = [];
  oldOrder.forEach((value, i) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (oldOrder[tails[mid]!]! < value) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[i] = tails[lo - 1]!;
    tails[lo] = i;
    at[i] = lo;
  });
  const kept = new Set<number>();
  for (let i = tails.at(-1) ?? -1; i !== -1; i = previous[i]!) kept.add(i);
  return kept;
}

/**
 * Compares two documents of one model, each walked with its own release's model: objects are
 * matched by identity (identity.ts), never by position, and each difference is reported once.
 */
export class Comparison {
  readonly changes: Change[] = [];
  /** Objects named by a uuid or id already reported as moved here from another parent. */
  private readonly consumed = new Set<string>();
  private readonly old: Side;
  private readonly now: Side;
  private readonly oldNamed = new Map<number, readonly ChildBinding[]>();
  private readonly newNamed = new Map<number, readonly ChildBinding[]>();

  constructor(
    oldModel: OscalModel,
    newModel: OscalModel,
    private readonly rootName: string,
  ) {
    this.old = { model: oldModel, located: new Map() };
    this.now = { model: newModel, located: new Map() };
  }

  run(oldRoot: Record<string, unknown>, newRoot: Record<string, unknown>): Change[] {
    const oldDef = this.old.model.rootDef(this.rootName)!;
    const newDef = this.now.model.rootDef(this.rootName)!;
    const path = `/${this.rootName}`;
    this.locate(this.old, oldRoot, oldDef, path, '');
    this.locate(this.now, newRoot, newDef, path, '');
    this.compareObjects(oldRoot, newRoot, oldDef, newDef, path, path);
    return this.changes;
  }

  /**
   * Whether objects of a definition can hold, at any depth, an object named by a uuid or id: the
   * only subtrees that locate() and movedInto() need to enter (props, links and prose never do).
   */
  private holdsNamed(side: Side, def: number, seen = new Set<number>()): boolean {
    if (seen.has(def)) return false;
    seen.add(def);
    const binding = this.def(side, def);
    return (
      binding.kind === 'assembly' &&
      binding.children.some((c) => hasDocumentKey(this.def(side, c.def)) || this.holdsNamed(side, c.def, seen))
    );
  }

  /** The children of a definition that are, or can hold, objects named by a uuid or id; worked out once. */
  private namedChildren(side: Side, def: number): readonly ChildBinding[] {
    const memo = side === this.old ? this.oldNamed : this.newNamed;
    let children = memo.get(def);
    if (!children) {
      const binding = this.def(side, def);
      children =
        binding.kind === 'assembly'
          ? binding.children.filter((c) => hasDocumentKey(this.def(side, c.def)) || this.holdsNamed(side, c.def))
          : [];
      memo.set(def, children);
    }
    return children;
  }

  /** Calls `visit` for each value of each child of a node that may be or hold a named object. */
  private eachNamedChild(
    side: Side,
    node: Record<string, unknown>,
    def: number,
    path: string,
    visit: (value: unknown, child: ChildBinding, path: string) => void,
  ): void {
    for (const child of this.namedChildren(side, def)) {
      const value = node[child.json];
      if (value === undefined) continue;
      const at = `${path}/${child.json}`;
      if (Array.isArray(value)) for (let i = 0; i < value.length; i++) visit(value[i], child, `${at}/${i}`);
      else if (child.group === 'BY_KEY' && isObject(value))
        for (const [key, item] of Object.entries(value)) visit(item, child, `${at}/${pointer(key)}`);
      else visit(value, child, at);
    }
  }

  private def(side: Side, def: number): DefinitionBinding {
    return side.model.defs[def]!;
  }

  private child(side: Side, def: number | undefined, key: string): ChildBinding | undefined {
    if (def === undefined) return undefined;
    return this.def(side, def).kind === 'assembly' ? side.model.index(def).json.get(key) : undefined;
  }

  /** Indexes every object named by a uuid or id, with where it sits. */
  private locate(side: Side, node: unknown, def: number, path: string, parent: string): void {
    if (!isObject(node)) return;
    const binding = this.def(side, def);
    let here = parent;
    if (hasDocumentKey(binding)) {
      const identity = identityOf(binding, node);
      if (identity.scope === 'document') {
        if (!side.located.has(identity.key)) side.located.set(identity.key, { node, def, path, parent });
        here = identity.key;
      }
    }
    this.eachNamedChild(side, node, def, path, (value, child, at) =>
      this.locate(side, value, child.def, at, `${here}>${child.json}`),
    );
  }

  /** Two objects taken for the same one: their fields, then their children. */
  private compareObjects(
    o: unknown,
    n: unknown,
    oldDef: number | undefined,
    newDef: number | undefined,
    oldPath: string,
    newPath: string,
  ): void {
    const binding = newDef !== undefined ? this.def(this.now, newDef) : undefined;
    if (!isObject(o) || !isObject(n)) {
      if (JSON.stringify(o) !== JSON.stringify(n))
        this.report('changed', binding, n, newPath, oldPath, [this.field('', o, n, binding)]);
      return;
    }
    const fields: FieldChange[] = [];
    // Children are compared after the object's own change is reported, so a report reads parent first.
    const children: (() => void)[] = [];
    const keys = new Set([...Object.keys(o), ...Object.keys(n)]);
    for (const key of keys) {
      const oldChild = this.child(this.old, oldDef, key);
      const newChild = this.child(this.now, newDef, key);
      const child = newChild ?? oldChild;
      const ov = o[key];
      const nv = n[key];
      const segment = `/${pointer(key)}`;
      const childDef = child && this.def(newChild ? this.now : this.old, child.def);
      const scalarField = !child || (childDef?.kind === 'field' && !isList(child, ov ?? nv) && !isObject(ov ?? nv));
      if (scalarField) {
        if (!sameValue(ov, nv, childDef)) fields.push(this.field(key, ov, nv, childDef));
      } else if (isList(child, ov ?? nv)) {
        children.push(() =>
          this.compareLists(
            ov === undefined ? [] : itemsOf(ov, oldChild ?? child),
            nv === undefined ? [] : itemsOf(nv, child),
            oldChild?.def,
            newChild?.def,
            `${oldPath}${segment}`,
            `${newPath}${segment}`,
          ),
        );
      } else if (ov === undefined) children.push(() => this.added(nv, newChild?.def, `${newPath}${segment}`));
      else if (nv === undefined) children.push(() => this.removed(ov, oldChild?.def, `${oldPath}${segment}`));
      else
        children.push(() =>
          this.compareObjects(ov, nv, oldChild?.def, newChild?.def, `${oldPath}${segment}`, `${newPath}${segment}`),
        );
    }
    if (fields.length) this.report('changed', binding, n, newPath, oldPath, fields);
    for (const compare of children) compare();
  }

  private field(key: string, old: unknown, now: unknown, def: DefinitionBinding | undefined): FieldChange {
    const change: FieldChange = { field: key };
    if (old !== undefined) change.old = old;
    if (now !== undefined) change.new = now;
    if (isProse(def) && typeof old === 'string' && typeof now === 'string') change.words = words(old, now);
    return change;
  }

  private identity(side: Side, def: number | undefined, node: unknown): Identity {
    return identityOf(def === undefined ? undefined : this.def(side, def), node);
  }

  private compareLists(
    oldItems: Item[],
    newItems: Item[],
    oldDef: number | undefined,
    newDef: number | undefined,
    oldPath: string,
    newPath: string,
  ): void {
    const oldIds = oldItems.map((item) => this.identity(this.old, oldDef, item.node));
    const waiting = new Map<string, number[]>();
    oldIds.forEach((id, i) => {
      const list = waiting.get(id.key);
      if (list) list.push(i);
      else waiting.set(id.key, [i]);
    });
    const matchedOld = new Set<number>();
    // Matched in place, in the new order: [old index, new index], for finding what moved within the list.
    const pairs: [number, number][] = [];

    newItems.forEach((item, j) => {
      const id = this.identity(this.now, newDef, item.node);
      const path = `${newPath}${item.segment}`;
      const i = waiting.get(id.key)?.shift();
      if (i !== undefined) {
        matchedOld.add(i);
        if (id.scope !== 'content') {
          pairs.push([i, j]);
          this.compareObjects(oldItems[i]!.node, item.node, oldDef, newDef, `${oldPath}${oldItems[i]!.segment}`, path);
        }
        return;
      }
      const elsewhere = id.scope === 'document' ? this.old.located.get(id.key) : undefined;
      if (elsewhere && !this.consumed.has(id.key)) this.movedHere(id.key, elsewhere, item.node, newDef, path);
      else this.added(item.node, newDef, path);
    });

    oldItems.forEach((item, i) => {
      if (matchedOld.has(i)) return;
      const id = oldIds[i]!;
      // Found under another parent in the newer document: reported there as moved.
      if (id.scope === 'document' && this.now.located.has(id.key)) return;
      this.removed(item.node, oldDef, `${oldPath}${item.segment}`);
    });

    const stayed = unmoved(pairs.map(([i]) => i));
    pairs.forEach(([i, j], k) => {
      if (stayed.has(k)) return;
      const binding = newDef !== undefined ? this.def(this.now, newDef) : undefined;
      this.report(
        'moved',
        binding,
        newItems[j]!.node,
        `${newPath}${newItems[j]!.segment}`,
        `${oldPath}${oldItems[i]!.segment}`,
      );
    });
  }

  private movedHere(key: string, from: Located, node: unknown, def: number | undefined, path: string): void {
    this.consumed.add(key);
    const binding = def !== undefined ? this.def(this.now, def) : undefined;
    this.report('moved', binding, node, path, from.path);
    this.compareObjects(from.node, node, from.def, def, from.path, path);
  }

  private added(node: unknown, def: number | undefined, path: string): void {
    const binding = def !== undefined ? this.def(this.now, def) : undefined;
    this.report('added', binding, node, path);
    // Objects that an added parent brought from elsewhere are moves, not additions.
    if (def !== undefined) this.movedInto(node, def, path);
  }

  private movedInto(node: unknown, def: number, path: string): void {
    if (!isObject(node)) return;
    this.eachNamedChild(this.now, node, def, path, (value, child, at) => {
      const id = this.identity(this.now, child.def, value);
      const from = id.scope === 'document' ? this.old.located.get(id.key) : undefined;
      if (from && !this.consumed.has(id.key)) this.movedHere(id.key, from, value, child.def, at);
      else this.movedInto(value, child.def, at);
    });
  }

  private removed(node: unknown, def: number | undefined, path: string): void {
    this.report('removed', def !== undefined ? this.def(this.old, def) : undefined, node, path);
  }

  private report(
    kind: Change['kind'],
    def: DefinitionBinding | undefined,
    node: unknown,
    path: string,
    from?: string,
    fields?: FieldChange[],
  ): void {
    const change: Change = { kind, path, object: def?.name ?? 'value' };
    // A changed object that only shifted within its list is where it was: `from` says where it came from otherwise.
    if (from !== undefined && (kind === 'moved' || parentOf(from) !== parentOf(path))) change.from = from;
    const id = identityOf(def, node);
    if (id.scope !== 'content') change.key = id.label;
    const title = titleOf(node);
    if (title !== undefined) change.title = title;
    if (fields) change.fields = fields;
    // A whole object added or removed is named, not copied; a value without parts of its own is shown.
    if ((kind === 'added' || kind === 'removed') && (def?.kind !== 'assembly' || id.scope === 'siblings'))
      change.value = node;
    this.changes.push(change);
  }
}
