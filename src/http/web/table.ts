import { html, type Html } from './html.js';

/** Rows (each a `<tr>`) under column headings, with a caption when one helps a reader find the table. */
export function dataTable(
  headings: readonly (string | Html)[],
  rows: readonly Html[],
  options: { caption?: string | Html; className?: string } = {},
): Html {
  return html`<table class="${options.className ?? 'oscal-table'}">
    ${
      options.caption !== undefined &&
      html`<caption>
        ${options.caption}
      </caption>`
    }
    <thead>
      <tr>
        ${headings.map((h) => html`<th scope="col">${h}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows}
    </tbody>
  </table>`;
}
