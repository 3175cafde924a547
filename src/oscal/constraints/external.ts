/**
 * External constraint sets: Metaschema's metaschema-meta-constraints format, as government
 * programs publish their rules. A set holds imports of other sets, namespace bindings for the
 * prefixes its expressions use, and contexts: Metapath targets and the constraints (and lets)
 * that apply to the nodes they select, with nested contexts selecting from those nodes.
 */
import { childElements, parseXmlTree, XmlTreeError, type XmlElement } from '../../metaschema/xml-tree.js';
import { compileRules, ConstraintDefinitionError, expression, letNames } from './compile.js';
import type { ConstraintContext, ConstraintSet } from './model.js';

export { ConstraintDefinitionError } from './compile.js';

/** Reads an imported set: `href` as written, relative to the importing set's `from`. */
export type SetLoader = (href: string, from: string) => Promise<{ name: string; text: string }>;

/** Imports deeper than this are taken for a loop. */
const MAX_IMPORT_DEPTH = 16;

/**
 * Reads a constraint set, its imports first (their contexts come before its own, in import
 * order). Every failure is a ConstraintDefinitionError naming the file and line.
 */
export async function readConstraintSet(name: string, text: string, loadImport?: SetLoader): Promise<ConstraintSet> {
  const parsed: { file: string; root: XmlElement }[] = [];
  const seen = new Set<string>();
  const collect = async (file: string, body: string, chain: string[]): Promise<void> => {
    if (chain.length > MAX_IMPORT_DEPTH)
      throw new ConstraintDefinitionError(file, 1, `imports are nested more than ${MAX_IMPORT_DEPTH} deep`);
    const root = parse(file, body);
    for (const imp of childElements(root, 'import')) {
      const href = imp.attrs.href;
      if (href === undefined) throw new ConstraintDefinitionError(file, imp.line, '<import> needs its href attribute');
      if (!loadImport)
        throw new ConstraintDefinitionError(
          file,
          imp.line,
          `the import of ${href} cannot be read here: imports are read from files beside the set, or from sets registered on the server`,
        );
      let imported: { name: string; text: string };
      try {
        imported = await loadImport(href, file);
      } catch (e) {
        if (e instanceof ConstraintDefinitionError) throw e;
        throw new ConstraintDefinitionError(
          file,
          imp.line,
          `the import of ${href} cannot be read: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
      if (chain.includes(imported.name))
        throw new ConstraintDefinitionError(
          file,
          imp.line,
          `the import of ${href} makes a loop: ${[...chain, imported.name].join(' -> ')}`,
        );
      if (!seen.has(imported.name)) {
        seen.add(imported.name);
        await collect(imported.name, imported.text, [...chain, imported.name]);
      }
    }
    parsed.push({ file, root });
  };
  seen.add(name);
  await collect(name, text, [name]);

  const namespaces: Record<string, string> = {};
  for (const { file, root } of parsed) {
    for (const binding of childElements(root, 'namespace-binding')) {
      const { prefix, uri } = binding.attrs;
      if (prefix === undefined || uri === undefined)
        throw new ConstraintDefinitionError(
          file,
          binding.line,
          '<namespace-binding> needs its prefix and uri attributes',
        );
      namespaces[prefix] = uri;
    }
  }
  const variables = parsed.flatMap(({ root }) => letNames(root));
  const contexts = parsed.flatMap(({ file, root }) =>
    childElements(root, 'context').map((el, i) =>
      context(el, { file, namespaces, variables, idPrefix: `${file}/context-${i + 1}` }),
    ),
  );
  return { name, contexts, namespaces };
}

function parse(file: string, text: string): XmlElement {
  let root: XmlElement;
  try {
    root = parseXmlTree(text, file);
  } catch (e) {
    if (e instanceof XmlTreeError)
      throw new ConstraintDefinitionError(file, e.line, e.message.replace(/^[^:]*:\d+:\d+: /, ''));
    throw e;
  }
  if (root.name !== 'metaschema-meta-constraints') {
    throw new ConstraintDefinitionError(
      file,
      root.line,
      `the root element is <${root.name}>; a constraint set is a <metaschema-meta-constraints> document`,
    );
  }
  for (const el of childElements(root)) {
    if (!['import', 'namespace-binding', 'context', 'remarks'].includes(el.name)) {
      throw new ConstraintDefinitionError(
        file,
        el.line,
        `<${el.name}> is not allowed in <metaschema-meta-constraints> (expected import, namespace-binding or context)`,
      );
    }
  }
  return root;
}

function context(
  el: XmlElement,
  options: { file: string; namespaces: Record<string, string>; variables: string[]; idPrefix: string },
): ConstraintContext {
  const targets = childElements(el, 'metapath').map((m) => expression(m, 'target', options));
  if (targets.length === 0)
    throw new ConstraintDefinitionError(options.file, el.line, 'a <context> needs at least one <metapath target="…"/>');
  for (const child of childElements(el)) {
    if (!['metapath', 'constraints', 'context', 'remarks'].includes(child.name)) {
      throw new ConstraintDefinitionError(
        options.file,
        child.line,
        `<${child.name}> is not allowed in <context> (expected metapath, constraints, context or remarks)`,
      );
    }
  }
  const constraints = childElements(el, 'constraints')[0];
  return {
    targets,
    rules: constraints ? compileRules(childElements(constraints), options) : [],
    contexts: childElements(el, 'context').map((c, i) =>
      context(c, { ...options, idPrefix: `${options.idPrefix}/context-${i + 1}` }),
    ),
  };
}
