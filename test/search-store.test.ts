/**
 * The search index in the store: entries written with each revision, replaced with the next,
 * gone with the document; the query language (words, phrases, prefixes, ids in either spelling),
 * the control-id and model filters, who may read what, paging, and queries meant to break the
 * translation. Each case runs on a real SQLite file and on the real PostgreSQL (harness.ts).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { after, describe, test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import postgres from 'postgres';
import type { SearchEntry } from '../src/oscal/search/extract.js';
import { backupStore, restoreStore } from '../src/store/backup.js';
import { openStore, type StoreConfig } from '../src/store/index.js';
import { MERGE_AFTER_ENTRIES } from '../src/store/postgres/pending-entries.js';
import { RANKED_MATCHES, storedEntry } from '../src/store/search-query.js';
import type { SearchHit, SearchQuery, Store, Visibility } from '../src/store/types.js';
import { freshDatabase, SKIP_MESSAGE, TEST_DATABASE_URL } from './support/postgres.js';
import { newDataDir } from './support/server.js';
import { audit, fields, newDoc, revision } from './store/data.js';
import { conformance } from './store/harness.js';

const entry = (path: string, text: string, extra: Partial<SearchEntry> = {}): SearchEntry => ({
  path,
  kind: 'control',
  text,
  controlIds: [],
  ...extra,
});

const ACCOUNTS: SearchEntry[] = [
  entry('/catalog', 'Security and privacy controls', { kind: 'catalog', title: 'Controls Catalog' }),
  entry('/catalog/groups/0/controls/0', 'Manage system accounts. Account management includes review.', {
    key: 'ac-2',
    title: 'Account Management',
    controlIds: ['ac-2'],
  }),
  entry(
    '/catalog/groups/0/controls/0/controls/0',
    'Support the management of system accounts using automated mechanisms; see AC-2(1).',
    { key: 'ac-2.1', title: 'Automated System Account Management', controlIds: ['ac-2.1'] },
  ),
  entry('/catalog/groups/0/controls/1', 'Share information with partners, management decides.', {
    key: 'ac-21',
    title: 'Information Sharing',
    controlIds: ['ac-21'],
  }),
  entry('/catalog/groups/1/controls/0', 'Implement FIPS-validated cryptographic modules.', {
    key: 'sc-13',
    title: 'Cryptographic Protection',
    controlIds: ['sc-13'],
  }),
  entry('/catalog/groups/1/controls/1', 'Cryptography guidance for keys held by the organization.', {
    key: 'sc-12',
    title: 'Key Establishment',
    controlIds: ['sc-12'],
  }),
];

async function create(
  store: Store,
  entries: SearchEntry[] | undefined,
  options: { id?: string; model?: string; owner?: string; visibility?: Visibility; title?: string } = {},
): Promise<string> {
  const id = options.id ?? randomUUID();
  const input = revision(id, fields(options.title ?? 'Doc'));
  if (entries) input.search = entries;
  await store.createDocument(
    newDoc(id, options.owner ?? 'alice', options.visibility ?? 'public', options.model ?? 'catalog'),
    input,
    audit('create', id),
  );
  return id;
}

async function replace(store: Store, id: string, entries: SearchEntry[] | undefined, content = randomUUID()) {
  const input = revision(content, fields('Doc'));
  if (entries) input.search = entries;
  return store.replaceDocument(id, input, audit('replace', id));
}

const search = (store: Store, text: string, extra: Partial<SearchQuery> = {}) =>
  store.searchEntries({ text, limit: 100, ...extra });
const keys = (hits: SearchHit[]) => hits.map((h) => h.key ?? h.path).sort();

/** Every hit of a search, page after page of 250. */
async function allPages(store: Store, text: string, extra: Partial<SearchQuery> = {}): Promise<SearchHit[]> {
  const seen: SearchHit[] = [];
  let after: SearchQuery['after'];
  for (;;) {
    const page = await search(store, text, { ...extra, limit: 250, ...(after ? { after } : {}) });
    if (page.length === 0) return seen;
    seen.push(...page);
    after = { rank: page.at(-1)!.rank, id: page.at(-1)!.id };
  }
}
/** Where a hit's entry is among entries written at /catalog/controls/<position>. */
const position = (h: SearchHit) => Number(h.path.split('/').at(-1));

/**
 * Every page of a search over `count` entries written in order (their paths end in their
 * positions): the newest RANKED_MATCHES of those that `matches`, in any order (ranked), then the
 * rest newest first.
 */
function assertNewestRankedFirst(seen: SearchHit[], count: number, matches: (i: number) => boolean): void {
  const expected = Array.from({ length: count }, (_, i) => i)
    .filter(matches)
    .reverse();
  assert.equal(seen.length, expected.length);
  assert.deepEqual(
    seen
      .slice(0, RANKED_MATCHES)
      .map(position)
      .sort((a, b) => b - a),
    expected.slice(0, RANKED_MATCHES),
  );
  assert.deepEqual(seen.slice(RANKED_MATCHES).map(position), expected.slice(RANKED_MATCHES));
}

conformance('search', ({ withStore }) => {
  test(
    'entries written with a revision are found, located and with a marked snippet',
    withStore(async (store) => {
      const id = await create(store, ACCOUNTS);
      const hits = await search(store, 'partners');
      assert.equal(hits.length, 1);
      const [hit] = hits;
      assert.equal(hit!.documentId, id);
      assert.equal(hit!.model, 'catalog');
      assert.equal(hit!.path, '/catalog/groups/0/controls/1');
      assert.equal(hit!.kind, 'control');
      assert.equal(hit!.key, 'ac-21');
      assert.equal(hit!.title, 'Information Sharing');
      assert.equal(hit!.snippet, 'Share information with \u0002partners\u0003, management decides.');
      assert.equal(typeof hit!.rank, 'number');
      assert.equal(typeof hit!.id, 'number');

      // All words must match, anywhere in the key, the title or the text; case and diacritics do not count.
      assert.deepEqual(keys(await search(store, 'MANAGEMENT accounts')), ['ac-2', 'ac-2.1']);
      assert.deepEqual(keys(await search(store, 'managément')), ['ac-2', 'ac-2.1', 'ac-21']);
      assert.deepEqual(keys(await search(store, 'establishment')), ['sc-12']);
      assert.deepEqual(await search(store, 'partners nowhere'), []);
      // Title matches rank above a text-only match.
      const ranked = (await search(store, 'management')).map((h) => h.key);
      assert.deepEqual([ranked.slice(0, 2).sort(), ranked[2]], [['ac-2', 'ac-2.1'], 'ac-21']);
      // A match only in the title marks the title.
      assert.equal((await search(store, 'establishment'))[0]!.snippet, 'Key \u0002Establishment\u0003');
    }),
  );

  test(
    'a revision without entries leaves the index as it is; a replace swaps old words for new in its transaction',
    withStore(async (store) => {
      const id = await create(store, ACCOUNTS);
      await replace(store, id, undefined);
      assert.deepEqual(keys(await search(store, 'partners')), ['ac-21']);

      const changed = ACCOUNTS.map((e) =>
        e.key === 'ac-21' ? { ...e, text: 'Share information with allies, the board decides.' } : e,
      );
      await replace(store, id, changed);
      assert.deepEqual(await search(store, 'partners'), []);
      assert.deepEqual(keys(await search(store, 'allies')), ['ac-21']);
      // The unchanged entries are still found, once each.
      assert.deepEqual(keys(await search(store, 'cryptographic')), ['sc-13']);

      // A refused replace (stale) changes nothing, the index included.
      await assert.rejects(
        store.replaceDocument(
          id,
          { ...revision('x', fields('Doc')), search: [entry('/x', 'stale')] },
          audit('r', id),
          1,
        ),
        /no longer current/,
      );
      assert.deepEqual(await search(store, 'stale'), []);
      assert.deepEqual(keys(await search(store, 'allies')), ['ac-21']);

      // An empty list empties the document's entries.
      await replace(store, id, []);
      assert.deepEqual(await search(store, 'allies'), []);
      assert.deepEqual(await search(store, 'cryptographic'), []);
    }),
  );

  test(
    'entries repeated in a revision are each kept, and dropped one by one',
    withStore(async (store) => {
      const twice = [entry('/a', 'twin words'), entry('/a', 'twin words')];
      const id = await create(store, twice);
      assert.equal((await search(store, 'twin')).length, 2);
      await replace(store, id, twice.slice(1));
      assert.equal((await search(store, 'twin')).length, 1);
    }),
  );

  test(
    'deleting the document removes its entries',
    withStore(async (store) => {
      const id = await create(store, ACCOUNTS);
      const other = await create(store, [entry('/catalog', 'accounts elsewhere')]);
      await store.deleteDocument(id, audit('delete', id));
      assert.deepEqual(
        (await search(store, 'accounts')).map((h) => h.documentId),
        [other],
      );
      assert.deepEqual(await search(store, 'cryptographic'), []);
    }),
  );

  test(
    'phrases match words in order and together; prefixes match the start of words',
    withStore(async (store) => {
      await create(store, ACCOUNTS);
      assert.deepEqual(keys(await search(store, '"account management"')), ['ac-2', 'ac-2.1']);
      assert.deepEqual(keys(await search(store, '"system accounts"')), ['ac-2', 'ac-2.1']);
      assert.deepEqual(keys(await search(store, '"accounts system"')), []);
      assert.deepEqual(keys(await search(store, '"automated mechanisms"')), ['ac-2.1']);
      // A phrase left open runs to the end of the query.
      assert.deepEqual(keys(await search(store, '"automated mechanisms')), ['ac-2.1']);
      assert.deepEqual(keys(await search(store, 'crypt*')), ['sc-12', 'sc-13']);
      assert.deepEqual(keys(await search(store, 'crypt')), []);
      assert.deepEqual(keys(await search(store, '"fips valid"*')), ['sc-13']);
      const [hit] = await search(store, 'cryptog*');
      assert.match(hit!.snippet, /\u0002[Cc]ryptograph(y|ic)\u0003/);
    }),
  );

  test(
    'ac-2.1 and AC-2(1) are the same id, and neither is ac-21',
    withStore(async (store) => {
      await create(store, ACCOUNTS);
      const dotted = await search(store, 'ac-2.1');
      assert.deepEqual(keys(dotted), ['ac-2.1']);
      assert.deepEqual(await search(store, 'AC-2(1)'), dotted);
      // Apart, the parts are words of their own.
      assert.deepEqual(keys(await search(store, 'ac 2 1')), ['ac-2.1']);
      assert.deepEqual(keys(await search(store, 'ac-21')), ['ac-21']);
      assert.deepEqual(keys(await search(store, 'AC-2')), ['ac-2', 'ac-2.1']);
      // Marked whole, in the key or in the text.
      assert.match(dotted[0]!.snippet, /\u0002(ac-2\.1|AC-2\(1\))\u0003/);
    }),
  );

  test(
    "a snippet marks an id with its closing parenthesis, and a word's parenthesis stays outside",
    withStore(async (store) => {
      await create(store, [
        entry('/catalog/z', 'Enhances AC-2(1) and (AC-2(1)); see (AC-2) and AC-2(1)(a) too.', { key: 'z' }),
      ]);
      const [id] = await search(store, 'ac-2.1');
      assert.equal(
        id!.snippet,
        'Enhances \u0002AC-2(1)\u0003 and (\u0002AC-2(1)\u0003); see (AC-2) and \u0002AC-2(1)\u0003(a) too.',
      );
      const [base] = await search(store, 'AC-2');
      assert.equal(
        base!.snippet,
        'Enhances \u0002AC-2\u0003(1) and (\u0002AC-2\u0003(1)); see (\u0002AC-2\u0003) and \u0002AC-2\u0003(1)(a) too.',
      );
      const [item] = await search(store, '"ac 2 1 a"');
      assert.match(item!.snippet, /\u0002AC-2\(1\)\(a\)\u0003 too\.$/);
    }),
  );

  test(
    'the control-id filter finds the entries about that control, in any spelling, with or without words',
    withStore(async (store) => {
      const catalog = await create(store, ACCOUNTS);
      const ssp = await create(
        store,
        [
          entry('/system-security-plan/control-implementation/implemented-requirements/0', 'We review accounts.', {
            kind: 'implemented-requirement',
            key: 'f0e1d2c3-0000-4000-8000-000000000001',
            controlIds: ['ac-2.1'],
          }),
          entry('/system-security-plan/control-implementation/implemented-requirements/1', 'We share with partners.', {
            kind: 'implemented-requirement',
            key: 'f0e1d2c3-0000-4000-8000-000000000002',
            controlIds: ['ac-21'],
          }),
        ],
        { model: 'system-security-plan' },
      );
      const about = async (controlId: string, text = '', model?: string) =>
        (await search(store, text, { controlId, ...(model ? { model } : {}) }))
          .map((h) => `${h.documentId}${h.path}`)
          .sort();
      const implemented = `${ssp}/system-security-plan/control-implementation/implemented-requirements/0`;
      const both = [`${catalog}/catalog/groups/0/controls/0/controls/0`, implemented].sort();
      assert.deepEqual(await about('ac-2.1'), both);
      assert.deepEqual(await about('AC-2(1)'), both);
      assert.deepEqual(await about('ac-02.01'), both);
      assert.deepEqual(await about('AC-2(1)', '', 'system-security-plan'), [implemented]);
      assert.deepEqual(await about('ac-2.1', 'review'), [implemented]);
      assert.deepEqual(await about('ac-2.1', 'partners'), []);
      assert.deepEqual(await about('ac-2'), [`${catalog}/catalog/groups/0/controls/0`]);
      assert.deepEqual(await about('!!'), []);
      const [hit] = await search(store, '', { controlId: 'ac-21', model: 'system-security-plan' });
      assert.equal(hit!.snippet, 'We share with partners.');
    }),
  );

  test(
    'the model filter',
    withStore(async (store) => {
      const catalog = await create(store, [entry('/catalog', 'baseline words')]);
      const profile = await create(store, [entry('/profile', 'baseline words')], { model: 'profile' });
      assert.deepEqual(
        (await search(store, 'baseline', { model: 'profile' })).map((h) => h.documentId),
        [profile],
      );
      assert.deepEqual(
        (await search(store, 'baseline', { model: 'catalog' })).map((h) => h.documentId),
        [catalog],
      );
      assert.deepEqual((await search(store, 'baseline')).map((h) => h.documentId).sort(), [catalog, profile].sort());
      assert.deepEqual(await search(store, 'baseline', { model: 'component-definition' }), []);
    }),
  );

  test(
    "a private document's words are found by its owner, by a grant, by an admin, and by no one else",
    withStore(async (store) => {
      const secret = await create(store, [entry('/catalog', 'zanzibar secret plans')], {
        owner: 'alice',
        visibility: 'private',
      });
      const open = await create(store, [entry('/catalog', 'zanzibar open plans')], { owner: 'bob' });
      const found = async (readableBy?: SearchQuery['readableBy'], controlId?: string) =>
        (
          await search(store, 'zanzibar', {
            ...(readableBy ? { readableBy } : {}),
            ...(controlId ? { controlId } : {}),
          })
        )
          .map((h) => h.documentId)
          .sort();
      assert.deepEqual(await found({ userId: 'alice', principals: ['alice'] }), [secret, open].sort());
      assert.deepEqual(await found({ userId: 'carol', principals: ['carol', 'group:staff'] }), [open]);
      assert.deepEqual(await found({ principals: [] }), [open]);
      assert.deepEqual(await found(), [secret, open].sort());
      await store.setAccess(
        secret,
        { grants: [{ principal: 'group:staff', permission: 'read' }] },
        audit('grant', secret),
      );
      assert.deepEqual(await found({ userId: 'carol', principals: ['carol', 'group:staff'] }), [secret, open].sort());
      assert.deepEqual(await found({ userId: 'dave', principals: ['dave'] }), [open]);
      assert.deepEqual(await search(store, 'secret', { readableBy: { userId: 'dave', principals: ['dave'] } }), []);
    }),
  );

  test(
    'paging by (rank, id) visits every hit once, best first',
    withStore(async (store) => {
      const entries: SearchEntry[] = [];
      for (let i = 0; i < 23; i++) {
        // Three kinds of match strength, with ties inside each.
        const text = i % 3 === 0 ? 'pager pager pager' : i % 3 === 1 ? 'pager and other words here' : 'pager';
        entries.push(entry(`/catalog/controls/${i}`, text, i % 5 === 0 ? { title: 'pager' } : {}));
      }
      await create(store, entries.slice(0, 12));
      await create(store, entries.slice(12), { visibility: 'private', owner: 'bob' });
      const readableBy = { userId: 'bob', principals: ['bob'] };
      const all = await search(store, 'pager', { readableBy });
      assert.equal(all.length, 23);
      const seen: SearchHit[] = [];
      let after: SearchQuery['after'];
      for (;;) {
        const page = await search(store, 'pager', { readableBy, limit: 5, ...(after ? { after } : {}) });
        assert.ok(page.length <= 5);
        if (page.length === 0) break;
        seen.push(...page);
        const last = page.at(-1)!;
        after = { rank: last.rank, id: last.id };
      }
      assert.deepEqual(seen, all);
      for (let i = 1; i < seen.length; i++) {
        const [a, b] = [seen[i - 1]!, seen[i]!];
        assert.ok(
          a.rank! > b.rank! || (a.rank === b.rank && a.id < b.id),
          `${i}: ${a.rank}/${a.id} before ${b.rank}/${b.id}`,
        );
      }
      assert.ok(seen[0]!.rank! > seen.at(-1)!.rank!, 'ranks differ');
      // Control-id pages (all of rank 0) page by id.
      const ids = await create(
        store,
        Array.from({ length: 7 }, (_, i) => entry(`/c/${i}`, `implements ${i}`, { controlIds: ['si-4'] })),
      );
      const first = await search(store, '', { controlId: 'SI-4', limit: 4 });
      const second = await search(store, '', {
        controlId: 'SI-4',
        limit: 4,
        after: { rank: first.at(-1)!.rank, id: first.at(-1)!.id },
      });
      assert.deepEqual(
        [...first, ...second].map((h) => h.path),
        Array.from({ length: 7 }, (_, i) => `/c/${i}`),
      );
      assert.ok([...first, ...second].every((h) => h.documentId === ids));
    }),
  );

  test(
    'beyond the newest RANKED_MATCHES matches, hits follow the ranked ones newest first, and paging visits each once',
    withStore(async (store) => {
      // Matches everywhere, in every sixth entry, only in the oldest, and in layers: a backend may
      // find the newest matches one way for a common word and another for a rare one (PostgreSQL
      // does: "ancient" through its indexes, the others reading in order; and it goes back in
      // steps: "layered" is dense in the newest 5,000 entries, missing from where that says the
      // rest should be, and in the oldest 300; none of "ancient" and "buried" is among the newest
      // 5,000, and the planner, with no statistics, expects few of either: it fetches all of
      // "ancient" at once, and gives up fetching all of "buried", which has more than ten times
      // RANKED_MATCHES, to go back in steps).
      const count = 8500;
      const matching: Record<string, (i: number) => boolean> = {
        plenty: () => true,
        sixth: (i) => i % 6 === 0,
        ancient: (i) => i < RANKED_MATCHES + 200,
        buried: (i) => i < 11 * RANKED_MATCHES,
        layered: (i) => i < 300 || (i >= 2000 && i % 5 === 0 && i % 50 !== 0),
      };
      const entries = Array.from({ length: count }, (_, i) => {
        const words = Object.keys(matching).filter((w) => matching[w]!(i));
        // Some entries hold their word twice, to rank first.
        return entry(`/catalog/controls/${i}`, `${words.join(' ')} ${i % 4 === 0 ? words.join(' ') : 'filler'} text`);
      });
      // Entries written later have higher ids.
      const id = await create(store, entries, { visibility: 'private', owner: 'erin' });
      await create(store, [entry('/catalog', 'plenty sixth ancient buried layered unseen')], {
        visibility: 'private',
        owner: 'frank',
      });
      const readableBy = { userId: 'erin', principals: ['user:erin'] };
      for (const [word, matches] of Object.entries(matching)) {
        const expected = Array.from({ length: count }, (_, i) => i)
          .filter(matches)
          .reverse();
        const seen = await allPages(store, word, { readableBy });
        assert.equal(seen.length, expected.length, word);
        assert.ok(seen.every((h) => h.documentId === id));
        const ranked = seen.slice(0, RANKED_MATCHES);
        const rest = seen.slice(RANKED_MATCHES);
        assert.ok(ranked.every((h) => h.rank !== null));
        assert.ok(rest.every((h) => h.rank === null));
        // The ranked ones are the newest matches, the word twice first; the rest newest first.
        assert.deepEqual(
          ranked.map(position).sort((a, b) => b - a),
          expected.slice(0, RANKED_MATCHES),
          word,
        );
        const twice = expected.slice(0, RANKED_MATCHES).filter((i) => i % 4 === 0).length;
        assert.ok(
          ranked.slice(0, twice).every((h) => position(h) % 4 === 0),
          word,
        );
        assert.deepEqual(rest.map(position), expected.slice(RANKED_MATCHES), word);
      }
    }),
  );

  test(
    "who may read is the index's own filter: a change of access shows at once, ids are not folded, and no text passes for it",
    withStore(async (store) => {
      const doc = await create(
        store,
        [
          entry('/catalog', 'quokka vpublic #vpublic m636174616c6f67 c6163203220 owner alice', {
            controlIds: ['ac-2'],
          }),
        ],
        { owner: 'alice', visibility: 'private' },
      );
      const found = async (readableBy?: SearchQuery['readableBy'], text = 'quokka', extra: Partial<SearchQuery> = {}) =>
        (await search(store, text, { ...(readableBy ? { readableBy } : {}), ...extra })).length;
      const bob = { userId: 'bob', principals: ['user:bob', 'group:staff'] };
      assert.equal(await found({ userId: 'alice', principals: ['user:alice'] }), 1);
      // Another user whose name differs only in case, or who is named by a group, reads nothing.
      assert.equal(await found({ userId: 'Alice', principals: ['user:Alice'] }), 0);
      assert.equal(await found({ userId: 'bob', principals: ['alice', 'user:alice', 'group:alice'] }), 0);
      // Words that spell scope tokens are words.
      for (const text of ['vpublic', '#vpublic', 'm636174616c6f67', 'c6163203220'])
        assert.equal(await found({ principals: [] }, text), 0, text);
      assert.equal(await found(bob), 0);
      await store.setAccess(doc, { visibility: 'public' }, audit('access', doc));
      assert.equal(await found(bob), 1);
      assert.equal(await found({ principals: [] }, 'quokka', { controlId: 'ac-2', model: 'catalog' }), 1);
      await store.setAccess(doc, { visibility: 'private' }, audit('access', doc));
      assert.equal(await found(bob), 0);
      await store.setAccess(doc, { grants: [{ principal: 'group:staff', permission: 'read' }] }, audit('grant', doc));
      assert.equal(await found(bob), 1);
      assert.equal(await found({ userId: 'carol', principals: ['user:carol', 'group:Staff'] }), 0);
      await store.setAccess(doc, { grants: [] }, audit('grant', doc));
      assert.equal(await found(bob), 0);
      // The owner and admins throughout; the filters still apply.
      assert.equal(await found({ userId: 'alice', principals: ['user:alice'] }), 1);
      assert.equal(await found(undefined, 'quokka', { controlId: 'ac-2' }), 1);
      assert.equal(await found(undefined, 'quokka', { model: 'profile' }), 0);
    }),
  );

  test(
    'documents without entries are listed for indexing until they have some',
    withStore(async (store) => {
      const indexed = await create(store, [entry('/catalog', 'here')]);
      const before = await create(store, undefined);
      const listed = await store.unindexedDocuments('', 10);
      assert.deepEqual(listed, [{ id: before, revision: 1 }]);
      assert.ok(!listed.some((d) => d.id === indexed));
      assert.deepEqual(await store.unindexedDocuments(before, 10), []);
      assert.equal(await store.indexRevision(before, 1, [entry('/catalog', 'now found')]), true);
      assert.deepEqual(await store.unindexedDocuments('', 10), []);
      assert.deepEqual(
        (await search(store, 'found')).map((h) => h.documentId),
        [before],
      );
    }),
  );

  test(
    'hostile query strings never throw, and are read as their words',
    withStore(async (store) => {
      await create(store, [
        ...ACCOUNTS,
        entry('/catalog/x', 'near and or not the words of the query language'),
        entry('/catalog/y', 'a stray \u0002marker\u0003 and a \u0000 NUL in stored text'),
      ]);
      const hostile = [
        '"',
        '""',
        '"""',
        '"unclosed',
        'a"b"c',
        '(',
        ')',
        '((management',
        'management)',
        'NEAR',
        'NEAR(management accounts, 2)',
        'management NEAR accounts',
        'AND',
        'OR',
        'NOT',
        'management AND',
        'OR management',
        'management NOT accounts',
        '*',
        '**',
        '* *',
        'management *',
        '*management',
        ':',
        'text:management',
        '{key}: management',
        'key : management',
        '^management',
        '+management',
        '-management',
        '&',
        '&&',
        '|',
        '!',
        '!management',
        "'",
        "management'",
        "' OR 1=1 --",
        '\\',
        'managem\\ent',
        '<->',
        'a <-> b',
        'management:*',
        'management:A',
        '$$',
        '%',
        '_',
        '\u0000',
        '\u0002',
        '🙂',
        'ﬁ',
        'x'.repeat(10_000),
        'management '.repeat(2_000),
        '"management accounts '.repeat(500),
        'a-b.c(d)'.repeat(1_000),
        Array.from({ length: 300 }, (_, i) => `w${i}`).join(' '),
      ];
      for (const q of hostile) {
        const hits = await search(store, q);
        assert.ok(Array.isArray(hits), q.slice(0, 40));
        await search(store, q, { controlId: q, model: q, readableBy: { userId: q, principals: [q] } });
      }
      // The words of an operator are words.
      assert.deepEqual(keys(await search(store, 'NEAR AND OR NOT')), ['/catalog/x']);
      assert.deepEqual(keys(await search(store, 'management AND')), []);
      assert.deepEqual(keys(await search(store, '((management accounts))')), ['ac-2', 'ac-2.1']);
      assert.deepEqual(keys(await search(store, 'text:management')), []);
      assert.deepEqual(await search(store, '*'), []);
      assert.deepEqual(await search(store, '   '), []);
      // Stored text cannot fake a mark.
      const [stray] = await search(store, 'stray');
      assert.equal(stray!.snippet, 'a \u0002stray\u0003  marker  and a   NUL in stored text');
    }),
  );
});

describe('backup and restore leave the search index to reindex', () => {
  const databases: { drop: () => Promise<void> }[] = [];
  after(async () => {
    for (const d of databases) await d.drop();
  });
  const configs = async (): Promise<[string, () => Promise<StoreConfig>][]> => [
    ['SQLite', async () => ({ dataDir: newDataDir() })],
    ...(TEST_DATABASE_URL
      ? [
          [
            'PostgreSQL',
            async () => {
              const db = await freshDatabase();
              databases.push(db);
              return { dataDir: newDataDir(), databaseUrl: db.url };
            },
          ] as [string, () => Promise<StoreConfig>],
        ]
      : []),
  ];

  test('the backup carries documents, not entries; the restored store finds nothing until reindexed', async (t) => {
    if (!TEST_DATABASE_URL) t.diagnostic(SKIP_MESSAGE);
    for (const [name, config] of await configs()) {
      const source = await config();
      const store = await openStore(source);
      const id = await create(store, ACCOUNTS);
      await store.close();

      const out = new PassThrough();
      const bytes: Buffer[] = [];
      out.on('data', (b: Buffer) => bytes.push(b));
      const counts = await backupStore(source, out);
      assert.equal(counts.documents, 1, name);
      assert.ok(!('search_entries' in counts), name);

      const target = await config();
      await restoreStore(target, Readable.from([Buffer.concat(bytes)]));
      const restored = await openStore(target);
      try {
        assert.equal((await restored.getDocument(id))?.id, id, name);
        assert.deepEqual(await search(restored, 'partners'), [], name);
        // The restored store indexes what it is given from then on.
        await replace(restored, id, ACCOUNTS);
        assert.deepEqual(keys(await search(restored, 'partners')), ['ac-21'], name);
      } finally {
        await restored.close();
      }
    }
  });
});

test('SQLite: the FTS5 index holds exactly the stored entries after each kind of write', async () => {
  // The writer keeps search_fts in step with search_entries itself; FTS5's integrity check (rank 1)
  // compares the index with the rows it was made from, and fails on any entry left or missed.
  const dataDir = newDataDir();
  const store = await openStore({ dataDir });
  const check = () => {
    const db = new Database(join(dataDir, 'oscal-depot.sqlite'));
    try {
      db.exec("INSERT INTO search_fts (search_fts, rank) VALUES ('integrity-check', 1)");
    } finally {
      db.close();
    }
  };
  try {
    const kept = await create(store, ACCOUNTS, { visibility: 'private' });
    const gone = await create(store, ACCOUNTS);
    check();
    await replace(store, kept, [...ACCOUNTS.slice(1, 4), entry('/catalog', 'A new opening', { kind: 'catalog' })]);
    check();
    await store.setAccess(kept, { visibility: 'public' }, audit('access', kept));
    await store.setAccess(kept, { grants: [{ principal: 'group:staff', permission: 'read' }] }, audit('grant', kept));
    check();
    await store.deleteDocument(gone, audit('delete', gone));
    check();
    assert.deepEqual(
      (await search(store, 'accounts')).map((h) => h.documentId),
      [kept, kept],
    );
  } finally {
    await store.close();
  }
});

test('SQLite: an index entry whose row was deleted by hand is left out of the page, not an error', async () => {
  const dataDir = newDataDir();
  const store = await openStore({ dataDir });
  try {
    const id = await create(store, ACCOUNTS);
    const db = new Database(join(dataDir, 'oscal-depot.sqlite'));
    try {
      // Past the writer, which would take the words out of search_fts as well.
      db.prepare("DELETE FROM search_entries WHERE document_id = ? AND key = 'ac-2'").run(id);
    } finally {
      db.close();
    }
    assert.deepEqual(keys(await search(store, 'accounts')), ['ac-2.1']);
  } finally {
    await store.close();
  }
});

/** Merges what is pending in GIN's list, as the store would, and says how many pages that was. */
async function mergePendingEntries(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql`SELECT gin_clean_pending_list('search_entries_words'::regclass) AS pages`;
    return Number(row!.pages);
  } finally {
    await sql.end();
  }
}

test('PostgreSQL: the GIN pending list is merged after every MERGE_AFTER_ENTRIES entries a store writes, and merged entries are found', async (t) => {
  if (!TEST_DATABASE_URL) return t.diagnostic(SKIP_MESSAGE);
  const db = await freshDatabase();
  const config = { dataDir: newDataDir(), databaseUrl: db.url };
  const entries = (n: number, word: string) =>
    Array.from({ length: n }, (_, i) => entry(`/catalog/controls/${i}`, `${word} control ${i}`, { key: `x-${i}` }));
  try {
    const store = await openStore(config);
    let first: string;
    let second: string;
    try {
      first = await create(store, entries(MERGE_AFTER_ENTRIES - 1, 'earlier'));
      // Short of the count, the entries are still pending: this merge finds them.
      assert.ok((await mergePendingEntries(db.url)) > 0);
      second = await create(store, entries(1, 'later'));
    } finally {
      await store.close();
    }
    // The write that made up the count started a merge, which close waited for.
    assert.equal(await mergePendingEntries(db.url), 0);
    const reopened = await openStore(config);
    try {
      assert.equal((await search(reopened, 'earlier')).length, 100);
      assert.deepEqual(
        (await search(reopened, 'later')).map((h) => h.documentId),
        [second],
      );
      assert.ok((await search(reopened, 'earlier')).every((h) => h.documentId === first));
    } finally {
      await reopened.close();
    }
  } finally {
    await db.drop();
  }
});

test('PostgreSQL: a change of access counts the entries it rewrites toward the merge', async (t) => {
  if (!TEST_DATABASE_URL) return t.diagnostic(SKIP_MESSAGE);
  const db = await freshDatabase();
  const config = { dataDir: newDataDir(), databaseUrl: db.url };
  try {
    const store = await openStore(config);
    try {
      const entries = Array.from({ length: MERGE_AFTER_ENTRIES - 1 }, (_, i) =>
        entry(`/catalog/controls/${i}`, `shared control ${i}`),
      );
      const id = await create(store, entries, { visibility: 'private' });
      // Short of the count: nothing merged them, this does.
      assert.ok((await mergePendingEntries(db.url)) > 0);
      // Every row gets the sharing lexemes anew, and its lexemes go to the pending list again.
      await store.setAccess(id, { visibility: 'public' }, audit('access', id));
    } finally {
      await store.close();
    }
    // The rewrite made up the count and started a merge, which close waited for.
    assert.equal(await mergePendingEntries(db.url), 0);
  } finally {
    await db.drop();
  }
});

/** A PostgreSQL store in a database of its own, and a connection to that database beside it. */
function withPostgresStore(body: (store: Store, sql: postgres.Sql) => Promise<void>) {
  return async (t: TestContext) => {
    if (!TEST_DATABASE_URL) return t.diagnostic(SKIP_MESSAGE);
    const db = await freshDatabase();
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      const store = await openStore({ dataDir: newDataDir(), databaseUrl: db.url });
      try {
        await body(store, sql);
      } finally {
        await store.close();
      }
    } finally {
      await sql.end();
      await db.drop();
    }
  };
}

test(
  "PostgreSQL: a write whose statement fails, its search entries' or another's, fails with that statement's error and leaves nothing",
  withPostgresStore(async (store, sql) => {
    await sql`CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION '% refused', TG_TABLE_NAME; END $$`;
    const stored = async () =>
      (await sql`SELECT id, document_id, path, text FROM search_entries ORDER BY id`).map((r) => ({ ...r }));
    const changed = [...ACCOUNTS.slice(1), entry('/catalog/groups/2', 'A remark added')];
    const kept = await create(store, ACCOUNTS);
    const before = await stored();
    const revisions = async () => (await sql`SELECT count(*)::int AS n FROM revisions`)[0]!.n as number;
    const revisionsBefore = await revisions();
    // The entries' DELETE fails early in a replace, their INSERT late, the revision's INSERT while
    // the entries' statements are under way: none may leave a statement to run after the rollback.
    for (const [table, event] of [
      ['search_entries', 'DELETE'],
      ['search_entries', 'INSERT'],
      ['revisions', 'INSERT'],
    ] as const) {
      await sql.unsafe(`CREATE TRIGGER refuse BEFORE ${event} ON ${table} FOR EACH ROW EXECUTE FUNCTION refuse()`);
      const id = randomUUID();
      if (event === 'INSERT') await assert.rejects(create(store, ACCOUNTS, { id }), { message: `${table} refused` });
      await assert.rejects(replace(store, kept, changed), { message: `${table} refused` });
      // What a statement sent after the rollback would have done, outside any transaction, shows once it has run.
      await new Promise((resolve) => setTimeout(resolve, 100));
      await sql.unsafe(`DROP TRIGGER refuse ON ${table}`);
      assert.equal(await store.getDocument(id), undefined);
      assert.equal((await store.getDocument(kept))?.revision, 1);
      assert.equal(await revisions(), revisionsBefore);
      assert.deepEqual(await stored(), before);
    }
    // The store's connections are fit for the next writes.
    const next = await create(store, ACCOUNTS);
    await replace(store, kept, changed);
    assert.deepEqual(keys(await search(store, 'sharing')), ['ac-21', 'ac-21']);
    assert.deepEqual(keys(await search(store, 'remark')), ['/catalog/groups/2']);
    assert.equal((await store.getDocument(next))?.revision, 1);
  }),
);

test(
  'PostgreSQL: deleting a document deletes the rows of its entries, which no foreign key does',
  withPostgresStore(async (store, sql) => {
    const gone = await create(store, ACCOUNTS);
    const kept = await create(store, ACCOUNTS);
    await store.deleteDocument(gone, audit('delete', gone));
    const rows = await sql`SELECT document_id, count(*)::int AS n FROM search_entries GROUP BY document_id`;
    assert.deepEqual(
      rows.map((r) => ({ ...r })),
      [{ document_id: kept, n: ACCOUNTS.length }],
    );
  }),
);

test(
  'PostgreSQL: where the planner expects many more matches than the newest rows hold, the newest are still the ones ranked',
  withPostgresStore(async (store, sql) => {
    // One match among the newest 5,000 entries says few are left; the 3,500 before them all
    // match, more than a fetch of every match takes, and the planner (after ANALYZE) knows it.
    const count = 8500;
    const matches = (i: number) => i < 3500 || i === 8000;
    const entries = Array.from({ length: count }, (_, i) =>
      entry(`/catalog/controls/${i}`, `${matches(i) ? 'remark' : 'filler'} text ${i}`),
    );
    await create(store, entries);
    await sql`ANALYZE search_entries`;
    const [explained] = await sql`EXPLAIN (FORMAT JSON) SELECT id FROM search_entries WHERE words @@ 'remark'::tsquery`;
    const planned = (explained!['QUERY PLAN'] as { Plan: { 'Plan Rows': number } }[])[0]!.Plan['Plan Rows'];
    assert.ok(planned > 10 * RANKED_MATCHES, `the planner expects ${planned}`);
    assertNewestRankedFirst(await allPages(store, 'remark'), count, matches);
  }),
);

test(
  'PostgreSQL: a phrase read through GIN over a long range finds every row holding it there, and no row holding its words apart',
  withPostgresStore(async (store) => {
    // 80 matches among the newest 5,000 entries send the search back through GIN over a range of
    // 27,500 ids (ranked-window.ts), read through the phrase's words and then tested for the
    // phrase; rows with both words the other way round are in the range too.
    const count = 45_000;
    const matches = (i: number) => (i >= 40_000 ? i % 62 === 0 : i % 50 === 0);
    const entries = Array.from({ length: count }, (_, i) =>
      entry(
        `/catalog/controls/${i}`,
        matches(i) ? `least privilege ${i}` : i % 7 === 0 ? `privilege is least ${i}` : `filler ${i}`,
      ),
    );
    await create(store, entries);
    assertNewestRankedFirst(await allPages(store, '"least privilege"'), count, matches);
  }),
);

test(
  'PostgreSQL: entries are stored as written, backslashes, line ends, tabs, quotes, braces and a literal \\N included',
  withPostgresStore(async (store, sql) => {
    const tricky = [
      entry('/catalog', 'Files under C:\\temp\\N and a \\N alone', { kind: 'catalog', title: 'A\ttab' }),
      entry('/catalog/controls/0', 'Line one\nline two\r\nline three\twith "quotes", {braces} and \'apostrophes\'', {
        key: 'ac-2',
        title: 'Back\\slash \\\\ twice',
        controlIds: ['ac-2', 'AC-2(1)'],
      }),
      entry('/catalog/controls/1', '\\', { key: '{"x",y}' }),
    ];
    const rows = () =>
      sql`SELECT id, path, kind, key, title, text, control_ids AS "controlIds" FROM search_entries ORDER BY id`;
    const id = await create(store, tricky);
    const written = await rows();
    assert.deepEqual(
      written.map(({ id: _, ...r }) => r),
      tricky.map(storedEntry),
    );
    assert.deepEqual(keys(await search(store, 'apostrophes')), ['ac-2']);
    assert.deepEqual(keys(await search(store, '"temp n"')), ['/catalog']);
    // Read back equal to what is written again, nothing is rewritten.
    await replace(store, id, tricky);
    assert.deepEqual(await rows(), written);
    // One entry, its text and key empty: an empty value, not none.
    const lone = entry('/catalog', '', { key: '', kind: 'catalog' });
    await replace(store, id, [lone]);
    assert.deepEqual(
      (await rows()).map(({ id: _, ...r }) => r),
      [storedEntry(lone)],
    );
  }),
);
