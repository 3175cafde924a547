/**
 * Listing documents: model, readableBy, title search, sort keys and paging. Run on each backend, a
 * fresh store per test, by harness.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sortValue } from '../../src/http/list-page.js';
import type { DocumentRecord, ListQuery, SortKey, Store, Visibility } from '../../src/store/types.js';
import { audit, fields, listQuery, newDoc, revision } from './data.js';
import { conformance } from './harness.js';

// The listing set: 25 catalogs and 3 profiles, created in this order (one at a time, so `created`
// has no ties). Ids are out of creation order so ties in a sort key are visibly broken by id.
// Six titles are equal once lower-cased, six last-modified values are equal, and both tie groups
// straddle page boundaries at limit 7 in each direction.

const LIST_ID = (n: string) => `5f0c3b1e-0000-4000-8000-0000000000${n}`;
const TIE = '2024-02-01T00:00:00Z';
const LISTING: {
  id: string;
  title: string;
  lastModified: string;
  visibility: Visibility;
  owner: string;
  model?: string;
}[] = [
  /*  0 */ { id: LIST_ID('17'), title: 'Baseline', lastModified: TIE, visibility: 'public', owner: 'alice' },
  /*  1 */ {
    id: LIST_ID('03'),
    title: 'zebra',
    lastModified: '2024-09-30T12:00:00Z',
    visibility: 'public',
    owner: 'bob',
  },
  /*  2 */ {
    id: LIST_ID('22'),
    title: 'BASELINE',
    lastModified: '2024-03-15T09:00:00Z',
    visibility: 'private',
    owner: 'alice',
  },
  /*  3 */ { id: LIST_ID('08'), title: 'Alpha-Beta', lastModified: TIE, visibility: 'public', owner: 'bob' },
  /*  4 */ {
    id: LIST_ID('25'),
    title: 'alpha beta',
    lastModified: '2025-01-01T00:00:00Z',
    visibility: 'private',
    owner: 'bob',
  },
  /* p0 */ {
    id: LIST_ID('0a'),
    title: 'Baseline',
    lastModified: TIE,
    visibility: 'public',
    owner: 'alice',
    model: 'profile',
  },
  /*  5 */ { id: LIST_ID('11'), title: 'baseline', lastModified: TIE, visibility: 'public', owner: 'bob' },
  /*  6 */ {
    id: LIST_ID('01'),
    title: 'Alphabet',
    lastModified: '2024-07-04T16:20:00Z',
    visibility: 'public',
    owner: 'alice',
  },
  /*  7 */ { id: LIST_ID('19'), title: 'Übersicht Katalog', lastModified: TIE, visibility: 'public', owner: 'alice' },
  /*  8 */ {
    id: LIST_ID('06'),
    title: 'BaseLine',
    lastModified: '2023-11-11T11:11:11Z',
    visibility: 'private',
    owner: 'bob',
  },
  /*  9 */ { id: LIST_ID('14'), title: '10 Baseline', lastModified: TIE, visibility: 'public', owner: 'alice' },
  /* 10 */ {
    id: LIST_ID('23'),
    title: '9 Baseline',
    lastModified: '2021-05-05T05:05:05Z',
    visibility: 'public',
    owner: 'bob',
  },
  /* p1 */ {
    id: LIST_ID('1b'),
    title: 'baseline',
    lastModified: TIE,
    visibility: 'private',
    owner: 'alice',
    model: 'profile',
  },
  /* 11 */ { id: LIST_ID('02'), title: 'alpha', lastModified: TIE, visibility: 'private', owner: 'alice' },
  /* 12 */ {
    id: LIST_ID('20'),
    title: 'bASELINE',
    lastModified: '2024-12-31T23:59:59Z',
    visibility: 'public',
    owner: 'alice',
  },
  /* 13 */ {
    id: LIST_ID('09'),
    title: 'CUI Overlay',
    lastModified: '2024-01-31T23:59:59Z',
    visibility: 'public',
    owner: 'bob',
  },
  /* 14 */ {
    id: LIST_ID('16'),
    title: 'FedRAMP High',
    lastModified: '2024-02-01T00:00:01Z',
    visibility: 'public',
    owner: 'alice',
  },
  /* 15 */ {
    id: LIST_ID('04'),
    title: 'baseLINE',
    lastModified: '2020-02-29T00:00:00Z',
    visibility: 'public',
    owner: 'bob',
  },
  /* 16 */ {
    id: LIST_ID('24'),
    title: 'fedramp low',
    lastModified: '2024-04-01T00:00:00Z',
    visibility: 'private',
    owner: 'alice',
  },
  /* 17 */ {
    id: LIST_ID('12'),
    title: 'High Baseline',
    lastModified: '2023-01-01T00:00:00Z',
    visibility: 'public',
    owner: 'bob',
  },
  /* 18 */ {
    id: LIST_ID('07'),
    title: 'Low Baseline',
    lastModified: '2024-05-05T05:05:05Z',
    visibility: 'public',
    owner: 'alice',
  },
  /* 19 */ {
    id: LIST_ID('21'),
    title: 'Mapping Collection',
    lastModified: '2019-10-10T10:10:10Z',
    visibility: 'public',
    owner: 'bob',
  },
  /* 20 */ {
    id: LIST_ID('10'),
    title: 'Moderate Baseline',
    lastModified: '2024-06-06T06:06:06Z',
    visibility: 'private',
    owner: 'bob',
  },
  /* p2 */ {
    id: LIST_ID('2c'),
    title: 'BASELINE',
    lastModified: TIE,
    visibility: 'public',
    owner: 'bob',
    model: 'profile',
  },
  /* 21 */ {
    id: LIST_ID('15'),
    title: 'privacy',
    lastModified: '2023-03-03T03:03:03Z',
    visibility: 'public',
    owner: 'alice',
  },
  /* 22 */ {
    id: LIST_ID('05'),
    title: 'Privacy Overlay',
    lastModified: '2024-08-08T08:08:08Z',
    visibility: 'public',
    owner: 'bob',
  },
  /* 23 */ {
    id: LIST_ID('18'),
    title: 'Tilde~Catalog',
    lastModified: '2023-08-08T08:08:08Z',
    visibility: 'public',
    owner: 'alice',
  },
  /* 24 */ {
    id: LIST_ID('13'),
    title: 'Zulu',
    lastModified: '2022-12-12T12:12:12Z',
    visibility: 'public',
    owner: 'bob',
  },
];
const CATALOGS = LISTING.filter((d) => !d.model);
const rows = (indexes: number[]) => indexes.map((i) => CATALOGS[i]!.id);

/**
 * Ascending orders, as catalog row numbers, worked out by hand. Titles compare lower-cased, code
 * point by code point (' ' < '-' < letters, digits before letters, 'ü' after 'z'); ties by id.
 */
const ASCENDING: Record<SortKey, string[]> = {
  title: rows([9, 10, 11, 4, 3, 6, 15, 8, 5, 0, 12, 2, 13, 14, 16, 17, 18, 19, 20, 21, 22, 23, 1, 24, 7]),
  'last-modified': rows([19, 15, 10, 24, 17, 21, 23, 8, 13, 11, 3, 5, 9, 0, 7, 14, 2, 16, 18, 20, 6, 22, 1, 12, 4]),
  created: rows([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24]),
};

async function createListing(store: Store): Promise<void> {
  for (const d of LISTING) {
    await store.createDocument(
      newDoc(d.id, d.owner, d.visibility, d.model),
      revision(d.id, fields(d.title, { lastModified: d.lastModified })),
      audit('document.create', d.id, d.owner),
    );
    // Distinct creation times, so the `created` order is the order of this loop.
    await sleep(3);
  }
}

/** Every page from the start, each taken after the previous page's last item, as the HTTP layer does. */
async function walk(store: Store, query: Omit<ListQuery, 'after'>): Promise<DocumentRecord[][]> {
  const pages: DocumentRecord[][] = [];
  let after: ListQuery['after'];
  for (;;) {
    const page = await store.listDocuments({ ...query, ...(after ? { after } : {}) });
    assert.ok(page.length <= query.limit, `a page holds at most ${query.limit} documents, got ${page.length}`);
    if (page.length === 0) return pages;
    pages.push(page);
    assert.ok(pages.length <= 30, 'paging does not end');
    const last = page[page.length - 1]!;
    after = { key: sortValue(last, query.sort), id: last.id };
  }
}

conformance('document-listing', ({ withStore }) => {
  test(
    'listDocuments: model filter and readableBy (public, owner, user and group grants)',
    withStore(async (store) => {
      const id = (n: number) => `6f0c0000-0000-4000-8000-00000000000${n}`;
      const docs: [string, string, Visibility, string, string][] = [
        // id, owner, visibility, model, title
        [id(1), 'alice', 'public', 'catalog', 'A public by alice'],
        [id(2), 'alice', 'private', 'catalog', 'B private by alice'],
        [id(3), 'bob', 'private', 'catalog', 'C private by bob, read grant to carol'],
        [id(4), 'bob', 'private', 'catalog', 'D private by bob, write grant to group auditors'],
        [id(5), 'bob', 'private', 'catalog', 'E private by bob, no grants'],
        [id(6), 'bob', 'private', 'catalog', 'F private by bob, grants to dave and to auditors'],
        [id(7), 'alice', 'public', 'profile', 'G public profile by alice'],
        [id(8), 'bob', 'private', 'profile', 'H private profile by bob, read grant to carol'],
      ];
      for (const [docId, owner, visibility, model, title] of docs) {
        await store.createDocument(
          newDoc(docId, owner, visibility, model),
          revision(docId, fields(title)),
          audit('document.create', docId, owner),
        );
      }
      await store.setAccess(
        id(3),
        { grants: [{ principal: 'user:carol', permission: 'read' }] },
        audit('access.change', id(3), 'bob'),
      );
      await store.setAccess(
        id(4),
        { grants: [{ principal: 'group:auditors', permission: 'write' }] },
        audit('access.change', id(4), 'bob'),
      );
      await store.setAccess(
        id(6),
        {
          grants: [
            { principal: 'user:dave', permission: 'read' },
            { principal: 'group:auditors', permission: 'read' },
          ],
        },
        audit('access.change', id(6), 'bob'),
      );
      await store.setAccess(
        id(8),
        { grants: [{ principal: 'user:carol', permission: 'read' }] },
        audit('access.change', id(8), 'bob'),
      );

      const ids = async (readableBy?: ListQuery['readableBy'], model = 'catalog') =>
        (await store.listDocuments(listQuery({ model, ...(readableBy ? { readableBy } : {}) }))).map((d) => d.id);
      assert.deepEqual(await ids(), [id(1), id(2), id(3), id(4), id(5), id(6)], 'admin: every catalog');
      assert.deepEqual(await ids(undefined, 'profile'), [id(7), id(8)], 'admin: every profile');
      assert.deepEqual(await ids(undefined, 'system-security-plan'), []);
      assert.deepEqual(await ids({ principals: [] }), [id(1)], 'anonymous: public only');
      assert.deepEqual(
        await ids({ userId: 'alice', principals: ['user:alice'] }),
        [id(1), id(2)],
        'alice: public and her own',
      );
      assert.deepEqual(await ids({ userId: 'alice', principals: [] }), [id(1), id(2)], 'ownership needs no principal');
      assert.deepEqual(
        await ids({ userId: 'bob', principals: ['user:bob'] }),
        [id(1), id(3), id(4), id(5), id(6)],
        'bob: public and his own',
      );
      assert.deepEqual(
        await ids({ userId: 'carol', principals: ['user:carol'] }),
        [id(1), id(3)],
        'carol: public and her user grant',
      );
      assert.deepEqual(
        await ids({ userId: 'carol', principals: ['user:carol'] }, 'profile'),
        [id(7), id(8)],
        'carol: profiles',
      );
      assert.deepEqual(
        await ids({ userId: 'erin', principals: ['user:erin', 'group:auditors'] }),
        [id(1), id(4), id(6)],
        'erin: group grants',
      );
      // dave holds two grants on F (his own and his group's): it is listed once.
      assert.deepEqual(
        await ids({ userId: 'dave', principals: ['user:dave', 'group:auditors'] }),
        [id(1), id(4), id(6)],
        'dave: once per document',
      );
      assert.deepEqual(
        await ids({ userId: 'frank', principals: ['user:frank', 'group:others'] }),
        [id(1)],
        'frank: public only',
      );
      // A principal is matched whole: the user named 'carol' has no claim to 'group:carol' grants, nor the reverse.
      assert.deepEqual(await ids({ principals: ['group:carol', 'carol'] }), [id(1)]);
      const limited = await store.listDocuments(
        listQuery({ readableBy: { userId: 'dave', principals: ['user:dave', 'group:auditors'] }, limit: 2 }),
      );
      assert.deepEqual(
        limited.map((d) => d.id),
        [id(1), id(4)],
        'limit counts documents, not grants',
      );
    }),
  );

  test(
    'listDocuments q: part of the title, case-insensitive, with % _ and \\ taken literally',
    withStore(async (store) => {
      const titles = [
        '100% Coverage Baseline',
        '100 Percent Baseline',
        'snake_case Profile',
        'snakeXcase Profile',
        'Back\\slash Catalog',
        'Backslash Catalog',
        'MIXED case Title',
        'Übersicht Katalog',
        'O\'Brien\'s "Quoted" Catalog',
      ];
      const id = (i: number) => `7f0c0000-0000-4000-8000-0000000000${String(i).padStart(2, '0')}`;
      for (const [i, title] of titles.entries()) {
        await store.createDocument(
          newDoc(id(i), 'alice', i === 6 ? 'private' : 'public'),
          revision(`q${i}`, fields(title)),
          audit('document.create', id(i)),
        );
      }
      await store.createDocument(
        newDoc(id(20), 'alice', 'public', 'profile'),
        revision('q20', fields('100% Profile')),
        audit('document.create', id(20)),
      );

      const titlesFor = async (q: string, readableBy?: ListQuery['readableBy']) =>
        (await store.listDocuments(listQuery({ q, ...(readableBy ? { readableBy } : {}) }))).map((d) => d.title);
      assert.deepEqual(await titlesFor('100%'), ['100% Coverage Baseline']);
      assert.deepEqual(await titlesFor('%'), ['100% Coverage Baseline']);
      assert.deepEqual(await titlesFor('0% c'), ['100% Coverage Baseline']);
      assert.deepEqual(await titlesFor('_'), ['snake_case Profile']);
      assert.deepEqual(await titlesFor('E_C'), ['snake_case Profile']);
      assert.deepEqual(await titlesFor('\\'), ['Back\\slash Catalog']);
      assert.deepEqual(await titlesFor('k\\s'), ['Back\\slash Catalog']);
      assert.deepEqual(await titlesFor('CASE'), ['MIXED case Title', 'snake_case Profile', 'snakeXcase Profile']);
      assert.deepEqual(await titlesFor('mixed CASE title'), ['MIXED case Title']);
      assert.deepEqual(await titlesFor('baseline'), ['100 Percent Baseline', '100% Coverage Baseline']);
      assert.deepEqual(await titlesFor('ÜBERSICHT'), ['Übersicht Katalog']);
      assert.deepEqual(await titlesFor('o\'brien\'s "quoted"'), ['O\'Brien\'s "Quoted" Catalog']);
      assert.deepEqual(await titlesFor('catalogue'), []);
      assert.deepEqual(
        await titlesFor('case', { principals: [] }),
        ['snake_case Profile', 'snakeXcase Profile'],
        'q narrows what the caller may read, no more',
      );
      assert.deepEqual(await titlesFor('case', { userId: 'alice', principals: ['user:alice'] }), [
        'MIXED case Title',
        'snake_case Profile',
        'snakeXcase Profile',
      ]);
    }),
  );

  test(
    'listDocuments: each sort key ascending and descending, whole and walked in pages of 7',
    withStore(async (store) => {
      await createListing(store);
      for (const sort of ['title', 'last-modified', 'created'] as const) {
        for (const descending of [false, true]) {
          const label = `${descending ? '-' : ''}${sort}`;
          const expected = descending ? [...ASCENDING[sort]].reverse() : ASCENDING[sort];
          assert.deepEqual(
            (await store.listDocuments(listQuery({ sort, descending }))).map((d) => d.id),
            expected,
            `${label}: one page`,
          );
          const pages = await walk(store, listQuery({ sort, descending, limit: 7 }));
          assert.deepEqual(
            pages.map((p) => p.length),
            [7, 7, 7, 4],
            `${label}: page sizes`,
          );
          assert.deepEqual(
            pages.flat().map((d) => d.id),
            expected,
            `${label}: pages in a row`,
          );
          if (sort !== 'created') {
            // The data is laid out so that a tie in the key spans a page boundary; keep it so.
            const split = pages.slice(1).some((p, i) => sortValue(p[0]!, sort) === sortValue(pages[i]!.at(-1)!, sort));
            assert.ok(split, `${label}: a tie in the sort key spans a page boundary`);
          }
        }
      }
      assert.deepEqual(
        (await walk(store, listQuery({ model: 'profile', sort: 'title', limit: 1 }))).flat().map((d) => d.id),
        [LIST_ID('0a'), LIST_ID('1b'), LIST_ID('2c')],
        'profiles alone, ties by id',
      );
    }),
  );

  test(
    'listDocuments: pages of a filtered view (readableBy and q) hold exactly that view',
    withStore(async (store) => {
      await createListing(store);
      await store.setAccess(
        LIST_ID('10'),
        { grants: [{ principal: 'group:auditors', permission: 'read' }] },
        audit('access.change', LIST_ID('10'), 'bob'),
      );
      const readableBy = { userId: 'alice', principals: ['user:alice', 'group:auditors'] };
      // Titles holding "baseline" that alice may read: public, hers (row 2) or granted to her group (row 20); not bob's private row 8.
      const ascending = rows([9, 10, 15, 5, 0, 12, 2, 17, 18, 20]);
      assert.deepEqual(
        (await walk(store, listQuery({ readableBy, q: 'BaseLine', limit: 3 }))).flat().map((d) => d.id),
        ascending,
        'title',
      );
      assert.deepEqual(
        (await walk(store, listQuery({ readableBy, q: 'BaseLine', limit: 3, descending: true })))
          .flat()
          .map((d) => d.id),
        [...ascending].reverse(),
        '-title',
      );
      // Anonymous callers: the public ones alone.
      assert.deepEqual(
        (
          await walk(
            store,
            listQuery({ readableBy: { principals: [] }, q: 'baseline', sort: 'last-modified', limit: 2 }),
          )
        )
          .flat()
          .map((d) => d.id),
        rows([15, 10, 17, 5, 9, 0, 18, 12]),
        'anonymous, last-modified',
      );
    }),
  );
});
