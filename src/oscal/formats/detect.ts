import type { Format } from './document.js';

/**
 * Guesses the format from the first significant character: `<` is XML, `{` is JSON, anything
 * else is taken as YAML (which the YAML reader then accepts or rejects with a position).
 */
export function detectFormat(text: string): Format {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0xfeff || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    if (c === 0x3c) return 'xml';
    if (c === 0x7b || c === 0x5b) return 'json';
    return 'yaml';
  }
  return 'json';
}
