/**
 * The PostgreSQL search writer sends each entry's tsvector as a literal made in JavaScript
 * (search-query.ts tsVectorLiteral): PostgreSQL must read it as exactly what its own to_tsvector
 * ('simple') makes of the same words, heading weighted A then the text unweighted, or phrases, ranks
 * and ids would find other things than the queries expect.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import postgres from 'postgres';
import { RANK_WEIGHTS } from '../src/store/postgres/ranked-window.js';
import { indexedWords, tsVectorLiteral } from '../src/store/search-query.js';
import { SKIP_MESSAGE, TEST_DATABASE_URL } from './support/postgres.js';

const CASES: [heading: string, text: string][] = [
  ['ac-2 Account Management', 'Manage system accounts; account management includes review of accounts.'],
  ['', 'Text with no heading, and a word repeated: the the the'],
  ['SC-13 Cryptographic Protection', ''],
  ['Crème Brûlée', 'Ünïcödé words, ﬁ ligatures, ² superscripts and 日本語 text'],
  // More positions for one lexeme than a tsvector keeps, and words past its last position.
  ['common', Array.from({ length: 400 }, () => 'common').join(' ')],
  [Array.from({ length: 300 }, () => 'both').join(' '), Array.from({ length: 300 }, () => 'both').join(' ')],
  ['long', Array.from({ length: 17_000 }, (_, i) => `w${i % 50}`).join(' ')],
];

describe('the PostgreSQL writer builds tsvectors', { skip: TEST_DATABASE_URL ? false : SKIP_MESSAGE }, () => {
  const sql = postgres(TEST_DATABASE_URL ?? '', { max: 1, onnotice: () => {} });
  after(() => sql.end({ timeout: 5 }));

  test('as to_tsvector makes them from the same words, heading A then the text', async () => {
    for (const [heading, text] of CASES) {
      const h = indexedWords(heading);
      const t = indexedWords(text);
      const [row] = await sql`SELECT ${tsVectorLiteral(h, t, [])}::tsvector::text AS ours,
        (setweight(to_tsvector('simple', ${h.join(' ')}), 'A') || to_tsvector('simple', ${t.join(' ')}))::text AS theirs`;
      assert.equal(row!.ours, row!.theirs, heading);
    }
  });

  test('that rank as the rows written while the text was weighted B did', async () => {
    const h = indexedWords('AC-2 Account Management');
    const t = indexedWords('The organization manages accounts and reviews account management.');
    const [row] = await sql.unsafe(
      `SELECT ts_rank(${RANK_WEIGHTS}, $1::tsvector, q) AS now, ts_rank(${RANK_WEIGHTS}, $3::tsvector || setweight($2::tsvector, 'B'), q) AS before,
        ts_rank($4::tsvector, q) AS unweighted
      FROM (SELECT 'account & management'::tsquery AS q) x`,
      [tsVectorLiteral(h, t, []), tsVectorLiteral([], t, []), tsVectorLiteral(h, [], []), tsVectorLiteral(h, t, [])],
    );
    assert.equal(row!.now, row!.before);
    // ts_rank's own weights would count the text a quarter as much: the weights are what keep the ranks.
    assert.notEqual(row!.now, row!.unweighted);
  });

  test('with scope and id lexemes that carry no position, and a phrase that matches across heading and text', async () => {
    const literal = tsVectorLiteral(indexedWords('ac-2'), indexedWords('two words'), [
      '#vpublic',
      '#i:ac-2',
      '#vpublic',
    ]);
    const [row] = await sql`SELECT ${literal}::tsvector @@ ${"'#vpublic' & '#i:ac-2'"}::tsquery AS scoped,
      ${literal}::tsvector @@ '2 <-> two'::tsquery AS across, ${literal}::tsvector @@ 'two <-> 2'::tsquery AS reversed`;
    assert.deepEqual({ ...row }, { scoped: true, across: true, reversed: false });
  });
});
