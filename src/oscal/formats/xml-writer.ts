import { OscalError, pointer } from '../errors.js';
import { MarkupError, markdownToXml } from '../markup/index.js';
import { modelFor, type FieldBinding, type FlagBinding, type OscalModel } from '../model/model.js';
import type { ParsedDocument } from './document.js';
import { valuesFromJson } from './groups.js';
import { scalarToText } from './scalars.js';
import { escapeAttribute, escapeText } from './xml-escape.js';
import { OSCAL_NS } from './xml-reader.js';

const INDENT = '  ';

/**
 * Writes the OSCAL JSON form as OSCAL XML: elements in the order the model defines, flags as
 * attributes, markup fields as XML markup. Assemblies are indented; text and markup content are
 * written exactly, since whitespace there is content.
 */
export function writeXml(doc: ParsedDocument): string {
  const model = modelFor(doc.version);
  const def = model.rootDef(doc.model);
  if (def === undefined) throw new OscalError('unknown-root', `"${doc.model}" is not an OSCAL model`);
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  new XmlWriter(model, out).assembly(
    doc.content[doc.model] as Record<string, unknown>,
    def,
    doc.model,
    '',
    ` xmlns="${OSCAL_NS}"`,
    [doc.model],
  );
  out.push('\n');
  return out.join('');
}

class XmlWriter {
  constructor(
    private readonly model: OscalModel,
    private readonly out: string[],
  ) {}

  assembly(
    obj: Record<string, unknown>,
    def: number,
    name: string,
    indent: string,
    extra: string,
    path: (string | number)[],
  ): void {
    const binding = this.model.defs[def]!;
    if (binding.kind !== 'assembly') throw new Error(`${name} is not an assembly`);
    const out = this.out;
    out.push(indent, '<', name, extra, this.attributes(obj, binding.flags));
    const inner = indent + INDENT;
    let empty = true;
    for (const child of binding.children) {
      const value = obj[child.json];
      if (value === undefined) continue;
      if (empty) {
        out.push('>');
        empty = false;
      }
      path.push(child.json);
      if (child.unwrapped) {
        out.push('\n', inner, this.markup(value, true, path));
      } else {
        const values = child.group ? valuesFromJson(value, child, this.model) : [value];
        let itemIndent = inner;
        if (child.wrapper) {
          out.push('\n', inner, '<', child.wrapper, '>');
          itemIndent = inner + INDENT;
        }
        const target = this.model.defs[child.def]!;
        for (let i = 0; i < values.length; i++) {
          if (child.group) path.push(i);
          out.push('\n');
          if (target.kind === 'assembly')
            this.assembly(values[i] as Record<string, unknown>, child.def, child.name, itemIndent, '', path);
          else this.field(values[i], target, child.name, itemIndent, path);
          if (child.group) path.pop();
        }
        if (child.wrapper) out.push('\n', inner, '</', child.wrapper, '>');
      }
      path.pop();
    }
    if (empty) out.push('/>');
    else out.push('\n', indent, '</', name, '>');
  }

  private field(value: unknown, def: FieldBinding, name: string, indent: string, path: (string | number)[]): void {
    let attrs = '';
    let content = value;
    if (def.flags.length > 0) {
      const obj = value as Record<string, unknown>;
      if (def.valueKeyFlag) {
        const valueProp = Object.keys(obj).find((k) => !def.flags.some((f) => f.name === k));
        attrs =
          this.attributes(
            obj,
            def.flags.filter((f) => f.name !== def.valueKeyFlag),
          ) + (valueProp === undefined ? '' : ` ${def.valueKeyFlag}="${escapeAttribute(valueProp)}"`);
        content = valueProp === undefined ? undefined : obj[valueProp];
      } else {
        attrs = this.attributes(obj, def.flags);
        content = obj[def.valueKey];
      }
    }
    const text =
      def.type === 'markup-line' || def.type === 'markup-multiline'
        ? this.markup(content, def.type === 'markup-multiline', path)
        : escapeText(scalarText(content, path));
    this.out.push(indent, '<', name, attrs, text === '' ? '/>' : `>${text}</${name}>`);
  }

  private markup(value: unknown, multiline: boolean, path: (string | number)[]): string {
    if (typeof value !== 'string')
      throw new OscalError('invalid-structure', 'markup must be a string of Markdown', { path: pointer(path) });
    try {
      return markdownToXml(value, multiline);
    } catch (e) {
      if (e instanceof MarkupError) throw new OscalError('invalid-markup', e.message, { path: pointer(path) });
      throw e;
    }
  }

  private attributes(obj: Record<string, unknown>, flags: readonly FlagBinding[]): string {
    let attrs = '';
    for (const flag of flags) {
      const value = obj[flag.name];
      if (value !== undefined) attrs += ` ${flag.name}="${escapeAttribute(scalarText(value, [flag.name]))}"`;
    }
    return attrs;
  }
}

function scalarText(value: unknown, path: (string | number)[]): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return scalarToText(value);
  throw new OscalError('invalid-structure', `expected a single value, not ${value === null ? 'null' : typeof value}`, {
    path: pointer(path),
  });
}
