// OSCAL markup-line / markup-multiline: conversion between the XML form and Markdown.
export { MarkupError, type MarkupElement, type MarkupNode } from './types.js';
export { BLOCK_ELEMENTS, INLINE_ELEMENTS, knownName } from './content-model.js';
export { markupToMarkdown } from './to-markdown.js';
export { markdownToXml } from './to-xml.js';
