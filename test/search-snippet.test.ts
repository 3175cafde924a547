/**
 * Both backends make a hit's snippet in the process (search-query.ts snippetOf), reading a text
 * only as far as the snippet needs: about 24 words from four before the first match, every match
 * in them marked, "…" where the text was cut. These hold that reading to the whole text's.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MARK_END, MARK_START, openingOf, parseSearch, snippetOf } from '../src/store/search-query.js';

/** "w0 w1 … w99": each word says where it is. */
const TEXT = Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ');
const run = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `w${from + i}`).join(' ');
const mark = (word: string) => `${MARK_START}${word}${MARK_END}`;
const snippet = (text: string, query: string) => snippetOf(text, parseSearch(query));

test('a snippet is 24 words from four before the first match, cut with "…" on both sides', () => {
  assert.equal(snippet(TEXT, 'w50'), `…${run(46, 49)} ${mark('w50')} ${run(51, 69)}…`);
});

test('every match within the snippet is marked, also after the first, and a phrase the snippet cuts is marked as far as it goes', () => {
  assert.equal(
    snippet(TEXT, 'w50 w60 "w69 w70"'),
    `…${run(46, 49)} ${mark('w50')} ${run(51, 59)} ${mark('w60')} ${run(61, 68)} ${mark('w69')}…`,
  );
  // Matches past the snippet change nothing.
  assert.equal(snippet(TEXT, 'w50 w90'), snippet(TEXT, 'w50'));
});

test('near the end of the text the snippet reaches back, so that it still holds 24 words', () => {
  assert.equal(snippet(TEXT, 'w98'), `…${run(76, 97)} ${mark('w98')} w99`);
  assert.equal(snippet(TEXT, '"w98 w99"'), `…${run(76, 97)} ${mark('w98 w99')}`);
});

test('a prefix marks the first word it begins, and a text without the words has no snippet', () => {
  assert.equal(snippet(TEXT, 'w9*'), `…${run(5, 8)} ${mark('w9')} ${run(10, 28)}…`);
  assert.equal(snippet(TEXT, 'w100'), undefined);
  assert.equal(snippet(TEXT, 'x'), undefined);
  // Words are matched whole: "w1" is inside "w10" but is not it.
  assert.equal(snippet('w10 w11', 'w1'), undefined);
});

test('case and diacritics do not count, in the text or in the query', () => {
  assert.equal(snippet('Ünïcödé CAFÉ naïve', 'cafe'), `Ünïcödé ${mark('CAFÉ')} naïve`);
  assert.equal(snippet('Ünïcödé CAFÉ naïve', 'UNICODE'), `${mark('Ünïcödé')} CAFÉ naïve`);
  assert.equal(snippet('plain cafe text', 'café'), `plain ${mark('cafe')} text`);
});

test('a text\'s opening is its first 24 words, cut with "…" only where there are more', () => {
  assert.equal(openingOf(TEXT), `${run(0, 23)}…`);
  assert.equal(openingOf(run(0, 23)), run(0, 23));
  assert.equal(openingOf('  (a text) '), '  (a text) ');
});
