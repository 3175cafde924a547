import { OscalError, pointer } from '../errors.js';
import { MODELS } from '../model/models.js';
import { modelFor, type ChildBinding, type FieldBinding, type FlagBinding, type OscalModel } from '../model/model.js';
import type { ParsedDocument } from './document.js';
import { describeType, jsonKind, scalarFromText } from './scalars.js';

/**
 * Where a lenient read puts the problems it finds instead of stopping at the first. Past `limit`
 * problems are still skipped but no longer recorded, so a hostile document cannot make the list
 * grow with its size.
 */
export interface ReadProblems {
  found: OscalError[];
  limit: number;
  /** The release to read with when the document declares none (validation's --oscal-version). */
  assumeVersion?: string;
}

/**
 * Checks a parsed JSON or YAML tree against the model of its declared release, and gives YAML's
 * untyped scalars the types the model says (YAML is read with every scalar as a string, so
 * `version: 1.0` stays "1.0"). Unknown properties and wrong shapes are errors carrying the
 * JSON pointer of the offending value; the format readers add line and column.
 *
 * With `problems`, the read goes on past such errors so that validation can report them all
 * together with what the schema finds: an unknown property is recorded and removed from the
 * tree (the schema would otherwise report it again), a value of the wrong shape or type is
 * recorded and left as it is, unread below. A document that names no model of a known release
 * still stops the read, since nothing else can be checked without one.
 */
export function readTree(tree: unknown, typeScalars: boolean, problems?: ReadProblems): ParsedDocument {
  if (!isObject(tree))
    throw new OscalError(
      'invalid-structure',
      'an OSCAL document must be an object with the model name as its property, e.g. {"catalog": {...}}',
      { path: '' },
    );
  const roots = Object.keys(tree).filter((k) => k !== '$schema');
  if (roots.length !== 1) {
    throw new OscalError(
      'unknown-root',
      roots.length === 0
        ? 'the document has no model property such as "catalog" or "system-security-plan"'
        : `the document must hold exactly one model, found ${roots.join(', ')}`,
      { path: '' },
    );
  }
  const root = roots[0]!;
  if (!(MODELS as readonly string[]).includes(root))
    throw new OscalError('unknown-root', `"${root}" is not an OSCAL model; expected one of: ${MODELS.join(', ')}`, {
      path: pointer([root]),
    });
  const body = tree[root];
  const declared = isObject(body) && isObject(body.metadata) ? body.metadata['oscal-version'] : undefined;
  const model = modelFor(declared === undefined ? problems?.assumeVersion : declared, root);
  const def = model.rootDef(root);
  if (def === undefined)
    throw new OscalError(
      'model-not-in-version',
      `"${root}" is not a model of OSCAL ${model.version}; it has: ${Object.keys(model.roots).join(', ')}`,
      { path: pointer([root]) },
    );
  new TreeWalker(model, typeScalars, problems).assembly(body, def, [root]);
  return { model: root, version: model.version, content: tree };
}

/**
 * Characters XML 1.0 cannot hold: every OSCAL value must survive conversion to XML. The plain
 * character class is checked on every value; the pairing of surrogates only where there are some.
 */
const SUSPECT_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
const NOT_XML_CHAR =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

class TreeWalker {
  constructor(
    private readonly model: OscalModel,
    private readonly typeScalars: boolean,
    private readonly problems?: ReadProblems,
  ) {}

  assembly(value: unknown, def: number, path: (string | number)[]): void {
    const binding = this.model.defs[def]!;
    if (!isObject(value)) return this.fail('invalid-structure', `${binding.name} must be an object`, path);
    const index = this.model.index(def);
    for (const key in value) {
      const flag = index.flags.get(key);
      path.push(key);
      if (flag) value[key] = this.scalar(value[key], flag, path);
      else {
        const child = index.json.get(key);
        if (child) this.child(value, key, child, path);
        else this.unknown(value, key, binding.name, () => [...index.flags.keys(), ...index.json.keys()], path);
      }
      path.pop();
    }
  }

  private child(parent: Record<string, unknown>, key: string, child: ChildBinding, path: (string | number)[]): void {
    const value = parent[key];
    if (!child.group) {
      parent[key] = this.item(value, child, path);
      return;
    }
    if (child.group === 'ARRAY' && !Array.isArray(value))
      return this.fail('invalid-structure', `${key} must be an array`, path);
    if (child.group === 'BY_KEY' && !isObject(value))
      return this.fail(
        'invalid-structure',
        `${key} must be an object keyed by ${this.model.defs[child.def]!.jsonKey}`,
        path,
      );
    if (child.group === 'BY_KEY') {
      const byKey = value as Record<string, unknown>;
      for (const k in byKey) {
        path.push(k);
        byKey[k] = this.item(byKey[k], child, path);
        path.pop();
      }
      return;
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        value[i] = this.item(value[i], child, path);
        path.pop();
      }
    } else {
      parent[key] = this.item(value, child, path);
    }
  }

  private item(value: unknown, child: ChildBinding, path: (string | number)[]): unknown {
    const def = this.model.defs[child.def]!;
    if (def.kind === 'assembly') {
      this.assembly(value, child.def, path);
      return value;
    }
    return this.field(value, def, child.def, path);
  }

  private field(value: unknown, def: FieldBinding, defIndex: number, path: (string | number)[]): unknown {
    const valueFlag: FlagBinding = { name: def.name, type: def.type };
    if (def.flags.length === 0) return this.scalar(value, valueFlag, path);
    if (!isObject(value)) {
      this.fail(
        'invalid-structure',
        `${def.name} must be an object with its ${def.valueKeyFlag ?? def.valueKey} and flags`,
        path,
      );
      return value;
    }
    const index = this.model.index(defIndex);
    let seenValue = false;
    for (const key in value) {
      const flag = index.flags.get(key);
      path.push(key);
      if (flag && key !== def.valueKeyFlag) value[key] = this.scalar(value[key], flag, path);
      else if (def.valueKeyFlag ? !seenValue : key === def.valueKey) {
        seenValue = true;
        value[key] = this.scalar(value[key], valueFlag, path);
      } else {
        this.unknown(value, key, def.name, () => [...index.flags.keys(), def.valueKey], path);
      }
      path.pop();
    }
    return value;
  }

  /** The value typed as the model says; on a lenient read, a value that cannot be is left as it is. */
  private scalar(value: unknown, flag: FlagBinding, path: (string | number)[]): unknown {
    if (typeof value === 'string') {
      if (SUSPECT_CHAR.test(value) && NOT_XML_CHAR.test(value)) {
        this.fail(
          'invalid-value',
          `${flag.name} holds a control character or unpaired surrogate that OSCAL (XML) cannot carry`,
          path,
        );
        return value;
      }
      if (!this.typeScalars || jsonKind(flag.type) === 'string') return value;
      const typed = scalarFromText(value, flag.type, 'yaml');
      if (typed === undefined) {
        this.fail(
          'invalid-value',
          `${flag.name} must be ${describeType(flag.type)}, not ${JSON.stringify(value)}`,
          path,
        );
        return value;
      }
      return typed;
    }
    if (typeof value === 'number' || typeof value === 'boolean') return value;
    this.fail(
      'invalid-structure',
      `${flag.name} must be ${describeType(flag.type)}, not ${value === null ? 'null' : Array.isArray(value) ? 'an array' : 'an object'}`,
      path,
    );
    return value;
  }

  /** Deleting the current key of a for-in loop is safe: the loop goes on with the next one. */
  private unknown(
    owner: Record<string, unknown>,
    key: string,
    ownerName: string,
    allowed: () => string[],
    path: (string | number)[],
  ): void {
    this.fail(
      'unknown-property',
      () => {
        const names = allowed();
        return (
          `property "${key}" is not allowed in ${ownerName}` + (names.length ? `; allowed: ${names.join(', ')}` : '')
        );
      },
      path,
    );
    delete owner[key];
  }

  /** Throws the problem, or on a lenient read records it (the message is made only if it is kept). */
  private fail(
    code: ConstructorParameters<typeof OscalError>[0],
    message: string | (() => string),
    path: (string | number)[],
  ): void {
    const problems = this.problems;
    const error = () =>
      new OscalError(code, typeof message === 'string' ? message : message(), { path: pointer(path) });
    if (!problems) throw error();
    if (problems.found.length < problems.limit) problems.found.push(error());
  }
}
