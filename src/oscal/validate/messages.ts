import { pointerSegments } from '../formats/positions.js';
import type { OscalModel } from '../model/model.js';
import type { AjvError } from './compiled.js';
import { DATATYPE_EXPECTATIONS } from './datatype-messages.js';
import type { ValidationIssue } from './issues.js';
import { targetAt, valueAt, type PathTarget } from './model-paths.js';

const JSON_TYPES: Record<string, string> = {
  array: 'a list (JSON array)',
  object: 'an object',
  string: 'text (a JSON string)',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
};

function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function expectation(target: PathTarget): string | undefined {
  return target.type ? DATATYPE_EXPECTATIONS[target.type] : undefined;
}

/**
 * ajv reports a failed SINGLETON_OR_ARRAY (anyOf: one item, or an array of several) with the
 * errors of both branches; only the branch that matches the shape of the data says anything useful.
 */
function dropUntakenBranches(errors: AjvError[], content: unknown): AjvError[] {
  const untaken = new Set<string>();
  for (const e of errors) {
    if (e.keyword !== 'anyOf') continue;
    if (REQUIRED_CHOICE.test(e.schemaPath)) {
      // A required choice: each branch only says "missing X"; the anyOf itself is reported.
      untaken.add(`${e.schemaPath}/`);
      continue;
    }
    const isArray = Array.isArray(valueAt(content, pointerSegments(e.instancePath).map(String)));
    untaken.add(`${e.schemaPath.replace(/\/anyOf$/, '')}/anyOf/${isArray ? 0 : 1}/`);
  }
  return errors.filter(
    (e) => (e.keyword !== 'anyOf' || REQUIRED_CHOICE.test(e.schemaPath)) && !inUntakenBranch(e.schemaPath, untaken),
  );
}

/**
 * Whether a schema path runs through one of the untaken branches: only its own `/anyOf/`
 * prefixes are looked up, so that thousands of errors cost thousands of lookups, not millions.
 */
function inUntakenBranch(schemaPath: string, untaken: Set<string>): boolean {
  if (untaken.size === 0) return false;
  for (let at = schemaPath.indexOf('/anyOf/'); at !== -1; at = schemaPath.indexOf('/anyOf/', at + 1)) {
    const choice = at + '/anyOf/'.length;
    if (untaken.has(schemaPath.slice(0, choice))) return true;
    const branchEnd = schemaPath.indexOf('/', choice);
    if (branchEnd !== -1 && untaken.has(schemaPath.slice(0, branchEnd + 1))) return true;
  }
  return false;
}

/** Where the generator puts "one of these alternatives is required". */
const REQUIRED_CHOICE = /\/allOf\/\d+\/anyOf$/;

/** Turns ajv's errors into issues that name the property, what it must be, and what it was. */
export function describeErrors(
  errors: AjvError[],
  model: OscalModel,
  content: unknown,
  maxIssues = Infinity,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const e of dropUntakenBranches(errors, content)) {
    if (issues.length >= maxIssues) break;
    const segments = pointerSegments(e.instancePath).map(String);
    const target = targetAt(model, segments);
    const value = valueAt(content, segments);
    const message = describe(e, target, value, model);
    const key = `${e.instancePath}\n${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ code: `schema-${e.keyword}`, path: e.instancePath, message });
  }
  return issues;
}

function describe(e: AjvError, target: PathTarget, value: unknown, model: OscalModel): string {
  const name = target.name;
  const p = e.params;
  switch (e.keyword) {
    case 'required':
      return `${name} is missing its required "${String(p.missingProperty)}"`;
    case 'additionalProperties':
      return `property "${String(p.additionalProperty)}" is not allowed in ${name}`;
    case 'type': {
      const wanted = String(p.type)
        .split(',')
        .map((t) => JSON_TYPES[t] ?? t)
        .join(' or ');
      const detail = expectation(target);
      return `${name} must be ${wanted}${detail && !detail.startsWith(wanted) ? ` (${detail})` : ''}, not ${quote(value)}`;
    }
    case 'pattern':
    case 'format':
    case 'minimum':
    case 'maximum':
      return `${name} is ${quote(value)}; it must be ${expectation(target) ?? `a value matching ${String(p.pattern ?? p.format ?? p.limit)}`}`;
    case 'enum':
      return `${name} is ${quote(value)}; it must be one of: ${(p.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'minItems':
      return Number(p.limit) === 1
        ? `${name} is an empty list; give at least one item, or leave ${name} out`
        : `${name} must have at least ${String(p.limit)} items`;
    case 'maxItems':
      return `${name} may have at most ${String(p.limit)} items`;
    case 'not':
      return choiceMessage(target, value, model) ?? `${name} does not satisfy the model (${e.message ?? 'not'})`;
    case 'anyOf':
      return missingChoiceMessage(target, value, model) ?? `${name} ${e.message ?? 'is invalid'}`;
    default:
      return `${name} ${e.message ?? 'is invalid'}`;
  }
}

/** The only object-level anyOf we generate says one of a required choice's alternatives is missing. */
function missingChoiceMessage(target: PathTarget, value: unknown, model: OscalModel): string | undefined {
  if (target.def === undefined || typeof value !== 'object' || value === null) return undefined;
  const def = model.defs[target.def]!;
  if (def.kind !== 'assembly') return undefined;
  const groups = new Map<number, string[]>();
  for (const c of def.children)
    if (c.choice !== undefined && c.min > 0) groups.set(c.choice, [...(groups.get(c.choice) ?? []), c.json]);
  for (const names of groups.values()) {
    if (!names.some((n) => Object.hasOwn(value, n)))
      return `${target.name} needs one of ${names.map((n) => `"${n}"`).join(' or ')}`;
  }
  return undefined;
}

/** The only `not` we generate says two alternatives of a choice were both given. */
function choiceMessage(target: PathTarget, value: unknown, model: OscalModel): string | undefined {
  if (target.def === undefined || typeof value !== 'object' || value === null) return undefined;
  const def = model.defs[target.def]!;
  if (def.kind !== 'assembly') return undefined;
  const present = def.children.filter((c) => c.choice !== undefined && Object.hasOwn(value, c.json));
  for (const a of present) {
    const rivals = present.filter((b) => b !== a && b.choice === a.choice);
    if (rivals.length)
      return `${target.name} has both ${[a, ...rivals].map((c) => `"${c.json}"`).join(' and ')}; they are alternatives, give only one`;
  }
  return undefined;
}
