/**
 * A diff report for people: plain text (a terminal, a CI log) and Markdown (a pull request, a
 * ticket). The summary comes first, then every change in the engine's order. Document content is
 * never trusted to be harmless: control characters are shown escaped in both forms (they could
 * drive a terminal), and in Markdown every character that could open a construct is escaped.
 */
import type { Change, ChangeKind, DiffReport, FieldChange, WordSpan } from './types.js';

/** Ids shown of a summary list before "and N more". */
const LIST_LIMIT = 50;
/** Characters of an old or new value shown before it is cut. */
const VALUE_LIMIT = 200;
/** Unchanged characters kept on each side of a change within a text. */
const CONTEXT = 40;
/** Characters of one added or removed stretch of a text shown before it is cut. */
const SPAN_LIMIT = 300;

const KINDS: readonly ChangeKind[] = ['added', 'removed', 'moved', 'changed'];

/** How each form writes the pieces of a report. */
interface Style {
  /** Content as running text, in the middle of a line. */
  text(s: string): string;
  /** A text's line after the first, as written: what its start must not be taken for. */
  lineStart(line: string): string;
  /** An id, a key or a JSON pointer. */
  code(s: string): string;
  title(s: string): string;
  /** An old or new value of a field, or an added or removed value. */
  value(v: unknown): string;
  removed(s: string): string;
  added(s: string): string;
  /** Between what was removed and what was added in its place. */
  between: string;
  none: string;
  /** Where a text's lines break. */
  breaks: RegExp;
  /** What a line break inside a text becomes; `indent` is the depth of the line it is on. */
  newline(indent: string): string;
}

/**
 * Control characters (but line feeds and tabs) and the bidirectional overrides that reorder what
 * a terminal or an editor shows, as \uXXXX.
 */
function visible(s: string): string {
  return s.replace(
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** At most VALUE_LIMIT characters of a value as JSON (a string as itself), and a note of the length when cut. */
function cut(v: unknown, asJson: boolean): [string, string] {
  const s = typeof v === 'string' && !asJson ? v : JSON.stringify(v);
  const length = typeof v === 'string' ? v.length : s.length;
  return s.length <= VALUE_LIMIT ? [s, ''] : [s.slice(0, VALUE_LIMIT), `… (${length} characters)`];
}

/** A long unchanged stretch of a text keeps only what is next to the changes, cut between words. */
function context(text: string, first: boolean, last: boolean): string {
  const inWord = (at: number) => /\S/.test(text.charAt(at));
  const head = () => {
    const kept = text.slice(0, CONTEXT);
    return (inWord(CONTEXT) && kept.replace(/\S+$/, '')) || kept;
  };
  const tail = () => {
    const kept = text.slice(-CONTEXT);
    return (inWord(text.length - CONTEXT - 1) && kept.replace(/^\S+/, '')) || kept;
  };
  if (first && last) return text;
  if (first) return text.length > CONTEXT ? `…${tail()}` : text;
  if (last) return text.length > CONTEXT ? `${head()}…` : text;
  return text.length > 2 * CONTEXT + 5 ? `${head()} … ${tail()}` : text;
}

function shortSpan(text: string): string {
  const half = SPAN_LIMIT / 2;
  return text.length > SPAN_LIMIT ? `${text.slice(0, half)} … ${text.slice(-half)}` : text;
}

/** An unchanged stretch of a text, or what was removed and added in its place (either may be empty). */
type Segment = { same: string } | { removed: string; added: string };

/**
 * The spans as unchanged stretches and changes. A change that begins or ends inside a word takes
 * the whole word on both sides, as git's word diff shows it (`[-BASELINE-]{+BASELINE,+}`): a
 * reader sees the words as they were and are, and Markdown sees its markers (which it does not
 * take for emphasis between a letter and a punctuation mark).
 */
function segments(words: readonly WordSpan[]): Segment[] {
  const out: Segment[] = [];
  for (const span of words) {
    const last = out.at(-1);
    if (span.op === 'same') out.push({ same: span.text });
    else if (last && 'removed' in last) last[span.op] += span.text;
    else out.push({ removed: '', added: '', [span.op]: span.text });
  }
  // At the edges of the whole text whitespace is no change (the engine compares prose without it).
  const [first, last] = [out[0], out.at(-1)];
  if (first && 'same' in first) first.same = first.same.trimStart();
  if (last && 'same' in last) last.same = last.same.trimEnd();
  out.forEach((segment, i) => {
    if (!('removed' in segment)) return;
    const sides = [segment.removed, segment.added].filter((side) => side !== '');
    const sameAt = (j: number) => {
      const neighbour = out[j];
      return neighbour && 'same' in neighbour ? neighbour : undefined;
    };
    const before = sameAt(i - 1);
    const word = before && /\S+$/.exec(before.same)?.[0];
    if (before && word && sides.some((side) => /^\S/.test(side))) {
      before.same = before.same.slice(0, -word.length);
      segment.removed = word + segment.removed;
      segment.added = word + segment.added;
    }
    const after = sameAt(i + 1);
    const next = after && /^\S+/.exec(after.same)?.[0];
    if (after && next && sides.some((side) => /\S$/.test(side))) {
      after.same = after.same.slice(next.length);
      segment.removed += next;
      segment.added += next;
    }
  });
  return out;
}

/**
 * A text's changes word by word, long unchanged stretches shortened. Whitespace at the edges of a
 * change is written outside its markers, where Markdown needs it to see them.
 */
function wordDiff(words: readonly WordSpan[], style: Style, indent: string): string {
  const newline = style.newline(indent);
  const lines = (s: string) => s.split(style.breaks).map(style.text).join(newline);
  const marked = (text: string, mark: (s: string) => string) => {
    const [, before, core, after] = /^(\s*)([\s\S]*?)(\s*)$/.exec(shortSpan(text))!;
    return core === '' ? '' : lines(before!) + mark(lines(core!)) + lines(after!);
  };
  const all = segments(words);
  return (
    all
      .map((segment, i) => {
        if ('same' in segment) return lines(context(segment.same, i === 0, i === all.length - 1));
        const removed = marked(segment.removed, style.removed);
        // Whitespace alone added still separates words; whitespace alone removed is gone.
        const added = /^\s+$/.test(segment.added) ? lines(segment.added) : marked(segment.added, style.added);
        return removed && added ? `${removed}${style.between}${added}` : removed + added;
      })
      .join('')
      // A line may begin at the edge of a change, so its start is seen to only once all is written.
      .split(newline)
      .map((line, i) => (i === 0 ? line : style.lineStart(line)))
      .join(newline)
  );
}

function fieldLine(field: FieldChange, style: Style, indent: string): string {
  const name = style.text(field.field || 'value');
  // A difference in whitespace alone has no words to mark: the two texts are shown instead.
  if (field.words?.some((span) => span.op !== 'same')) return `${name}: ${wordDiff(field.words, style, indent)}`;
  const side = (v: unknown) => (v === undefined ? style.none : style.value(v));
  return `${name}: ${side(field.old)} → ${side(field.new)}`;
}

/** The object, its key and title, and where it is: `control ac-2 "Account Management" at /catalog/…`. */
function heading(change: Change, style: Style): string {
  const parts = [style.text(change.object)];
  // A key may be an href, and an href may be a whole data: URI.
  if (change.key !== undefined) parts.push(style.code(cut(change.key, false).join('')));
  if (change.title !== undefined) parts.push(style.title(cut(change.title, false).join('')));
  parts.push(`at ${style.code(change.path)}`);
  if (change.from !== undefined) parts.push(`(from ${style.code(change.from)})`);
  return parts.join(' ');
}

/** An entry of a summary list: an id, and what a reader needs beside it. */
interface Entry {
  id: string;
  title?: string;
  detail?: string;
}

/** Each list of the model's summary, by what a reader calls it; empty ones are left out. */
function summaryLists(report: DiffReport): [string, Entry[]][] {
  const { catalog, profile, systemSecurityPlan: ssp } = report.summary;
  const ids = (list: string[]) => list.map((id) => ({ id }));
  const lists: [string, Entry[]][] = [];
  if (catalog)
    lists.push(
      ['controls added', ids(catalog.controlsAdded)],
      ['controls removed', ids(catalog.controlsRemoved)],
      ['controls withdrawn', ids(catalog.controlsWithdrawn)],
      ['parameters changed', ids(catalog.parametersChanged)],
      ['statements changed', ids(catalog.statementsChanged)],
    );
  if (profile)
    lists.push(
      ['controls selected', ids(profile.controlsSelected)],
      ['controls deselected', ids(profile.controlsDeselected)],
      ['parameters changed', ids(profile.parametersChanged)],
    );
  if (ssp) {
    const component = (c: { uuid: string; title?: string }) => ({ id: c.uuid, ...(c.title ? { title: c.title } : {}) });
    lists.push(
      ['requirements added', ids(ssp.requirementsAdded)],
      ['requirements removed', ids(ssp.requirementsRemoved)],
      [
        'implementation status changed',
        ssp.statusChanges.map((s) => ({ id: s.control, detail: `${s.old ?? '(none)'} → ${s.new ?? '(none)'}` })),
      ],
      ['components added', ssp.componentsAdded.map(component)],
      ['components removed', ssp.componentsRemoved.map(component)],
    );
  }
  return lists.filter(([, entries]) => entries.length > 0);
}

function shortList(entries: readonly Entry[], style: Style): string {
  const shown = entries.slice(0, LIST_LIMIT).map((entry) => {
    let shown = style.code(entry.id);
    if (entry.title !== undefined) shown += ` ${style.title(cut(entry.title, false).join(''))}`;
    if (entry.detail !== undefined) shown += `: ${style.text(entry.detail)}`;
    return shown;
  });
  if (entries.length > LIST_LIMIT) shown.push(`and ${entries.length - LIST_LIMIT} more`);
  return shown.join(', ');
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const releases = (report: DiffReport) =>
  report.from.version === report.to.version
    ? `OSCAL ${report.from.version}`
    : `OSCAL ${report.from.version} → ${report.to.version}`;
const counts = (report: DiffReport) => KINDS.map((kind) => `${report.summary.counts[kind]} ${kind}`).join(', ');

const TEXT: Style = {
  text: visible,
  lineStart: (line) => line,
  code: visible,
  title: (s) => visible(JSON.stringify(s)),
  value: (v) => visible(cut(v, true).join('')),
  removed: (s) => `[-${s}-]`,
  added: (s) => `{+${s}+}`,
  between: '',
  none: '(none)',
  breaks: /\r\n|\r|\n/,
  newline: (indent) => `\n${indent}  `,
};

/** `catalog (OSCAL 1.1.2): 3 changes: …`, the summary's lists, then a line or a few per change. */
export function diffAsText(report: DiffReport): string {
  const about = `${visible(report.model)} (${releases(report)})`;
  if (report.equal) return `${about}: no differences\n`;
  const lines = [`${about}: ${plural(report.changes.length, 'change')}: ${counts(report)}`];
  for (const [label, items] of summaryLists(report))
    lines.push(`  ${label} (${items.length}): ${shortList(items, TEXT)}`);
  lines.push('');
  for (const change of report.changes) {
    lines.push(`${change.kind.padEnd(7)} ${heading(change, TEXT)}`);
    if (change.value !== undefined) lines.push(`    value: ${TEXT.value(change.value)}`);
    for (const field of change.fields ?? []) lines.push(`    ${fieldLine(field, TEXT, '    ')}`);
  }
  return lines.join('\n') + '\n';
}

/** Every ASCII character that may open or close something inline in CommonMark or GFM. */
const MARKDOWN_INLINE = /[\\`*_[\]<>~|&$!]/g;

/** Content as Markdown text: nothing in it can open a construct. */
const markdownText = (s: string) => visible(s).replace(MARKDOWN_INLINE, '\\$&');

/**
 * A line of a list item, its content escaped already: without the indentation that would make it
 * code, and without what would make it a heading, a list item or a setext underline.
 */
const markdownLineStart = (line: string) =>
  line
    .trimStart()
    .replace(/^[-+#=]/, '\\$&')
    .replace(/^(\d+)([.)])/, '$1\\$2');

/** A code span whatever the content: a fence longer than any run of backticks in it, on one line. */
function markdownCode(s: string): string {
  const flat = visible(s).replace(/\r\n|\r|\n/g, ' ');
  if (flat.trim() === '') return '*(empty)*';
  const fence = '`'.repeat(Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length)) + 1);
  const pad = /^[` ]|[` ]$/.test(flat) ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

const MARKDOWN: Style = {
  text: markdownText,
  lineStart: markdownLineStart,
  code: markdownCode,
  title: (s) => `“${markdownText(s.replace(/\s+/g, ' ').trim())}”`,
  value: (v) => {
    const [shown, note] = cut(v, false);
    return markdownCode(shown) + (note && ` ${note}`);
  },
  removed: (s) => `~~${s}~~`,
  added: (s) => `**${s}**`,
  between: ' ',
  none: '*(none)*',
  // Paragraph breaks too become one line break: a blank line would end the list item.
  breaks: /\s*[\r\n]\s*/,
  newline: (indent) => `\\\n${indent}  `,
};

/** A Markdown document: a heading, the summary as a list, then each change as a list item. */
export function diffAsMarkdown(report: DiffReport): string {
  const model = markdownText(report.model);
  if (report.equal) return `# Differences between two ${model} documents\n\n${releases(report)}: no differences.\n`;
  const lines = [
    `# Differences between two ${model} documents`,
    '',
    `${releases(report)}: **${plural(report.changes.length, 'change')}**: ${counts(report)}.`,
  ];
  const lists = summaryLists(report);
  if (lists.length) {
    lines.push('', '## Summary', '');
    for (const [label, items] of lists)
      lines.push(`- ${label[0]!.toUpperCase()}${label.slice(1)} (${items.length}): ${shortList(items, MARKDOWN)}`);
  }
  lines.push('', '## Changes', '');
  for (const change of report.changes) {
    lines.push(`- **${change.kind}** ${heading(change, MARKDOWN)}`);
    if (change.value !== undefined) lines.push(`  - value: ${MARKDOWN.value(change.value)}`);
    for (const field of change.fields ?? []) lines.push(`  - ${fieldLine(field, MARKDOWN, '    ')}`);
  }
  return lines.join('\n') + '\n';
}
