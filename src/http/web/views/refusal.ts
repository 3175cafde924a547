// A refused upload as a person can act on it: the message, then each problem that has a line shown
// beside that line of the uploaded text, with a few lines around it, and the others listed.
import type { ErrorDetail } from '../../../errors.js';
import { html, type Html } from '../html.js';

/** Lines shown before and after each offending line. */
const CONTEXT = 2;
/** A minified document is one long line: it is cut, not sent whole. */
const MAX_LINE = 400;

function shown(line: string): string {
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)} …` : line;
}

/** Stretches of the text to show: each offending line with its context, overlapping ones merged. */
function stretches(lines: number[], count: number): [number, number][] {
  const out: [number, number][] = [];
  for (const line of [...new Set(lines)].sort((a, b) => a - b)) {
    const from = Math.max(1, line - CONTEXT);
    const to = Math.min(count, line + CONTEXT);
    const last = out.at(-1);
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

function problemText(e: ErrorDetail): Html {
  return html`${e.message}${e.path ? html` <code class="path">${e.path}</code>` : ''}`;
}

function excerpt(source: string[], from: number, to: number, byLine: Map<number, ErrorDetail[]>): Html {
  const rows: Html[] = [];
  for (let n = from; n <= to; n++) {
    const problems = byLine.get(n) ?? [];
    rows.push(
      html`<tr class="${problems.length ? 'offending' : ''}">
        <th scope="row" class="line-number">${n}</th>
        <td><pre>${shown(source[n - 1] ?? '')}</pre></td>
      </tr>`,
    );
    for (const p of problems) {
      rows.push(
        html`<tr class="problem-row">
          <th scope="row" class="line-number"><span class="visually-hidden">problem on line ${n}</span></th>
          <td class="problem">
            Line ${n}${p.column !== undefined ? html`, column ${p.column}` : ''}: ${problemText(p)}
          </td>
        </tr>`,
      );
    }
  }
  return html`<table class="source-excerpt">
    <tbody>
      ${rows}
    </tbody>
  </table>`;
}

/** The body of the page answering a refused upload; `source` is the uploaded text when it could be decoded. */
export function refusalView(input: { file: string; message: string; errors: ErrorDetail[]; source?: string }): Html {
  const source = input.source?.split(/\r\n|\r|\n/);
  const located = source ? input.errors.filter((e) => e.line !== undefined && e.line <= source.length) : [];
  const unlocated = input.errors.filter((e) => !located.includes(e));
  const byLine = new Map<number, ErrorDetail[]>();
  for (const e of located) byLine.set(e.line!, [...(byLine.get(e.line!) ?? []), e]);
  return html`<section class="refusal" aria-labelledby="refusal-heading">
    <h2 id="refusal-heading">${input.file} was not stored</h2>
    <p class="problem" role="alert">${input.message}</p>
    ${
      unlocated.length > 0 &&
      html`<ul class="problems">
        ${unlocated.map((e) => html`<li>${e.line !== undefined ? html`Line ${e.line}: ` : ''}${problemText(e)}</li>`)}
      </ul>`
    }
    ${source && stretches([...byLine.keys()], source.length).map(([from, to]) => excerpt(source, from, to, byLine))}
  </section>`;
}
