import { SaxesParser, type SaxesStartTagPlain, type SaxesTagPlain } from 'saxes';
import { OscalError, type OscalErrorCode } from '../errors.js';
import { BLOCK_ELEMENTS, knownName, type MarkupElement, type MarkupNode } from '../markup/index.js';
import { MODELS } from '../model/models.js';
import { type AssemblyBinding, type ChildBinding, type OscalModel } from '../model/model.js';
import type { ParsedDocument } from './document.js';
import { groupForJson } from './groups.js';
import { MAX_NESTING, tooDeep } from './nesting.js';
import type { Position } from './positions.js';
import { describeType, scalarFromText } from './scalars.js';
import type { ReadProblems } from './tree-reader.js';
import { appendText, markdownOf, markupAttributes, plainText } from './xml-markup-capture.js';
import { isDeclaration, localName, NamespaceScopes, XMLNS_NS, type Attribute } from './xml-namespaces.js';
import {
  emptyFieldFrame,
  entryFor,
  NO_FLAGS,
  NO_VALUES,
  sameName,
  type AssemblyFrame,
  type FieldFrame,
  type Frame,
  type WrapperFrame,
} from './xml-reader-frames.js';
import { failAt, notWellFormed } from './xml-reader-errors.js';
import { onlySpace, tagStart } from './xml-space.js';

export const OSCAL_NS = 'http://csrc.nist.gov/ns/oscal/1.0';
const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

const NOT_WHITESPACE = /\S/;

/**
 * One streaming read of an OSCAL XML document against its model, into the OSCAL JSON form.
 * saxes reports the tags and text; each open element has a frame on `stack` (see
 * xml-reader-frames.ts), and each element is checked against the model as it opens.
 *
 * The quick pass (`everyText` unset): between the elements of an assembly only whitespace may
 * stand, and saxes would slice out every indentation run to hand it over; so its text handler is
 * unset there and each run is looked at in the document instead, when the next tag comes. A run
 * that is more than whitespace, comments and processing instructions throws, for the caller to
 * read the document again with every text handed over (`everyText` set), which reports it.
 *
 * Errors carry the position of the tag last opened (`tagLine`, `tagColumn`) unless they say
 * otherwise.
 *
 * With `problems` (validation's lenient read), what the model does not allow is recorded there,
 * with the JSON pointer it concerns, and the read goes on: an unknown element is skipped with
 * everything under it, an unknown attribute is skipped, and a value that cannot be typed is kept
 * as its text, so that the schema reports the rest of the document and not that value again.
 * Malformed XML, an undeclared prefix and a root that names no model still stop the read. The
 * caller then passes `positions`, since problems need the pointers recorded with them.
 */
export class XmlElementReader {
  private readonly parser: SaxesParser;
  private readonly namespaces: NamespaceScopes;
  /**
   * The attributes of the element being opened, the first attributeCount of these, collected as
   * saxes reports them: the object it gathers them in is in dictionary mode, slow to enumerate.
   */
  private readonly attributes: Attribute[];
  private attributeCount: number;
  /** Whether the element being opened declares a namespace prefix. */
  private declares: boolean;
  private readonly stack: Frame[];
  private readonly field: FieldFrame;
  private result: ParsedDocument | undefined;
  /** Where the tag last opened starts. */
  private tagLine: number;
  private tagColumn: number;
  /** Whether saxes hands text over now. */
  private textHandled: boolean;
  /** Where the text after the last tag starts. */
  private textFrom: number;
  private readonly onText: (t: string) => void;
  /** How many elements deep the read is inside one it skips (only on a lenient read). */
  private skipping: number;

  constructor(
    private readonly text: string,
    private readonly model: OscalModel,
    private readonly positions: Map<string, Position> | undefined,
    private readonly everyText: boolean,
    private readonly problems: ReadProblems | undefined,
  ) {
    this.parser = new SaxesParser({ xmlns: false, position: true });
    this.namespaces = new NamespaceScopes([OSCAL_NS, XSI_NS]);
    this.attributes = [];
    this.attributeCount = 0;
    this.declares = false;
    this.stack = [];
    this.field = emptyFieldFrame();
    this.result = undefined;
    this.tagLine = 1;
    this.tagColumn = 1;
    this.textHandled = true;
    this.textFrom = 0;
    this.onText = (t) => this.takeText(t);
    this.skipping = 0;
    this.listen();
  }

  /**
   * Reads the whole document. No 'error' or 'doctype' handler is set: saxes throws on errors by
   * itself, and each extra handler property measurably slows its character loop (a 5x slowdown
   * was seen with all of them set). The document goes in as one chunk, so saxes' position is an
   * index into `text`.
   */
  read(): ParsedDocument {
    try {
      this.parser.write(this.text).close();
    } catch (e) {
      if (e instanceof OscalError) throw e;
      throw notWellFormed(this.parser, e);
    }
    if (!this.result) throw new OscalError('malformed', 'no root element found');
    return this.result;
  }

  // --- Tags as saxes reports them ---------------------------------------------------------------

  private listen(): void {
    const parser = this.parser;
    parser.on('opentagstart', (tag) => this.startTag(tag));
    parser.on('attribute', (attribute) => this.addAttribute(attribute));
    parser.on('opentag', (tag) => this.endOpenTag(tag));
    parser.on('text', this.onText);
    parser.on('cdata', this.onText);
    this.followText();
    parser.on('closetag', (tag) => this.closeTag(tag));
  }

  /** Fired just past the name (and the character after it): steps back to the '<'. */
  private startTag(tag: SaxesStartTagPlain): void {
    this.checkSkippedText();
    this.tagLine = this.parser.line;
    this.tagColumn = this.parser.column - tag.name.length - 1;
    this.attributeCount = 0;
    this.declares = false;
  }

  private addAttribute(attribute: Attribute): void {
    this.attributes[this.attributeCount++] = attribute;
    if (isDeclaration(attribute.name)) this.declares = true;
  }

  private endOpenTag(tag: SaxesTagPlain): void {
    this.openElement(tag);
    this.followText();
    this.textFrom = this.parser.position;
  }

  private closeTag(tag: SaxesTagPlain): void {
    if (!tag.isSelfClosing) this.checkSkippedText();
    this.closeElement();
    this.followText();
    this.textFrom = this.parser.position;
  }

  // --- The quick pass: text between elements looked at in the document -------------------------

  /** Has saxes hand text over where the open element takes any, or always when `everyText` is set. */
  private followText(): void {
    const top = this.stack[this.stack.length - 1];
    const wanted = this.everyText || (top !== undefined && (!('kind' in top) || top.kind === 'field'));
    if (wanted === this.textHandled) return;
    this.textHandled = wanted;
    if (wanted) this.parser.on('text', this.onText);
    else this.parser.off('text');
  }

  /** The text before the tag just read, when it was not handed over, must be only whitespace, comments and PIs. */
  private checkSkippedText(): void {
    if (
      !this.textHandled &&
      this.stack.length > 0 &&
      this.skipping === 0 &&
      !onlySpace(this.text, this.textFrom, tagStart(this.text, this.parser.position - 1))
    ) {
      throw new Error('text between elements');
    }
  }

  // --- Opening an element against the model -----------------------------------------------------

  private openElement(tag: SaxesTagPlain): void {
    const stack = this.stack;
    const depth = stack.length + this.skipping;
    if (depth >= MAX_NESTING) throw tooDeep({ line: this.tagLine, column: this.tagColumn });
    const top = stack[stack.length - 1];
    if (this.declares) this.namespaces.open(this.attributes.slice(0, this.attributeCount), depth + 1);
    const uri = this.namespaces.elementUri(tag.name);
    if (uri === undefined) this.fail('malformed', `the prefix of <${tag.name}> is not declared`);
    if (this.skipping) {
      this.skipping++;
      return;
    }
    const local = localName(tag.name);
    if (top === undefined) this.openRoot(tag, uri, local);
    else if (!('kind' in top)) this.openMarkup(tag, uri, local, top.children);
    else if (top.kind === 'assembly') this.openInAssembly(top, tag, uri, local);
    else if (top.kind === 'field') this.openInField(top, tag, uri, local);
    else this.openInWrapper(top, tag, uri, local);
  }

  private openRoot(tag: SaxesTagPlain, uri: string, local: string): void {
    const model = this.model;
    if (this.result) this.fail('malformed', 'only one root element is allowed');
    if (uri !== OSCAL_NS)
      this.fail('unknown-root', `root element <${tag.name}> is not in the OSCAL namespace ${OSCAL_NS}`);
    const def = model.rootDef(local);
    if (def === undefined) {
      if ((MODELS as readonly string[]).includes(local))
        this.fail(
          'model-not-in-version',
          `<${local}> is not a model of OSCAL ${model.version}; it has: ${Object.keys(model.roots).join(', ')}`,
        );
      this.fail('unknown-root', `<${local}> is not an OSCAL model; expected one of: ${MODELS.join(', ')}`);
    }
    const frame: AssemblyFrame = {
      kind: 'assembly',
      def,
      name: local,
      obj: {},
      next: 0,
      values: [],
      pointer: `/${local}`,
    };
    this.positions
      ?.set('', { line: this.tagLine, column: this.tagColumn })
      .set(frame.pointer!, { line: this.tagLine, column: this.tagColumn });
    this.readFlags(def, frame.obj, local, frame.pointer);
    this.stack.push(frame);
  }

  /** A child element of an assembly: one of its children (or their wrapper), or a prose block where it takes them. */
  private openInAssembly(top: AssemblyFrame, tag: SaxesTagPlain, uri: string, local: string): void {
    const index = this.model.index(top.def);
    const entry = uri === OSCAL_NS ? entryFor(top, index.xml, local) : undefined;
    if (entry) {
      if (entry.isWrapper)
        this.stack.push({ kind: 'wrapper', child: entry.child, position: entry.position, parent: top });
      else this.openChild(top, entry.child, entry.position);
      return;
    }
    if (index.unwrapped && uri === OSCAL_NS && BLOCK_ELEMENTS.has(local)) {
      if (this.positions && !top.unwrapped)
        this.positions.set(`${top.pointer}/${index.unwrapped.json}`, { line: this.tagLine, column: this.tagColumn });
      this.openMarkup(tag, uri, local, (top.unwrapped ??= []));
      return;
    }
    this.skipElement(
      'unknown-element',
      () => {
        const allowed = index.xml.map((e) => e.name);
        return (
          `element <${tag.name}> is not allowed in <${top.name}>` +
          (allowed.length ? `; allowed: ${allowed.join(', ')}` : '') +
          (index.unwrapped ? ', and prose blocks' : '')
        );
      },
      `${top.pointer}/${local}`,
    );
  }

  /** An element inside a field: the start of its markup, when it takes markup. */
  private openInField(top: FieldFrame, tag: SaxesTagPlain, uri: string, local: string): void {
    if (!top.isMarkup)
      this.skipElement(
        'unknown-element',
        `<${top.child.name}> holds only text; element <${tag.name}> is not allowed in it`,
        `${top.pointer}/${local}`,
      );
    else this.openMarkup(tag, uri, local, top.markup);
  }

  /** An item of a wrapped group, which stands in the assembly the wrapper is in. */
  private openInWrapper(top: WrapperFrame, tag: SaxesTagPlain, uri: string, local: string): void {
    if (uri !== OSCAL_NS || !sameName(local, top.child.name))
      this.skipElement(
        'unknown-element',
        `<${top.child.wrapper}> may contain only <${top.child.name}> elements, not <${tag.name}>`,
        `${top.parent.pointer}/${local}`,
      );
    else this.openChild(top.parent, top.child, top.position);
  }

  private openChild(parent: AssemblyFrame, child: ChildBinding, position: number): void {
    // Strict, a second one fails where its value is added; lenient, it is skipped before its
    // position is recorded over the first one's. It has no place in the JSON form, so no pointer.
    if (this.problems && !child.group && parent.values[position] !== undefined)
      return this.skipElement('invalid-structure', `<${child.name}> may appear only once in <${parent.name}>`);
    const target = this.model.defs[child.def]!;
    const pointer = this.positions ? this.recordStart(parent, child, position) : undefined;
    if (target.kind === 'assembly') {
      const frame: AssemblyFrame = {
        kind: 'assembly',
        def: child.def,
        name: child.name,
        obj: {},
        next: 0,
        values: NO_VALUES,
        pointer,
      };
      this.readFlags(child.def, frame.obj, child.name, pointer);
      this.addValue(parent, child, position, frame.obj);
      this.stack.push(frame);
      return;
    }
    const field = this.field;
    field.child = child;
    field.position = position;
    field.parent = parent;
    field.def = target;
    // Most fields have no flags; they share one frozen object (any attribute on them is an error).
    field.flags = target.flags.length ? {} : NO_FLAGS;
    field.text = '';
    field.isMarkup = target.type === 'markup-line' || target.type === 'markup-multiline';
    field.markup.length = 0;
    field.pointer = pointer;
    this.readFlags(child.def, field.flags, child.name, pointer);
    this.stack.push(field);
  }

  // --- Attributes: the flags of an assembly or field ---------------------------------------------

  /**
   * Sets each flag the element's attributes give on `target`; any other attribute is an error.
   * `pointer` is the element's value's, known when positions are recorded.
   */
  private readFlags(def: number, target: Record<string, unknown>, element: string, pointer: string | undefined): void {
    const flags = this.model.index(def).flags;
    for (let i = 0; i < this.attributeCount; i++) {
      const { name, value: raw } = this.attributes[i]!;
      const uri = this.namespaces.attributeUri(name);
      if (uri === XMLNS_NS || uri === XSI_NS) continue;
      const flag = uri === '' ? flags.get(name) : undefined;
      if (!flag) {
        this.problem(
          'unknown-element',
          () => {
            const allowed = [...flags.keys()];
            return (
              `attribute ${name} is not allowed on <${element}>` +
              (allowed.length ? `; allowed: ${allowed.join(', ')}` : '; it takes no attributes')
            );
          },
          `${pointer}/${name}`,
        );
      } else {
        const value = scalarFromText(raw, flag.type);
        if (value === undefined)
          this.problem(
            'invalid-value',
            `attribute ${name} of <${element}> must be ${describeType(flag.type)}, not ${JSON.stringify(raw)}`,
            `${pointer}/${flag.name}`,
          );
        target[flag.name] = value ?? raw;
      }
    }
  }

  // --- Text ---------------------------------------------------------------------------------------

  /** Text (or CDATA) handed over by saxes: a field's value, markup content, or else only whitespace. */
  private takeText(t: string): void {
    const top = this.stack[this.stack.length - 1];
    if (top === undefined || this.skipping) return;
    if (!('kind' in top)) {
      appendText(top.children, t);
      return;
    }
    switch (top.kind) {
      case 'field':
        if (top.isMarkup) appendText(top.markup, t);
        else top.text += t;
        return;
      default:
        // Text has no place in the JSON form, so its problem has a position and no pointer.
        if (NOT_WHITESPACE.test(t)) {
          const where = top.kind === 'assembly' ? top.name : top.child.wrapper;
          this.problem(
            'unknown-element',
            `text ${JSON.stringify(t.trim().slice(0, 40))} is not allowed directly in <${where}>`,
            undefined,
            this.parser.line,
            this.parser.column,
          );
        }
    }
  }

  // --- Markup capture -----------------------------------------------------------------------------

  /** Opens an element of markup content, added to `into` and open until its end tag. */
  private openMarkup(tag: SaxesTagPlain, uri: string | undefined, local: string, into: MarkupNode[]): void {
    if (uri !== OSCAL_NS)
      return this.skipElement(
        'invalid-markup',
        `element <${tag.name}> is not in the OSCAL namespace ${OSCAL_NS}`,
        this.markupPointer(),
      );
    const attrs = markupAttributes(this.attributes, this.attributeCount, this.namespaces);
    const element: MarkupElement = {
      name: knownName(local),
      attrs,
      children: [],
      line: this.tagLine,
      column: this.tagColumn,
    };
    into.push(element);
    this.stack.push(element);
  }

  /** Lenient, markup that cannot be converted is recorded under `pointer` and kept as its plain text. */
  private markdown(nodes: MarkupNode[], multiline: boolean, pointer: string | undefined): string {
    if (!this.problems) return markdownOf(nodes, multiline, this.tagLine, this.tagColumn);
    try {
      return markdownOf(nodes, multiline, this.tagLine, this.tagColumn);
    } catch (e) {
      if (!(e instanceof OscalError)) throw e;
      this.problem(e.code, e.message, pointer, e.line, e.column);
      return plainText(nodes);
    }
  }

  /** The pointer of the value whose markup is being read: a markup field's, or an assembly's prose. */
  private markupPointer(): string | undefined {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const frame = this.stack[i]!;
      if (!('kind' in frame)) continue;
      if (frame.kind === 'field') return frame.pointer;
      if (frame.kind === 'assembly') return `${frame.pointer}/${this.model.index(frame.def).unwrapped?.json}`;
    }
    return undefined;
  }

  // --- Closing an element: its value into its parent ----------------------------------------------

  private closeElement(): void {
    if (this.skipping) {
      this.namespaces.close(this.stack.length + this.skipping--);
      return;
    }
    this.namespaces.close(this.stack.length);
    const frame = this.stack.pop()!;
    if (!('kind' in frame)) return;
    switch (frame.kind) {
      case 'wrapper':
        return;
      case 'field': {
        const value = this.fieldValue(frame);
        if (value !== undefined) this.addValue(frame.parent, frame.child, frame.position, value);
        return;
      }
      case 'assembly':
        this.finishAssembly(frame);
        if (this.stack.length === 0)
          this.result = { model: frame.name, version: this.model.version, content: { [frame.name]: frame.obj } };
    }
  }

  /** Keeps a child's value (an item of it, when it repeats) until its assembly closes. */
  private addValue(parent: AssemblyFrame, child: ChildBinding, position: number, value: unknown): void {
    if (parent.values === NO_VALUES)
      parent.values = new Array((this.model.defs[parent.def] as AssemblyBinding).children.length);
    if (child.group) {
      const list = parent.values[position] as unknown[] | undefined;
      if (list) list.push(value);
      else parent.values[position] = [value];
    } else {
      if (parent.values[position] !== undefined)
        this.fail('invalid-structure', `<${child.name}> may appear only once in <${parent.name}>`);
      parent.values[position] = value;
    }
  }

  /**
   * A field's value in the JSON form: its scalar or Markdown, or an object with its flags.
   * Undefined when a lenient read leaves it out (it has no key to go under).
   */
  private fieldValue(frame: FieldFrame): unknown {
    const def = frame.def;
    let value: unknown;
    if (frame.isMarkup) {
      value = this.markdown(frame.markup, def.type === 'markup-multiline', frame.pointer);
    } else {
      value = scalarFromText(frame.text, def.type);
      if (value === undefined) {
        this.problem(
          'invalid-value',
          `<${frame.child.name}> must be ${describeType(def.type)}, not ${JSON.stringify(frame.text)}`,
          frame.pointer,
        );
        value = frame.text;
      }
    }
    if (def.flags.length === 0) return value;
    if (def.valueKeyFlag) {
      const { [def.valueKeyFlag]: key, ...rest } = frame.flags;
      if (typeof key !== 'string') {
        this.problem(
          'invalid-structure',
          `<${frame.child.name}> needs its ${def.valueKeyFlag} attribute`,
          frame.pointer,
        );
        return undefined;
      }
      return { [key]: value, ...rest };
    }
    frame.flags[def.valueKey] = value;
    return frame.flags;
  }

  /** Sets an assembly's children on its object, in the definition's order, in their JSON form. */
  private finishAssembly(frame: AssemblyFrame): void {
    const model = this.model;
    const positions = this.positions;
    const def = model.defs[frame.def]!;
    if (def.kind !== 'assembly') return;
    const index = model.index(frame.def);
    const children = def.children;
    for (let position = 0; position < children.length; position++) {
      const child = children[position]!;
      if (child === index.unwrapped) {
        if (frame.unwrapped)
          frame.obj[child.json] = this.markdown(frame.unwrapped, true, `${frame.pointer}/${child.json}`);
        continue;
      }
      const value = frame.values[position];
      if (value === undefined) continue;
      frame.obj[child.json] = child.group ? groupForJson(value as unknown[], child, model) : value;
      if (positions && child.group === 'SINGLETON_OR_ARRAY' && (value as unknown[]).length === 1) {
        // JSON holds a lone item without the array, so its pointer has no index.
        const base = `${frame.pointer}/${child.json}`;
        positions.set(base, positions.get(`${base}/0`)!);
      }
    }
  }

  // --- Positions and errors -----------------------------------------------------------------------

  /** Records where the value of a child starts, under the pointer it will have in the JSON form. */
  private recordStart(parent: AssemblyFrame, child: ChildBinding, position: number): string {
    const base = `${parent.pointer}/${child.json}`;
    const pointer = child.group ? `${base}/${(parent.values[position] as unknown[] | undefined)?.length ?? 0}` : base;
    this.positions!.set(pointer, { line: this.tagLine, column: this.tagColumn });
    return pointer;
  }

  /** Fails at the tag last opened, or where told. */
  private fail(code: OscalErrorCode, message: string, line = this.tagLine, column = this.tagColumn): never {
    return failAt(code, message, line, column);
  }

  /**
   * Fails as `fail` does, or on a lenient read records the problem under `path` (the message is
   * made only if it is kept) and returns for the read to go on past it.
   */
  private problem(
    code: OscalErrorCode,
    message: string | (() => string),
    path: string | undefined,
    line = this.tagLine,
    column = this.tagColumn,
  ): void {
    const problems = this.problems;
    const text = () => (typeof message === 'string' ? message : message());
    if (!problems) failAt(code, text(), line, column);
    if (problems.found.length >= problems.limit) return;
    problems.found.push(new OscalError(code, text(), path === undefined ? { line, column } : { path, line, column }));
  }

  /** A problem with the element just opened, which a lenient read then skips with all it holds. */
  private skipElement(code: OscalErrorCode, message: string | (() => string), path?: string): void {
    this.problem(code, message, path);
    this.skipping = 1;
  }
}
