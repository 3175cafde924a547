/**
 * JSON-pointer edits that mutate a copy of a base document. Every edit insists that what it
 * changes is there (or, for `add`, is not), so a corpus entry whose pointer has gone stale fails
 * loudly instead of leaving the base untouched and "valid".
 *
 * A pointer that does not start with "/" is relative to the model's body: "metadata/title" in a
 * catalog is "/catalog/metadata/title".
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/**
 * Changes the document in place, or returns the document that replaces it (for mutations of the
 * document's own shape); `root` is the base's model name.
 */
export type Edit = (doc: Json, root: string) => Json | void;

export function absolute(pointer: string, root: string): string {
  return pointer.startsWith('/') ? pointer : `/${root}/${pointer}`;
}

function segments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function isContainer(value: Json | undefined): value is Json[] | JsonObject {
  return typeof value === 'object' && value !== null;
}

/** The container holding the pointer's last segment, and that segment. */
function parentOf(doc: Json, pointer: string): { parent: Json[] | JsonObject; key: string } {
  const path = segments(pointer);
  const key = path.pop();
  if (key === undefined) throw new Error('an edit needs a pointer below the document');
  let node: Json = doc;
  for (const segment of path) {
    const next: Json | undefined = isContainer(node) ? (node as Record<string, Json>)[segment] : undefined;
    if (!isContainer(next)) throw new Error(`${pointer}: nothing to edit at /${segment}`);
    node = next;
  }
  return { parent: node as Json[] | JsonObject, key };
}

function existing(doc: Json, pointer: string): { parent: Json[] | JsonObject; key: string; value: Json } {
  const { parent, key } = parentOf(doc, pointer);
  if (!Object.hasOwn(parent, key)) throw new Error(`${pointer}: not in the base document`);
  return { parent, key, value: (parent as Record<string, Json>)[key]! };
}

/** Replaces a value that is present. */
export function set(pointer: string, value: Json): Edit {
  return (doc, root) => {
    const { parent, key } = existing(doc, absolute(pointer, root));
    (parent as Record<string, Json>)[key] = structuredClone(value);
  };
}

/** Adds a property that is absent, or appends to an array with the "-" segment. */
export function add(pointer: string, value: Json): Edit {
  return (doc, root) => {
    const at = absolute(pointer, root);
    const { parent, key } = parentOf(doc, at);
    if (Array.isArray(parent)) {
      if (key !== '-') throw new Error(`${at}: append to an array with "-"`);
      parent.push(structuredClone(value));
      return;
    }
    if (Object.hasOwn(parent, key)) throw new Error(`${at}: already in the base document; use set`);
    parent[key] = structuredClone(value);
  };
}

export function remove(pointer: string): Edit {
  return (doc, root) => {
    const at = absolute(pointer, root);
    const { parent, key } = existing(doc, at);
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
  };
}

/** An array's first item in place of the array: the singleton a SINGLETON_OR_ARRAY group would allow. */
export function unwrap(pointer: string): Edit {
  return (doc, root) => {
    const at = absolute(pointer, root);
    const { parent, key, value } = existing(doc, at);
    if (!Array.isArray(value) || value.length === 0) throw new Error(`${at}: not a non-empty array`);
    (parent as Record<string, Json>)[key] = value[0]!;
  };
}

export function applyEdits(base: JsonObject, root: string, edits: readonly Edit[]): Json {
  let doc: Json = structuredClone(base);
  for (const edit of edits) doc = edit(doc, root) ?? doc;
  return doc;
}
