// markdown-it-sub and markdown-it-sup ship without type declarations.
declare module 'markdown-it-sub' {
  import type { MarkdownIt } from 'markdown-it';
  export default function subscriptPlugin(md: MarkdownIt): void;
}

declare module 'markdown-it-sup' {
  import type { MarkdownIt } from 'markdown-it';
  export default function superscriptPlugin(md: MarkdownIt): void;
}
