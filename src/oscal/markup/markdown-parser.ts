// The markdown-it configuration for OSCAL Markdown: CommonMark plus GFM pipe tables,
// ~sub~ and ^sup^, "q", and {{ insert: type, id }}.
import markdownIt, { type MarkdownIt } from 'markdown-it';
import subscript from 'markdown-it-sub';
import superscript from 'markdown-it-sup';
import { insertReference, plainText, quoteDelimiters, quotePairs } from './markdown-inline-rules.js';
import { paragraphKeepingEdgeSpace } from './markdown-paragraph-rule.js';

function createParser(): MarkdownIt {
  const md = markdownIt('default', { html: false, linkify: false, typographer: false });
  md.disable([
    // OSCAL markup has no strike-through, and '~' is subscript.
    'strikethrough',
    // The spec excludes link reference definitions; without them "[x]: y" stays text.
    'reference',
    // Raw HTML is not markup: with these off, "<div>" is literal text.
    'html_block',
    'html_inline',
    'linkify',
    'replacements',
    'smartquotes',
  ]);
  md.use(subscript).use(superscript);
  md.inline.ruler.at('text', plainText);
  md.inline.ruler.after('emphasis', 'oscal_quote', quoteDelimiters);
  md.inline.ruler2.after('emphasis', 'oscal_quote', quotePairs);
  md.inline.ruler.before('link', 'oscal_insert', insertReference);
  md.block.ruler.at('paragraph', paragraphKeepingEdgeSpace);
  // Conversion must not change data: hrefs are kept verbatim (no percent-encoding, no
  // scheme filtering); sanitising is the job of whatever renders the markup as HTML.
  md.validateLink = () => true;
  md.normalizeLink = (url) => url;
  md.normalizeLinkText = (text) => text;
  return md;
}

let parser: MarkdownIt | undefined;

/** The shared parser, built on first use so that modules that never read Markdown do not pay for it. */
export function markdownParser(): MarkdownIt {
  parser ??= createParser();
  return parser;
}
