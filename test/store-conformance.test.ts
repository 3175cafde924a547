/**
 * Store conformance: one suite, run unchanged against every Store backend, so the service behaves
 * the same whichever database holds its documents. Every expected value is written out by hand
 * from the interface's contract (src/store/types.ts), never read back from a backend.
 *
 * Each test opens a fresh, empty store: counts, the job queue, tokens and the audit log are
 * store-wide, and a test must not see another's rows.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sortValue } from '../src/http/list-page.js';
import type { Format } from '../src/oscal/formats/index.js';
import { blobOf } from '../src/service/blobs.js';
import { openStore } from '../src/store/index.js';
import {
  StoreConflictError,
  type AuditEntry, type BlobInput, type DocumentFields, type DocumentRecord, type ListQuery, type RevisionInput, type RevisionRecord, type SortKey, type Store, type StoredFinding, type Visibility,
} from '../src/store/types.js';
import { SKIP_MESSAGE, TEST_DATABASE_URL } from './support/postgres.js';
import { ScratchDatabases } from './support/store-postgres.js';

// ---------------------------------------------------------------------------------------------
// Data

const canonicalText = (content: string) => `${JSON.stringify({ catalog: { uuid: content, metadata: { title: content } } }, null, 2)}\n`;
const originalText = (content: string) => `<catalog xmlns="http://csrc.nist.gov/ns/oscal/1.0" uuid="${content}"><metadata><title>${content}</title></metadata></catalog>`;
const renditionText = (content: string, format: Format) => format === 'json' ? canonicalText(content)
  : format === 'xml' ? `<?xml version="1.0" encoding="UTF-8"?>\n${originalText(content)}\n` : `catalog:\n  uuid: ${content}\n  metadata:\n    title: ${content}\n`;

function fields(title: string, extra: Partial<DocumentFields> = {}): DocumentFields {
  return { title, version: '1.0', oscalVersion: '1.1.2', lastModified: '2024-05-01T12:00:00Z', documentIds: [], markings: [], ...extra };
}

/**
 * A revision whose bytes all derive from `content`: two revisions share a blob exactly when they
 * share content (or are handed the same `original`). The JSON rendition is the canonical blob
 * itself, as the service stores it.
 */
function revision(content: string, docFields: DocumentFields, options: { renditions?: Format[]; pending?: Format[]; author?: string; original?: string; originalFormat?: Format } = {}): RevisionInput {
  const canonical = blobOf(Buffer.from(canonicalText(content)), true);
  return {
    canonical,
    original: blobOf(Buffer.from(options.original ?? originalText(content))),
    originalFormat: options.originalFormat ?? 'xml',
    author: options.author ?? 'alice',
    fields: docFields,
    renditions: (options.renditions ?? ['json']).map((format) => ({ format, blob: format === 'json' ? canonical : blobOf(Buffer.from(renditionText(content, format)), true) })),
    pendingFormats: options.pending ?? [],
  };
}

const hashOf = (text: string) => blobOf(Buffer.from(text)).hash;
const sizeOf = (text: string) => Buffer.byteLength(text);

function newDoc(id: string, owner = 'alice', visibility: Visibility = 'private', model = 'catalog') {
  return { id, model, owner, visibility };
}

const audit = (action: string, documentId: string, actor = 'alice', detail: Record<string, unknown> = { model: 'catalog' }): AuditEntry => ({ actor, action, documentId, detail });

function listQuery(query: Partial<ListQuery> = {}): ListQuery {
  return { model: 'catalog', sort: 'title', descending: false, limit: 100, ...query };
}

// ---------------------------------------------------------------------------------------------
// Checks

async function blobText(store: Store, hash: string): Promise<string | undefined> {
  const gzip = await store.getBlob(hash);
  return gzip && gunzipSync(gzip).toString('utf8');
}

async function rejectsWith(operation: Promise<unknown>, reason: StoreConflictError['reason']): Promise<void> {
  await assert.rejects(operation, (e: unknown) => {
    assert.ok(e instanceof StoreConflictError, `expected a StoreConflictError (${reason}), got ${e instanceof Error ? e.stack : String(e)}`);
    assert.equal(e.reason, reason);
    return true;
  });
}

/** A timestamp the store set: an ISO 8601 string from within [from, to] (give or take a second of clock skew). */
function assertStamp(value: unknown, from: number, to: number, what: string): void {
  assert.equal(typeof value, 'string', `${what} is a string, got ${typeof value} ${String(value)}`);
  const at = Date.parse(value as string);
  assert.ok(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(value as string) && at >= from - 1000 && at <= to + 1000,
    `${what} ${String(value)} is an ISO timestamp between ${new Date(from).toISOString()} and ${new Date(to).toISOString()}`);
}

/** Optional fields are absent when unset; an explicit undefined is the same to callers, a null is not. */
function present<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as T;
}

/** The record without the timestamps the store chooses. */
function withoutStamps(doc: DocumentRecord | undefined): Omit<DocumentRecord, 'createdAt' | 'updatedAt'> | undefined {
  if (!doc) return undefined;
  const { createdAt: _c, updatedAt: _u, ...rest } = present(doc);
  return rest;
}

/** A revision without what the store chooses: its record id and time. */
function withoutIdOrStamp({ recordId: _r, createdAt: _c, ...rest }: RevisionRecord) {
  return rest;
}

const byPrincipal = <T extends { principal: string }>(grants: T[]) => [...grants].sort((a, b) => (a.principal < b.principal ? -1 : a.principal > b.principal ? 1 : 0));

// ---------------------------------------------------------------------------------------------
// The listing set: 25 catalogs and 3 profiles, created in this order (one at a time, so `created`
// has no ties). Ids are out of creation order so ties in a sort key are visibly broken by id.
// Six titles are equal once lower-cased, six last-modified values are equal, and both tie groups
// straddle page boundaries at limit 7 in each direction.

const LIST_ID = (n: string) => `5f0c3b1e-0000-4000-8000-0000000000${n}`;
const TIE = '2024-02-01T00:00:00Z';
const LISTING: { id: string; title: string; lastModified: string; visibility: Visibility; owner: string; model?: string }[] = [
  /*  0 */ { id: LIST_ID('17'), title: 'Baseline', lastModified: TIE, visibility: 'public', owner: 'alice' },
  /*  1 */ { id: LIST_ID('03'), title: 'zebra', lastModified: '2024-09-30T12:00:00Z', visibility: 'public', owner: 'bob' },
  /*  2 */ { id: LIST_ID('22'), title: 'BASELINE', lastModified: '2024-03-15T09:00:00Z', visibility: 'private', owner: 'alice' },
  /*  3 */ { id: LIST_ID('08'), title: 'Alpha-Beta', lastModified: TIE, visibility: 'public', owner: 'bob' },
  /*  4 */ { id: LIST_ID('25'), title: 'alpha beta', lastModified: '2025-01-01T00:00:00Z', visibility: 'private', owner: 'bob' },
  /* p0 */ { id: LIST_ID('0a'), title: 'Baseline', lastModified: TIE, visibility: 'public', owner: 'alice', model: 'profile' },
  /*  5 */ { id: LIST_ID('11'), title: 'baseline', lastModified: TIE, visibility: 'public', owner: 'bob' },
  /*  6 */ { id: LIST_ID('01'), title: 'Alphabet', lastModified: '2024-07-04T16:20:00Z', visibility: 'public', owner: 'alice' },
  /*  7 */ { id: LIST_ID('19'), title: 'Übersicht Katalog', lastModified: TIE, visibility: 'public', owner: 'alice' },
  /*  8 */ { id: LIST_ID('06'), title: 'BaseLine', lastModified: '2023-11-11T11:11:11Z', visibility: 'private', owner: 'bob' },
  /*  9 */ { id: LIST_ID('14'), title: '10 Baseline', lastModified: TIE, visibility: 'public', owner: 'alice' },
  /* 10 */ { id: LIST_ID('23'), title: '9 Baseline', lastModified: '2021-05-05T05:05:05Z', visibility: 'public', owner: 'bob' },
  /* p1 */ { id: LIST_ID('1b'), title: 'baseline', lastModified: TIE, visibility: 'private', owner: 'alice', model: 'profile' },
  /* 11 */ { id: LIST_ID('02'), title: 'alpha', lastModified: TIE, visibility: 'private', owner: 'alice' },
  /* 12 */ { id: LIST_ID('20'), title: 'bASELINE', lastModified: '2024-12-31T23:59:59Z', visibility: 'public', owner: 'alice' },
  /* 13 */ { id: LIST_ID('09'), title: 'CUI Overlay', lastModified: '2024-01-31T23:59:59Z', visibility: 'public', owner: 'bob' },
  /* 14 */ { id: LIST_ID('16'), title: 'FedRAMP High', lastModified: '2024-02-01T00:00:01Z', visibility: 'public', owner: 'alice' },
  /* 15 */ { id: LIST_ID('04'), title: 'baseLINE', lastModified: '2020-02-29T00:00:00Z', visibility: 'public', owner: 'bob' },
  /* 16 */ { id: LIST_ID('24'), title: 'fedramp low', lastModified: '2024-04-01T00:00:00Z', visibility: 'private', owner: 'alice' },
  /* 17 */ { id: LIST_ID('12'), title: 'High Baseline', lastModified: '2023-01-01T00:00:00Z', visibility: 'public', owner: 'bob' },
  /* 18 */ { id: LIST_ID('07'), title: 'Low Baseline', lastModified: '2024-05-05T05:05:05Z', visibility: 'public', owner: 'alice' },
  /* 19 */ { id: LIST_ID('21'), title: 'Mapping Collection', lastModified: '2019-10-10T10:10:10Z', visibility: 'public', owner: 'bob' },
  /* 20 */ { id: LIST_ID('10'), title: 'Moderate Baseline', lastModified: '2024-06-06T06:06:06Z', visibility: 'private', owner: 'bob' },
  /* p2 */ { id: LIST_ID('2c'), title: 'BASELINE', lastModified: TIE, visibility: 'public', owner: 'bob', model: 'profile' },
  /* 21 */ { id: LIST_ID('15'), title: 'privacy', lastModified: '2023-03-03T03:03:03Z', visibility: 'public', owner: 'alice' },
  /* 22 */ { id: LIST_ID('05'), title: 'Privacy Overlay', lastModified: '2024-08-08T08:08:08Z', visibility: 'public', owner: 'bob' },
  /* 23 */ { id: LIST_ID('18'), title: 'Tilde~Catalog', lastModified: '2023-08-08T08:08:08Z', visibility: 'public', owner: 'alice' },
  /* 24 */ { id: LIST_ID('13'), title: 'Zulu', lastModified: '2022-12-12T12:12:12Z', visibility: 'public', owner: 'bob' },
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
    await store.createDocument(newDoc(d.id, d.owner, d.visibility, d.model), revision(d.id, fields(d.title, { lastModified: d.lastModified })), audit('document.create', d.id, d.owner));
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

// ---------------------------------------------------------------------------------------------

function conformance(backend: string, open: () => Promise<Store>, cleanup: () => Promise<void>): void {
  describe(`store conformance: ${backend}`, () => {
    after(cleanup);

    const withStore = (body: (store: Store) => Promise<void>) => async () => {
      const store = await open();
      try {
        await body(store);
      } finally {
        await store.close();
      }
    };

    test('ping answers true while open; after close the store refuses work', async () => {
      const store = await open();
      assert.equal(await store.ping(), true);
      await store.close();
      await assert.rejects(store.ping());
    });

    test('createDocument then getDocument and listDocuments give back every list field as written', withStore(async (store) => {
      const full: DocumentFields = {
        title: 'NIST SP 800-53 Rev 5 — Security & Privacy Controls',
        version: '5.1.1+u2',
        oscalVersion: '1.1.2',
        published: '2020-09-23T00:00:00.000000-04:00',
        lastModified: '2023-12-04T17:56:31.533-05:00',
        documentIds: [
          { scheme: 'http://www.doi.org/', identifier: '10.6028/NIST.SP.800-53r5' },
          { scheme: 'https://www.ietf.org/rfc/rfc4122', identifier: '9a7f0b4c-2d1e-4f5a-8b6c-7d8e9f0a1b2c' },
        ],
        markings: ['TLP:CLEAR', 'CUI//SP-PRVCY', 'TLP:CLEAR'],
        remarks: 'Converted from NIST\'s **catalog**; été ✓ — "quoted", back\\slash\nsecond line',
      };
      const bare: DocumentFields = { title: 'Bare profile', version: '', oscalVersion: '1.0.0', lastModified: '2024-01-01T00:00:00Z', documentIds: [], markings: [] };
      const fullId = '1f0c0000-0000-4000-8000-000000000001';
      const bareId = '1f0c0000-0000-4000-8000-000000000002';
      const fullInput = revision('full', full, { renditions: ['json', 'xml', 'yaml'], originalFormat: 'xml' });
      const bareInput = revision('bare', bare, { author: 'bob', originalFormat: 'yaml', original: 'profile:\n  uuid: bare\n' });

      const t0 = Date.now();
      assert.deepEqual(await store.createDocument(newDoc(fullId, 'alice', 'private'), fullInput, audit('document.create', fullId, 'alice', { model: 'catalog', format: 'xml' })), { jobs: [] });
      assert.deepEqual(await store.createDocument(newDoc(bareId, 'bob', 'public', 'profile'), bareInput, audit('document.create', bareId, 'bob', { model: 'profile', format: 'yaml' })), { jobs: [] });
      const t1 = Date.now();

      const doc = await store.getDocument(fullId);
      assert.deepEqual(withoutStamps(doc), { id: fullId, model: 'catalog', owner: 'alice', visibility: 'private', legalHold: false, revision: 1, ...full });
      assertStamp(doc!.createdAt, t0, t1, 'createdAt');
      assertStamp(doc!.updatedAt, t0, t1, 'updatedAt');
      const bareDoc = await store.getDocument(bareId);
      assert.deepEqual(withoutStamps(bareDoc), { id: bareId, model: 'profile', owner: 'bob', visibility: 'public', legalHold: false, revision: 1, ...bare });
      assert.equal(bareDoc!.published, undefined);
      assert.equal(bareDoc!.remarks, undefined);
      assert.equal(await store.getDocument('1f0c0000-0000-4000-8000-000000000003'), undefined);

      assert.deepEqual((await store.listDocuments(listQuery())).map(present), [present(doc!)]);
      assert.deepEqual((await store.listDocuments(listQuery({ model: 'profile' }))).map(present), [present(bareDoc!)]);
      assert.equal(await store.countDocuments(), 2);

      const revisions = await store.listRevisions(fullId);
      assert.deepEqual(revisions.map(withoutIdOrStamp), [{
        documentId: fullId, number: 1, fields: full, size: sizeOf(canonicalText('full')),
        canonicalHash: hashOf(canonicalText('full')), originalHash: hashOf(originalText('full')), originalFormat: 'xml', author: 'alice', findings: [],
      }]);
      assertStamp(revisions[0]!.createdAt, t0, t1, 'revision createdAt');
      assert.deepEqual(await store.getRevision(fullId, 1), revisions[0]);
      assert.equal(await store.getRevision(fullId, 2), undefined);
      const bareRevision = (await store.getRevision(bareId, 1))!;
      assert.deepEqual(withoutIdOrStamp(bareRevision), {
        documentId: bareId, number: 1, fields: bare, size: sizeOf(canonicalText('bare')),
        canonicalHash: hashOf(canonicalText('bare')), originalHash: hashOf('profile:\n  uuid: bare\n'), originalFormat: 'yaml', author: 'bob', findings: [],
      });
      assert.ok(Number.isSafeInteger(revisions[0]!.recordId) && Number.isSafeInteger(bareRevision.recordId), 'record ids are integers');
      assert.notEqual(revisions[0]!.recordId, bareRevision.recordId, 'record ids are unique across documents');

      assert.equal(await blobText(store, hashOf(canonicalText('full'))), canonicalText('full'));
      assert.equal(await blobText(store, hashOf(originalText('full'))), originalText('full'));
      assert.equal(await blobText(store, hashOf('profile:\n  uuid: bare\n')), 'profile:\n  uuid: bare\n');
      for (const format of ['json', 'xml', 'yaml'] as const) {
        assert.deepEqual(await store.getRendition(fullId, 1, format), { hash: hashOf(renditionText('full', format)), size: sizeOf(renditionText('full', format)) }, format);
        assert.equal(await blobText(store, hashOf(renditionText('full', format))), renditionText('full', format));
      }
      assert.deepEqual(await store.getRendition(bareId, 1, 'json'), { hash: hashOf(canonicalText('bare')), size: sizeOf(canonicalText('bare')) });
      assert.equal(await store.getRendition(bareId, 1, 'xml'), undefined);

      assert.deepEqual((await store.listAudit(10)).map(({ id: _, at: __, ...e }) => e), [
        { actor: 'bob', action: 'document.create', documentId: bareId, detail: { model: 'profile', format: 'yaml' } },
        { actor: 'alice', action: 'document.create', documentId: fullId, detail: { model: 'catalog', format: 'xml' } },
      ]);
    }));

    test('createDocument of an existing id is refused with reason exists and changes nothing', withStore(async (store) => {
      const id = '2f0c0000-0000-4000-8000-000000000001';
      await store.createDocument(newDoc(id, 'alice', 'private'), revision('first', fields('First title'), { renditions: ['json', 'xml'] }), audit('document.create', id));
      const before = await store.getDocument(id);

      await rejectsWith(store.createDocument(newDoc(id, 'mallory', 'public', 'profile'),
        revision('second', fields('Second title', { published: '2024-01-01T00:00:00Z' }), { renditions: ['json', 'yaml'], pending: ['xml'] }),
        audit('document.create', id, 'mallory')), 'exists');

      assert.deepEqual(await store.getDocument(id), before);
      assert.deepEqual((await store.listRevisions(id)).map((r) => r.canonicalHash), [hashOf(canonicalText('first'))]);
      assert.equal(await store.getBlob(hashOf(canonicalText('second'))), undefined, 'the refused revision\'s blobs are not kept');
      assert.equal(await store.getBlob(hashOf(originalText('second'))), undefined);
      assert.equal(await store.getRendition(id, 1, 'yaml'), undefined);
      assert.deepEqual(await store.getRendition(id, 1, 'xml'), { hash: hashOf(renditionText('first', 'xml')), size: sizeOf(renditionText('first', 'xml')) });
      assert.equal(await store.countJobs('queued'), 0);
      assert.equal(await store.countDocuments(), 1);
      assert.deepEqual((await store.listAudit(10)).map((e) => e.actor), ['alice']);
    }));

    test('concurrent creates of one id: exactly one wins, the others are refused with reason exists', withStore(async (store) => {
      const id = '2f0c0000-0000-4000-8000-000000000002';
      const outcomes = await Promise.allSettled(['w0', 'w1', 'w2', 'w3', 'w4', 'w5'].map((c) =>
        store.createDocument(newDoc(id, c), revision(c, fields(`Title ${c}`), { pending: ['xml'] }), audit('document.create', id, c))));
      const won = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [`w${i}`] : []));
      assert.equal(won.length, 1, `exactly one create succeeds; outcomes: ${outcomes.map((o) => o.status === 'rejected' ? String(o.reason) : 'ok').join(' | ')}`);
      for (const o of outcomes) {
        if (o.status === 'rejected') await rejectsWith(Promise.reject(o.reason), 'exists');
      }
      const winner = won[0]!;
      const doc = await store.getDocument(id);
      assert.equal(doc?.owner, winner);
      assert.equal(doc?.title, `Title ${winner}`);
      assert.deepEqual((await store.listRevisions(id)).map((r) => [r.number, r.canonicalHash]), [[1, hashOf(canonicalText(winner))]]);
      assert.equal(await store.countJobs('queued'), 1);
      assert.deepEqual((await store.listAudit(10)).map((e) => e.actor), [winner]);
    }));

    test('replaceDocument numbers revisions 2, 3, … and the document takes the newest fields; access is kept', withStore(async (store) => {
      const id = '3f0c0000-0000-4000-8000-000000000001';
      const t0 = Date.now();
      const f1 = fields('Draft', { published: '2024-01-01T00:00:00Z', remarks: 'first cut', markings: ['TLP:AMBER'] });
      const f2 = fields('Second', { version: '2.0', lastModified: '2024-06-01T00:00:00-04:00', remarks: 'second cut' });
      const f3 = fields('Final', { version: '3.0', documentIds: [{ scheme: 'http://www.doi.org/', identifier: '10.1/x' }] });
      await store.createDocument(newDoc(id, 'alice', 'private'), revision('r1', f1), audit('document.create', id));
      await store.setAccess(id, { grants: [{ principal: 'user:carol', permission: 'write' }] }, audit('access.change', id));
      const created = (await store.getDocument(id))!;
      await sleep(5);

      const r2 = await store.replaceDocument(id, revision('r2', f2, { author: 'carol', originalFormat: 'json' }), audit('document.replace', id, 'carol', { format: 'json' }));
      assert.deepEqual(r2, { revision: 2, jobs: [] });
      const r3 = await store.replaceDocument(id, revision('r3', f3, { author: 'alice', originalFormat: 'yaml' }), audit('document.replace', id, 'alice', { format: 'yaml' }));
      assert.deepEqual(r3, { revision: 3, jobs: [] });
      const t1 = Date.now();

      const doc = (await store.getDocument(id))!;
      // published and remarks were dropped by the newest revision: the document must not keep the old values.
      assert.deepEqual(withoutStamps(doc), { id, model: 'catalog', owner: 'alice', visibility: 'private', legalHold: false, revision: 3, ...f3 });
      assert.equal(doc.createdAt, created.createdAt);
      assertStamp(doc.updatedAt, t0, t1, 'updatedAt');
      assert.ok(Date.parse(doc.updatedAt) > Date.parse(created.updatedAt), `updatedAt moves on a replace: ${created.updatedAt} → ${doc.updatedAt}`);

      // Each revision keeps the list fields it had, published and remarks included.
      assert.deepEqual((await store.listRevisions(id)).map(withoutIdOrStamp), [
        { documentId: id, number: 3, fields: f3, size: sizeOf(canonicalText('r3')), canonicalHash: hashOf(canonicalText('r3')), originalHash: hashOf(originalText('r3')), originalFormat: 'yaml', author: 'alice', findings: [] },
        { documentId: id, number: 2, fields: f2, size: sizeOf(canonicalText('r2')), canonicalHash: hashOf(canonicalText('r2')), originalHash: hashOf(originalText('r2')), originalFormat: 'json', author: 'carol', findings: [] },
        { documentId: id, number: 1, fields: f1, size: sizeOf(canonicalText('r1')), canonicalHash: hashOf(canonicalText('r1')), originalHash: hashOf(originalText('r1')), originalFormat: 'xml', author: 'alice', findings: [] },
      ]);
      assert.equal((await store.getRevision(id, 2))?.author, 'carol');
      assert.equal(await store.getRevision(id, 4), undefined);
      assert.deepEqual(await store.getRendition(id, 1, 'json'), { hash: hashOf(canonicalText('r1')), size: sizeOf(canonicalText('r1')) });
      assert.deepEqual(await store.getRendition(id, 3, 'json'), { hash: hashOf(canonicalText('r3')), size: sizeOf(canonicalText('r3')) });
      assert.deepEqual(await store.getAccess(id), { owner: 'alice', visibility: 'private', legalHold: false, grants: [{ principal: 'user:carol', permission: 'write' }] });
      assert.equal(await store.countDocuments(), 1);
      assert.deepEqual((await store.listAudit(10)).map((e) => [e.action, e.actor, e.detail]), [
        ['document.replace', 'alice', { format: 'yaml' }],
        ['document.replace', 'carol', { format: 'json' }],
        ['access.change', 'alice', { model: 'catalog' }],
        ['document.create', 'alice', { model: 'catalog' }],
      ]);

      await rejectsWith(store.replaceDocument('3f0c0000-0000-4000-8000-000000000009', revision('r9', fields('Nobody')), audit('document.replace', 'x')), 'not-found');
      assert.equal(await store.getBlob(hashOf(canonicalText('r9'))), undefined);
      assert.equal((await store.listAudit(10)).length, 4, 'a refused replace is not audited');
    }));

    test('30 concurrent replaces of one document give revisions 2..31 with no gap or duplicate', withStore(async (store) => {
      const id = '4f0c0000-0000-4000-8000-000000000001';
      await store.createDocument(newDoc(id), revision('c0', fields('Concurrent 0')), audit('document.create', id));
      const contents = Array.from({ length: 30 }, (_, i) => `c${i + 1}`);
      const results = await Promise.all(contents.map((c) =>
        store.replaceDocument(id, revision(c, fields(`Concurrent ${c}`), { author: c, pending: ['yaml'] }), audit('document.replace', id, c))));

      const numbers = results.map((r) => r.revision);
      assert.deepEqual([...numbers].sort((a, b) => a - b), Array.from({ length: 30 }, (_, i) => i + 2));
      const listed = await store.listRevisions(id);
      assert.deepEqual(listed.map((r) => r.number), Array.from({ length: 31 }, (_, i) => 31 - i));
      // Each replace got the number of the revision holding its own bytes and author.
      for (const [i, c] of contents.entries()) {
        const rev = listed.find((r) => r.number === numbers[i]);
        assert.deepEqual([rev?.canonicalHash, rev?.author, rev?.fields.title], [hashOf(canonicalText(c)), c, `Concurrent ${c}`], `replace ${c} → revision ${numbers[i]}`);
        assert.deepEqual((await store.findJob(id, numbers[i]!, 'yaml'))?.id, results[i]!.jobs[0]);
      }
      // The document row shows the revision numbered last, not whichever write committed last.
      const newest = contents[numbers.indexOf(31)]!;
      const doc = (await store.getDocument(id))!;
      assert.deepEqual([doc.revision, doc.title], [31, `Concurrent ${newest}`]);
      assert.equal(await store.countJobs('queued'), 30);
      assert.equal(new Set(listed.map((r) => r.recordId)).size, 31, 'one record id per revision');
      assert.equal((await store.listAudit(100)).length, 31);
    }));

    test('listDocuments: model filter and readableBy (public, owner, user and group grants)', withStore(async (store) => {
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
        await store.createDocument(newDoc(docId, owner, visibility, model), revision(docId, fields(title)), audit('document.create', docId, owner));
      }
      await store.setAccess(id(3), { grants: [{ principal: 'user:carol', permission: 'read' }] }, audit('access.change', id(3), 'bob'));
      await store.setAccess(id(4), { grants: [{ principal: 'group:auditors', permission: 'write' }] }, audit('access.change', id(4), 'bob'));
      await store.setAccess(id(6), { grants: [{ principal: 'user:dave', permission: 'read' }, { principal: 'group:auditors', permission: 'read' }] }, audit('access.change', id(6), 'bob'));
      await store.setAccess(id(8), { grants: [{ principal: 'user:carol', permission: 'read' }] }, audit('access.change', id(8), 'bob'));

      const ids = async (readableBy?: ListQuery['readableBy'], model = 'catalog') =>
        (await store.listDocuments(listQuery({ model, ...(readableBy ? { readableBy } : {}) }))).map((d) => d.id);
      assert.deepEqual(await ids(), [id(1), id(2), id(3), id(4), id(5), id(6)], 'admin: every catalog');
      assert.deepEqual(await ids(undefined, 'profile'), [id(7), id(8)], 'admin: every profile');
      assert.deepEqual(await ids(undefined, 'system-security-plan'), []);
      assert.deepEqual(await ids({ principals: [] }), [id(1)], 'anonymous: public only');
      assert.deepEqual(await ids({ userId: 'alice', principals: ['user:alice'] }), [id(1), id(2)], 'alice: public and her own');
      assert.deepEqual(await ids({ userId: 'alice', principals: [] }), [id(1), id(2)], 'ownership needs no principal');
      assert.deepEqual(await ids({ userId: 'bob', principals: ['user:bob'] }), [id(1), id(3), id(4), id(5), id(6)], 'bob: public and his own');
      assert.deepEqual(await ids({ userId: 'carol', principals: ['user:carol'] }), [id(1), id(3)], 'carol: public and her user grant');
      assert.deepEqual(await ids({ userId: 'carol', principals: ['user:carol'] }, 'profile'), [id(7), id(8)], 'carol: profiles');
      assert.deepEqual(await ids({ userId: 'erin', principals: ['user:erin', 'group:auditors'] }), [id(1), id(4), id(6)], 'erin: group grants');
      // dave holds two grants on F (his own and his group's): it is listed once.
      assert.deepEqual(await ids({ userId: 'dave', principals: ['user:dave', 'group:auditors'] }), [id(1), id(4), id(6)], 'dave: once per document');
      assert.deepEqual(await ids({ userId: 'frank', principals: ['user:frank', 'group:others'] }), [id(1)], 'frank: public only');
      // A principal is matched whole: the user named 'carol' has no claim to 'group:carol' grants, nor the reverse.
      assert.deepEqual(await ids({ principals: ['group:carol', 'carol'] }), [id(1)]);
      const limited = await store.listDocuments(listQuery({ readableBy: { userId: 'dave', principals: ['user:dave', 'group:auditors'] }, limit: 2 }));
      assert.deepEqual(limited.map((d) => d.id), [id(1), id(4)], 'limit counts documents, not grants');
    }));

    test('listDocuments q: part of the title, case-insensitive, with % _ and \\ taken literally', withStore(async (store) => {
      const titles = ['100% Coverage Baseline', '100 Percent Baseline', 'snake_case Profile', 'snakeXcase Profile', 'Back\\slash Catalog', 'Backslash Catalog',
        'MIXED case Title', 'Übersicht Katalog', "O'Brien's \"Quoted\" Catalog"];
      const id = (i: number) => `7f0c0000-0000-4000-8000-0000000000${String(i).padStart(2, '0')}`;
      for (const [i, title] of titles.entries()) {
        await store.createDocument(newDoc(id(i), 'alice', i === 6 ? 'private' : 'public'), revision(`q${i}`, fields(title)), audit('document.create', id(i)));
      }
      await store.createDocument(newDoc(id(20), 'alice', 'public', 'profile'), revision('q20', fields('100% Profile')), audit('document.create', id(20)));

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
      assert.deepEqual(await titlesFor("o'brien's \"quoted\""), ["O'Brien's \"Quoted\" Catalog"]);
      assert.deepEqual(await titlesFor('catalogue'), []);
      assert.deepEqual(await titlesFor('case', { principals: [] }), ['snake_case Profile', 'snakeXcase Profile'], 'q narrows what the caller may read, no more');
      assert.deepEqual(await titlesFor('case', { userId: 'alice', principals: ['user:alice'] }), ['MIXED case Title', 'snake_case Profile', 'snakeXcase Profile']);
    }));

    test('listDocuments: each sort key ascending and descending, whole and walked in pages of 7', withStore(async (store) => {
      await createListing(store);
      for (const sort of ['title', 'last-modified', 'created'] as const) {
        for (const descending of [false, true]) {
          const label = `${descending ? '-' : ''}${sort}`;
          const expected = descending ? [...ASCENDING[sort]].reverse() : ASCENDING[sort];
          assert.deepEqual((await store.listDocuments(listQuery({ sort, descending }))).map((d) => d.id), expected, `${label}: one page`);
          const pages = await walk(store, listQuery({ sort, descending, limit: 7 }));
          assert.deepEqual(pages.map((p) => p.length), [7, 7, 7, 4], `${label}: page sizes`);
          assert.deepEqual(pages.flat().map((d) => d.id), expected, `${label}: pages in a row`);
          if (sort !== 'created') {
            // The data is laid out so that a tie in the key spans a page boundary; keep it so.
            const split = pages.slice(1).some((p, i) => sortValue(p[0]!, sort) === sortValue(pages[i]!.at(-1)!, sort));
            assert.ok(split, `${label}: a tie in the sort key spans a page boundary`);
          }
        }
      }
      assert.deepEqual((await walk(store, listQuery({ model: 'profile', sort: 'title', limit: 1 }))).flat().map((d) => d.id),
        [LIST_ID('0a'), LIST_ID('1b'), LIST_ID('2c')], 'profiles alone, ties by id');
    }));

    test('listDocuments: pages of a filtered view (readableBy and q) hold exactly that view', withStore(async (store) => {
      await createListing(store);
      await store.setAccess(LIST_ID('10'), { grants: [{ principal: 'group:auditors', permission: 'read' }] }, audit('access.change', LIST_ID('10'), 'bob'));
      const readableBy = { userId: 'alice', principals: ['user:alice', 'group:auditors'] };
      // Titles holding "baseline" that alice may read: public, hers (row 2) or granted to her group (row 20); not bob's private row 8.
      const ascending = rows([9, 10, 15, 5, 0, 12, 2, 17, 18, 20]);
      assert.deepEqual((await walk(store, listQuery({ readableBy, q: 'BaseLine', limit: 3 }))).flat().map((d) => d.id), ascending, 'title');
      assert.deepEqual((await walk(store, listQuery({ readableBy, q: 'BaseLine', limit: 3, descending: true }))).flat().map((d) => d.id), [...ascending].reverse(), '-title');
      // Anonymous callers: the public ones alone.
      assert.deepEqual((await walk(store, listQuery({ readableBy: { principals: [] }, q: 'baseline', sort: 'last-modified', limit: 2 }))).flat().map((d) => d.id),
        rows([15, 10, 17, 5, 9, 0, 18, 12]), 'anonymous, last-modified');
    }));

    test('deleteDocument removes the document, its revisions, renditions, grants, jobs and unshared blobs', withStore(async (store) => {
      const a = '8f0c0000-0000-4000-8000-00000000000a';
      const b = '8f0c0000-0000-4000-8000-00000000000b';
      const shared = originalText('shared original');
      const a1 = await store.createDocument(newDoc(a), revision('a1', fields('Doc A'), { renditions: ['json', 'xml'], pending: ['yaml'], original: shared }), audit('document.create', a));
      await store.createDocument(newDoc(b, 'bob'), revision('b1', fields('Doc B'), { original: shared }), audit('document.create', b, 'bob'));
      const a2 = await store.replaceDocument(a, revision('a2', fields('Doc A v2'), { pending: ['xml', 'yaml'] }), audit('document.replace', a));
      // B's YAML rendition has the same bytes as A's second canonical form.
      await store.putRendition(b, 1, 'yaml', blobOf(Buffer.from(canonicalText('a2')), true));
      await store.putRendition(a, 2, 'json', blobOf(Buffer.from(canonicalText('a2')), true));
      await store.setAccess(a, { grants: [{ principal: 'user:carol', permission: 'read' }, { principal: 'group:auditors', permission: 'write' }] }, audit('access.change', a));
      await store.setAccess(b, { grants: [{ principal: 'user:carol', permission: 'read' }] }, audit('access.change', b, 'bob'));
      const claimed = (await store.claimJob('worker-1'))!;
      const madeByJob = `made by job ${claimed.id}`;
      await store.finishJob(claimed.id, { rendition: blobOf(Buffer.from(madeByJob), true) });
      assert.deepEqual(await store.getRendition(a, claimed.revision, claimed.format), { hash: hashOf(madeByJob), size: sizeOf(madeByJob) });
      const bBefore = await store.getDocument(b);
      const aJobs = [...a1.jobs, ...a2.jobs];
      assert.equal(aJobs.length, 3);

      await store.deleteDocument(a, audit('document.delete', a, 'alice', { model: 'catalog', reason: 'test' }));

      assert.equal(await store.getDocument(a), undefined);
      assert.deepEqual(await store.listRevisions(a), []);
      assert.equal(await store.getRevision(a, 1), undefined);
      assert.equal(await store.getRevision(a, 2), undefined);
      for (const [rev, format] of [[1, 'json'], [1, 'xml'], [2, 'json'], [claimed.revision, claimed.format]] as const) {
        assert.equal(await store.getRendition(a, rev, format), undefined, `rendition ${rev}/${format}`);
      }
      assert.equal(await store.getAccess(a), undefined);
      assert.deepEqual(await store.grantsFor(a, ['user:carol', 'group:auditors']), []);
      for (const job of aJobs) assert.equal(await store.getJob(job), undefined, `job ${job}`);
      assert.equal(await store.findJob(a, 2, 'yaml'), undefined);
      assert.equal(await store.countJobs('queued'), 0);
      assert.equal(await store.countJobs('done'), 0);
      assert.equal(await store.claimJob('worker-2'), undefined);

      for (const gone of [canonicalText('a1'), originalText('a2'), renditionText('a1', 'xml'), madeByJob]) {
        assert.equal(await store.getBlob(hashOf(gone)), undefined, `unshared blob ${JSON.stringify(gone.slice(0, 40))} is removed`);
        assert.equal(await store.getBlobEncoded(hashOf(gone), 'br'), undefined);
      }
      assert.equal(await blobText(store, hashOf(shared)), shared, 'the original shared with B is kept');
      assert.equal(await blobText(store, hashOf(canonicalText('a2'))), canonicalText('a2'), 'the blob that is also B\'s rendition is kept');
      assert.equal(await blobText(store, hashOf(canonicalText('b1'))), canonicalText('b1'));

      assert.deepEqual(await store.getDocument(b), bBefore);
      assert.deepEqual(await store.getRendition(b, 1, 'yaml'), { hash: hashOf(canonicalText('a2')), size: sizeOf(canonicalText('a2')) });
      assert.deepEqual(await store.getAccess(b), { owner: 'bob', visibility: 'private', legalHold: false, grants: [{ principal: 'user:carol', permission: 'read' }] });
      assert.deepEqual((await store.listDocuments(listQuery())).map((d) => d.id), [b]);
      assert.equal(await store.countDocuments(), 1);
      assert.deepEqual((await store.listAudit(1)).map(({ id: _, at: __, ...e }) => e), [{ actor: 'alice', action: 'document.delete', documentId: a, detail: { model: 'catalog', reason: 'test' } }]);

      await rejectsWith(store.deleteDocument(a, audit('document.delete', a)), 'not-found');
      assert.equal((await store.listAudit(10)).filter((e) => e.action === 'document.delete').length, 1, 'a refused delete is not audited');
      // A new document may take the deleted one's id, starting again at revision 1.
      await store.createDocument(newDoc(a), revision('a3', fields('Doc A again')), audit('document.create', a));
      assert.deepEqual((await store.listRevisions(a)).map((r) => r.number), [1]);
    }));

    test('a delete racing writes that reuse its blobs: every operation succeeds and the reused blobs stay', withStore(async (store) => {
      const n = (prefix: string, i: number) => `8f1c0000-0000-4000-8000-${prefix}${String(i).padStart(8, '0')}`;
      const rounds = Array.from({ length: 16 }, (_, i) => ({ a: n('0000', i), c: n('0001', i), v: n('0002', i), w: n('0003', i), shared: originalText(`reused ${i}`), sharedV: originalText(`reused version ${i}`) }));
      for (const r of rounds) {
        await store.createDocument(newDoc(r.a), revision(r.a, fields('Deleted'), { original: r.shared }), audit('document.create', r.a));
        await store.createDocument(newDoc(r.v), revision(r.v, fields('Versioned')), audit('document.create', r.v));
        await store.replaceDocument(r.v, revision(`${r.v} 2`, fields('Versioned'), { original: r.sharedV }), audit('document.replace', r.v));
      }

      const outcomes = await Promise.allSettled(rounds.flatMap((r) => [
        store.deleteDocument(r.a, audit('document.delete', r.a)),
        store.createDocument(newDoc(r.c), revision(r.c, fields('Reusing'), { original: r.shared }), audit('document.create', r.c)),
        store.deleteRevision(r.v, 2, audit('version.delete', r.v)),
        store.createDocument(newDoc(r.w), revision(r.w, fields('Reusing'), { original: r.sharedV }), audit('document.create', r.w)),
      ]));
      const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [String(o.reason)] : []));
      assert.deepEqual([...new Set(failures)], [], `${failures.length} of ${outcomes.length} operations failed`);
      for (const r of rounds) {
        assert.equal(await store.getDocument(r.a), undefined);
        assert.equal((await store.getDocument(r.c))?.title, 'Reusing');
        assert.equal(await blobText(store, hashOf(r.shared)), r.shared, 'the blob the new document refers to');
        assert.deepEqual((await store.listRevisions(r.v)).map((v) => v.number), [1]);
        assert.equal(await blobText(store, hashOf(r.sharedV)), r.sharedV, 'the blob the other new document refers to');
      }
    }));

    test('concurrent deletes of documents sharing a blob leave no unreferenced blob behind', withStore(async (store) => {
      const rounds = Array.from({ length: 16 }, (_, i) => ({ p: `8f2c0000-0000-4000-8000-0000000000${String(i).padStart(2, '0')}`, q: `8f2c0000-0000-4000-8000-0000000001${String(i).padStart(2, '0')}`, shared: originalText(`pair ${i}`) }));
      for (const r of rounds) {
        await store.createDocument(newDoc(r.p), revision(r.p, fields('P'), { original: r.shared }), audit('document.create', r.p));
        await store.createDocument(newDoc(r.q), revision(r.q, fields('Q'), { original: r.shared }), audit('document.create', r.q));
      }
      await Promise.all(rounds.flatMap((r) => [store.deleteDocument(r.p, audit('document.delete', r.p)), store.deleteDocument(r.q, audit('document.delete', r.q))]));
      assert.equal(await store.countDocuments(), 0);
      const kept: number[] = [];
      for (const [i, r] of rounds.entries()) if (await store.getBlob(hashOf(r.shared))) kept.push(i);
      assert.deepEqual(kept, [], `the blobs of ${kept.length} of ${rounds.length} pairs outlived both documents`);
    }));

    test('deleteDocument under a legal hold is refused with reason legal-hold and deletes nothing', withStore(async (store) => {
      const id = '9f0c0000-0000-4000-8000-000000000001';
      const { jobs } = await store.createDocument(newDoc(id), revision('held', fields('Held'), { renditions: ['json', 'xml'], pending: ['yaml'] }), audit('document.create', id));
      await store.setAccess(id, { legalHold: true, grants: [{ principal: 'user:carol', permission: 'read' }] }, audit('access.change', id, 'admin', { legalHold: true }));
      const before = await store.getDocument(id);
      assert.equal(before?.legalHold, true);

      await rejectsWith(store.deleteDocument(id, audit('document.delete', id)), 'legal-hold');

      assert.deepEqual(await store.getDocument(id), before);
      assert.deepEqual((await store.listRevisions(id)).map((r) => r.number), [1]);
      assert.deepEqual(await store.getRendition(id, 1, 'xml'), { hash: hashOf(renditionText('held', 'xml')), size: sizeOf(renditionText('held', 'xml')) });
      assert.equal(await blobText(store, hashOf(originalText('held'))), originalText('held'));
      assert.deepEqual(await store.grantsFor(id, ['user:carol']), [{ principal: 'user:carol', permission: 'read' }]);
      assert.equal((await store.getJob(jobs[0]!))?.status, 'queued');
      assert.equal(await store.countDocuments(), 1);
      assert.deepEqual((await store.listAudit(10)).map((e) => e.action), ['access.change', 'document.create']);

      await store.setAccess(id, { legalHold: false }, audit('access.change', id, 'admin', { legalHold: false }));
      await store.deleteDocument(id, audit('document.delete', id));
      assert.equal(await store.getDocument(id), undefined);
      assert.equal(await store.countDocuments(), 0);
    }));

    test('deleteRevision removes one revision with its renditions, jobs and unshared blobs; the newest left becomes current', withStore(async (store) => {
      const id = '9f1c0000-0000-4000-8000-000000000001';
      const shared = originalText('kept by revision 1');
      const f1 = fields('First', { published: '2024-01-01T00:00:00Z', remarks: 'one', markings: ['TLP:GREEN'] });
      const f3 = fields('Third', { version: '3' });
      await store.createDocument(newDoc(id), revision('v1', f1, { original: shared }), audit('document.create', id));
      const { jobs } = await store.replaceDocument(id, revision('v2', fields('Second'), { renditions: ['json', 'xml'], pending: ['yaml'] }), audit('document.replace', id));
      await store.replaceDocument(id, revision('v3', f3, { original: shared }), audit('document.replace', id));
      const before = await store.listRevisions(id);

      await store.deleteRevision(id, 2, audit('version.delete', id, 'alice', { version: 2 }));
      assert.deepEqual(await store.listRevisions(id), before.filter((r) => r.number !== 2), 'the others are untouched');
      assert.equal(await store.getRevision(id, 2), undefined);
      assert.equal(await store.getRendition(id, 2, 'json'), undefined);
      assert.equal(await store.getRendition(id, 2, 'xml'), undefined);
      assert.equal(await store.getJob(jobs[0]!), undefined);
      assert.equal(await store.findJob(id, 2, 'yaml'), undefined);
      for (const gone of [canonicalText('v2'), originalText('v2'), renditionText('v2', 'xml')]) assert.equal(await store.getBlob(hashOf(gone)), undefined);
      assert.deepEqual(withoutStamps(await store.getDocument(id)), { id, model: 'catalog', owner: 'alice', visibility: 'private', legalHold: false, revision: 3, ...f3 });
      assert.deepEqual((await store.listAudit(1)).map(({ id: _, at: __, ...e }) => e), [{ actor: 'alice', action: 'version.delete', documentId: id, detail: { version: 2 } }]);

      // Deleting the current revision brings back the newest remaining one, list fields and all.
      await store.deleteRevision(id, 3, audit('version.delete', id, 'alice', { version: 3 }));
      assert.deepEqual(withoutStamps(await store.getDocument(id)), { id, model: 'catalog', owner: 'alice', visibility: 'private', legalHold: false, revision: 1, ...f1 });
      assert.deepEqual((await store.listDocuments(listQuery({ q: 'first' }))).map((d) => d.id), [id], 'the title search sees the restored title');
      assert.deepEqual(await store.listDocuments(listQuery({ q: 'third' })), []);
      assert.equal(await store.getBlob(hashOf(canonicalText('v3'))), undefined);
      assert.equal(await blobText(store, hashOf(shared)), shared, 'the original revision 1 still holds is kept');
      assert.deepEqual((await store.listRevisions(id)).map((r) => r.number), [1]);

      await rejectsWith(store.deleteRevision(id, 1, audit('version.delete', id)), 'last-version');
      await rejectsWith(store.deleteRevision(id, 2, audit('version.delete', id)), 'not-found');
      await rejectsWith(store.deleteRevision('9f1c0000-0000-4000-8000-000000000009', 1, audit('version.delete', 'x')), 'not-found');
      assert.deepEqual(withoutStamps(await store.getDocument(id)), { id, model: 'catalog', owner: 'alice', visibility: 'private', legalHold: false, revision: 1, ...f1 });
      assert.equal(await blobText(store, hashOf(canonicalText('v1'))), canonicalText('v1'));
      assert.deepEqual((await store.listAudit(10)).map((e) => e.action), ['version.delete', 'version.delete', 'document.replace', 'document.replace', 'document.create'], 'refusals are not audited');

      // A number, once given, names one content: the next revision after deleting 2 and 3 is 4.
      assert.deepEqual(await store.replaceDocument(id, revision('v4', fields('Fourth')), audit('document.replace', id)), { revision: 4, jobs: [] });
      assert.deepEqual((await store.listRevisions(id)).map((r) => r.number), [4, 1]);
      assert.equal((await store.getDocument(id))?.revision, 4);
    }));

    test('a record id, once given to a revision, is never given to another', withStore(async (store) => {
      const a = '9f2c0000-0000-4000-8000-00000000000a';
      const b = '9f2c0000-0000-4000-8000-00000000000b';
      const c = '9f2c0000-0000-4000-8000-00000000000c';
      await store.createDocument(newDoc(a), revision('id-a1', fields('A')), audit('document.create', a));
      await store.replaceDocument(a, revision('id-a2', fields('A')), audit('document.replace', a));
      const seen = new Set((await store.listRevisions(a)).map((r) => r.recordId));
      // The newest revision of the store goes, by itself and with its document: its id must not come back.
      await store.deleteRevision(a, 2, audit('version.delete', a));
      await store.createDocument(newDoc(b), revision('id-b1', fields('B')), audit('document.create', b));
      const [b1] = await store.listRevisions(b);
      assert.ok(!seen.has(b1!.recordId), `revision 1 of B got record id ${b1!.recordId}, already given to a deleted revision of A`);
      seen.add(b1!.recordId);
      await store.deleteDocument(b, audit('document.delete', b));
      await store.createDocument(newDoc(c), revision('id-c1', fields('C')), audit('document.create', c));
      const [c1] = await store.listRevisions(c);
      assert.ok(!seen.has(c1!.recordId), `revision 1 of C got record id ${c1!.recordId}, already given to the deleted document B`);
    }));

    test('getAccess, setAccess (each part alone) and grantsFor', withStore(async (store) => {
      const id = 'af0c0000-0000-4000-8000-000000000001';
      const other = 'af0c0000-0000-4000-8000-000000000002';
      await store.createDocument(newDoc(id, 'alice', 'private'), revision('acc', fields('Access')), audit('document.create', id));
      await store.createDocument(newDoc(other, 'alice', 'private'), revision('acc2', fields('Other')), audit('document.create', other));
      assert.deepEqual(await store.getAccess(id), { owner: 'alice', visibility: 'private', legalHold: false, grants: [] });
      assert.equal(await store.getAccess('af0c0000-0000-4000-8000-000000000009'), undefined);

      const grants = [{ principal: 'user:carol', permission: 'read' as const }, { principal: 'group:auditors', permission: 'write' as const }];
      await store.setAccess(id, { grants }, audit('access.change', id, 'alice', { grants }));
      let access = (await store.getAccess(id))!;
      assert.deepEqual({ ...access, grants: byPrincipal(access.grants) }, { owner: 'alice', visibility: 'private', legalHold: false, grants: byPrincipal(grants) });

      await store.setAccess(id, { visibility: 'public' }, audit('access.change', id, 'alice', { visibility: 'public' }));
      access = (await store.getAccess(id))!;
      assert.deepEqual({ ...access, grants: byPrincipal(access.grants) }, { owner: 'alice', visibility: 'public', legalHold: false, grants: byPrincipal(grants) }, 'grants survive a visibility change');
      await store.setAccess(id, { legalHold: true }, audit('access.change', id, 'root', { legalHold: true }));
      access = (await store.getAccess(id))!;
      assert.deepEqual({ ...access, grants: byPrincipal(access.grants) }, { owner: 'alice', visibility: 'public', legalHold: true, grants: byPrincipal(grants) });
      const doc = (await store.getDocument(id))!;
      assert.deepEqual([doc.visibility, doc.legalHold], ['public', true]);

      assert.deepEqual(await store.grantsFor(id, ['user:carol']), [{ principal: 'user:carol', permission: 'read' }]);
      assert.deepEqual(byPrincipal(await store.grantsFor(id, ['user:carol', 'group:auditors', 'group:none'])), byPrincipal(grants));
      assert.deepEqual(await store.grantsFor(id, ['user:dave', 'carol', 'auditors']), []);
      assert.deepEqual(await store.grantsFor(id, []), []);
      assert.deepEqual(await store.grantsFor(other, ['user:carol', 'group:auditors']), [], 'grants belong to one document');

      // Grants are replaced as a whole.
      await store.setAccess(id, { grants: [{ principal: 'user:dave', permission: 'write' }], visibility: 'private', legalHold: false }, audit('access.change', id));
      assert.deepEqual(await store.getAccess(id), { owner: 'alice', visibility: 'private', legalHold: false, grants: [{ principal: 'user:dave', permission: 'write' }] });
      assert.deepEqual(await store.grantsFor(id, ['user:carol', 'group:auditors']), []);
      await store.setAccess(id, { grants: [] }, audit('access.change', id));
      assert.deepEqual((await store.getAccess(id))?.grants, []);

      await rejectsWith(store.setAccess('af0c0000-0000-4000-8000-000000000009', { visibility: 'public' }, audit('access.change', 'x')), 'not-found');
      assert.deepEqual((await store.listAudit(4)).map((e) => [e.action, e.actor, e.detail]), [
        ['access.change', 'alice', { model: 'catalog' }],
        ['access.change', 'alice', { model: 'catalog' }],
        ['access.change', 'root', { legalHold: true }],
        ['access.change', 'alice', { visibility: 'public' }],
      ]);
    }));

    test('putRendition and finishJob for a deleted document do nothing and leave no blob behind', withStore(async (store) => {
      const a = '8f5c0000-0000-4000-8000-00000000000a';
      const { jobs } = await store.createDocument(newDoc(a), revision('a1', fields('Gone soon'), { pending: ['xml'] }), audit('document.create', a));
      const claimed = (await store.claimJob('worker'))!;
      assert.equal(claimed.id, jobs[0]);
      await store.deleteDocument(a, audit('document.delete', a));
      const late = blobOf(Buffer.from('rendition made too late'), true);
      await store.putRendition(a, 1, 'yaml', late);
      await store.finishJob(claimed.id, { rendition: late });
      assert.equal(await store.getRendition(a, 1, 'yaml'), undefined);
      assert.equal(await store.getBlob(late.hash), undefined);
    }));

    test('putRendition is idempotent; getRendition gives hash and size per revision and format', withStore(async (store) => {
      const id = 'bf0c0000-0000-4000-8000-000000000001';
      await store.createDocument(newDoc(id), revision('rend', fields('Renditions')), audit('document.create', id));
      const xml = renditionText('rend', 'xml');
      await store.putRendition(id, 1, 'xml', blobOf(Buffer.from(xml), true));
      await store.putRendition(id, 1, 'xml', blobOf(Buffer.from(xml), true));
      const got = await store.getRendition(id, 1, 'xml');
      assert.deepEqual(got, { hash: hashOf(xml), size: sizeOf(xml) });
      assert.equal(typeof got!.size, 'number');
      assert.equal(await blobText(store, hashOf(xml)), xml);
      assert.equal(await store.getRendition(id, 1, 'yaml'), undefined);

      await store.replaceDocument(id, revision('rend2', fields('Renditions 2')), audit('document.replace', id));
      assert.equal(await store.getRendition(id, 2, 'xml'), undefined, 'renditions belong to one revision');
      await store.putRendition(id, 2, 'xml', blobOf(Buffer.from(xml), true));
      assert.deepEqual(await store.getRendition(id, 2, 'xml'), { hash: hashOf(xml), size: sizeOf(xml) }, 'one blob may serve two revisions');
      assert.deepEqual(await store.getRendition(id, 1, 'xml'), { hash: hashOf(xml), size: sizeOf(xml) });
      assert.equal(await store.getRendition(id, 3, 'xml'), undefined);
      assert.equal(await store.getRendition('bf0c0000-0000-4000-8000-000000000009', 1, 'json'), undefined);
    }));

    test('getBlob and getBlobEncoded: gzip always, br only when given', withStore(async (store) => {
      const id = 'cf0c0000-0000-4000-8000-000000000001';
      const input = revision('blobs', fields('Blobs'), { renditions: ['json', 'yaml'] });
      await store.createDocument(newDoc(id), input, audit('document.create', id));
      const canonical = canonicalText('blobs');
      const original = originalText('blobs');

      assert.deepEqual(await store.getBlob(input.canonical.hash), input.canonical.gzip, 'the stored gzip bytes, as given');
      assert.deepEqual(await store.getBlobEncoded(input.canonical.hash, 'gzip'), input.canonical.gzip);
      assert.equal(brotliDecompressSync((await store.getBlobEncoded(input.canonical.hash, 'br'))!).toString(), canonical);
      assert.equal(gunzipSync((await store.getBlobEncoded(input.original.hash, 'gzip'))!).toString(), original);
      assert.equal(await store.getBlobEncoded(input.original.hash, 'br'), undefined, 'no brotli copy was given for the original');
      const yaml = renditionText('blobs', 'yaml');
      assert.equal(brotliDecompressSync((await store.getBlobEncoded(hashOf(yaml), 'br'))!).toString(), yaml);
      const missing = hashOf('never stored');
      assert.equal(await store.getBlob(missing), undefined);
      assert.equal(await store.getBlobEncoded(missing, 'gzip'), undefined);
      assert.equal(await store.getBlobEncoded(missing, 'br'), undefined);

      // The original's bytes come back as a rendition with a brotli copy: that copy is kept.
      await store.putRendition(id, 1, 'xml', blobOf(Buffer.from(original), true));
      assert.equal(brotliDecompressSync((await store.getBlobEncoded(input.original.hash, 'br'))!).toString(), original);
      assert.equal(gunzipSync((await store.getBlob(input.original.hash))!).toString(), original);
    }));

    test('jobs: pendingFormats become queued jobs; findJob, getJob and countJobs report them', withStore(async (store) => {
      const id = 'df0c0000-0000-4000-8000-000000000001';
      const t0 = Date.now();
      const { jobs } = await store.createDocument(newDoc(id), revision('jobs', fields('Jobs'), { pending: ['xml', 'yaml'] }), audit('document.create', id));
      const t1 = Date.now();
      assert.equal(jobs.length, 2);
      assert.equal(new Set(jobs).size, 2);
      const [xmlJob, yamlJob] = [(await store.getJob(jobs[0]!))!, (await store.getJob(jobs[1]!))!];
      assert.deepEqual([{ ...xmlJob, createdAt: '', updatedAt: '' }, { ...yamlJob, createdAt: '', updatedAt: '' }].map(present), [
        { id: jobs[0], documentId: id, revision: 1, format: 'xml', status: 'queued', attempts: 0, createdAt: '', updatedAt: '' },
        { id: jobs[1], documentId: id, revision: 1, format: 'yaml', status: 'queued', attempts: 0, createdAt: '', updatedAt: '' },
      ]);
      assertStamp(xmlJob.createdAt, t0, t1, 'job createdAt');
      assertStamp(xmlJob.updatedAt, t0, t1, 'job updatedAt');
      assert.deepEqual(await store.findJob(id, 1, 'xml'), xmlJob);
      assert.deepEqual(await store.findJob(id, 1, 'yaml'), yamlJob);
      assert.equal(await store.findJob(id, 1, 'json'), undefined);
      assert.equal(await store.findJob(id, 2, 'xml'), undefined);
      assert.equal(await store.getJob('df0c0000-0000-4000-8000-00000000dead'), undefined);
      assert.deepEqual([await store.countJobs('queued'), await store.countJobs('running'), await store.countJobs('done'), await store.countJobs('failed')], [2, 0, 0, 0]);
      assert.equal(await store.getRendition(id, 1, 'xml'), undefined, 'a queued job is no rendition yet');

      const next = await store.replaceDocument(id, revision('jobs2', fields('Jobs 2'), { pending: ['xml'] }), audit('document.replace', id));
      assert.equal(next.jobs.length, 1);
      assert.deepEqual(await store.findJob(id, 2, 'xml').then((j) => j && [j.id, j.revision, j.status]), [next.jobs[0], 2, 'queued']);
      assert.equal((await store.findJob(id, 1, 'xml'))?.id, jobs[0], 'the first revision keeps its own job');
      assert.equal(await store.countJobs('queued'), 3);
    }));

    test('claimJob hands each job to exactly one of three concurrent claimers', withStore(async (store) => {
      const expected = new Set<string>();
      for (let i = 0; i < 10; i++) {
        const id = `ef0c0000-0000-4000-8000-0000000000${String(i).padStart(2, '0')}`;
        const { jobs } = await store.createDocument(newDoc(id), revision(`claim${i}`, fields(`Claim ${i}`), { pending: ['xml', 'yaml'] }), audit('document.create', id));
        for (const job of jobs) expected.add(job);
      }
      assert.equal(expected.size, 20);

      const claimLoop = async (worker: string) => {
        const got: { id: string; status: string; attempts: number; worker: string }[] = [];
        for (let job = await store.claimJob(worker); job; job = await store.claimJob(worker)) {
          got.push({ id: job.id, status: job.status, attempts: job.attempts, worker });
          // A store handing out the same job again would keep this loop going for ever.
          if (got.length > 20) break;
        }
        return got;
      };
      const claims = (await Promise.all(['w1', 'w2', 'w3'].map(claimLoop))).flat();
      assert.equal(claims.length, 20, `20 claims in all, got ${claims.length}`);
      assert.deepEqual(new Set(claims.map((c) => c.id)), expected, 'every job claimed once');
      for (const c of claims) assert.deepEqual([c.status, c.attempts], ['running', 1], `job ${c.id} as claimed by ${c.worker}`);
      assert.deepEqual([await store.countJobs('queued'), await store.countJobs('running')], [0, 20]);
      assert.equal(await store.claimJob('w4'), undefined);
      assert.equal((await store.getJob(claims[0]!.id))?.status, 'running');
    }));

    test('finishJob: a rendition makes the job done and the rendition servable; an error makes it failed', withStore(async (store) => {
      const id = 'ef1c0000-0000-4000-8000-000000000001';
      await store.createDocument(newDoc(id), revision('fin', fields('Finish')), audit('document.create', id));
      const { jobs } = await store.replaceDocument(id, revision('fin2', fields('Finish 2'), { pending: ['xml', 'yaml'] }), audit('document.replace', id));
      const first = (await store.claimJob('w1'))!;
      const second = (await store.claimJob('w1'))!;
      assert.deepEqual(new Set([first.id, second.id]), new Set(jobs));
      const made = renditionText('fin2', first.format);

      await store.finishJob(first.id, { rendition: blobOf(Buffer.from(made), true) });
      await store.finishJob(second.id, { error: 'XML serializer failed: unexpected end of input at /catalog/groups/3' });

      const done = (await store.getJob(first.id))!;
      assert.deepEqual([done.status, done.error, done.revision, done.format], ['done', undefined, 2, first.format]);
      assert.ok(done.updatedAt >= done.createdAt);
      assert.deepEqual(await store.getRendition(id, 2, first.format), { hash: hashOf(made), size: sizeOf(made) });
      assert.equal(await blobText(store, hashOf(made)), made);
      assert.equal(brotliDecompressSync((await store.getBlobEncoded(hashOf(made), 'br'))!).toString(), made);
      assert.deepEqual(await store.findJob(id, 2, first.format).then((j) => j?.status), 'done');

      const failed = (await store.getJob(second.id))!;
      assert.deepEqual([failed.status, failed.error], ['failed', 'XML serializer failed: unexpected end of input at /catalog/groups/3']);
      assert.equal(await store.getRendition(id, 2, second.format), undefined);
      assert.deepEqual([await store.countJobs('queued'), await store.countJobs('running'), await store.countJobs('done'), await store.countJobs('failed')], [0, 0, 1, 1]);

      // A job whose document was deleted while it ran: finishing it is a no-op, not an error, and keeps no blob.
      const other = 'ef1c0000-0000-4000-8000-000000000002';
      await store.createDocument(newDoc(other), revision('gone', fields('Gone'), { pending: ['yaml'] }), audit('document.create', other));
      const orphan = (await store.claimJob('w2'))!;
      assert.equal(orphan.documentId, other);
      await store.deleteDocument(other, audit('document.delete', other));
      await store.finishJob(orphan.id, { rendition: blobOf(Buffer.from('orphaned rendition'), true) });
      assert.equal(await store.getJob(orphan.id), undefined);
      assert.equal(await store.getRendition(other, 1, 'yaml'), undefined);
      assert.equal(await store.getBlob(hashOf('orphaned rendition')), undefined);
    }));

    test('users and tokens: ensureUser, createToken, findToken only for live tokens, listTokens, revokeToken, countTokens', withStore(async (store) => {
      const t0 = Date.now();
      const alice = await store.ensureUser('alice');
      const t1 = Date.now();
      assert.equal(alice.name, 'alice');
      assertStamp(alice.createdAt, t0, t1, 'user createdAt');
      assert.deepEqual(await store.ensureUser('alice'), alice, 'ensureUser is idempotent');
      const bobs = await Promise.all(Array.from({ length: 5 }, () => store.ensureUser('bob')));
      assert.equal(new Set(bobs.map((b) => b.id)).size, 1, 'concurrent ensureUser of one name make one user');
      assert.notEqual(bobs[0]!.id, alice.id);
      const carol = await store.ensureUser('carol');

      const now = new Date();
      const iso = (ms: number) => new Date(now.getTime() + ms).toISOString();
      const tokenAudit = (token: string) => ({ actor: 'cli:root', action: 'token.create', detail: { token } });
      await store.createToken({ id: 'tok-alice', userId: alice.id, hash: 'h-alice', role: 'reader' }, tokenAudit('tok-alice'));
      await store.createToken({ id: 'tok-bob', userId: bobs[0]!.id, hash: 'h-bob', role: 'admin', expiresAt: iso(3_600_000) }, tokenAudit('tok-bob'));
      await store.createToken({ id: 'tok-carol', userId: carol.id, hash: 'h-carol', role: 'writer', expiresAt: iso(-1000) }, tokenAudit('tok-carol'));
      const t2 = Date.now();
      assert.equal(await store.countTokens(), 3);

      const found = (await store.findToken('h-alice', iso(0)))!;
      assert.deepEqual({ ...found, createdAt: '' }, { id: 'tok-alice', userId: alice.id, userName: 'alice', role: 'reader', createdAt: '' });
      assertStamp(found.createdAt, t1, t2, 'token createdAt');
      const bob = (await store.findToken('h-bob', iso(0)))!;
      assert.deepEqual([bob.id, bob.userName, bob.role, bob.expiresAt], ['tok-bob', 'bob', 'admin', iso(3_600_000)]);
      assert.equal(await store.findToken('h-carol', iso(0)), undefined, 'expired');
      assert.equal((await store.findToken('h-carol', iso(-2000)))?.id, 'tok-carol', 'expiry is judged at the time given');
      assert.equal(await store.findToken('h-bob', iso(3_600_000)), undefined, 'a token is dead at its expiry instant');
      assert.equal(await store.findToken('h-nobody', iso(0)), undefined);

      // Use is recorded, at most once a minute.
      const touched = async (id: string) => (await store.listTokens()).find((t) => t.id === id)?.lastUsedAt;
      assert.equal(await touched('tok-alice'), iso(0));
      await store.findToken('h-alice', iso(30_000));
      assert.equal(await touched('tok-alice'), iso(0));
      await store.findToken('h-alice', iso(90_000));
      assert.equal(await touched('tok-alice'), iso(90_000));

      const revokeAudit = (token: string) => ({ actor: 'cli:root', action: 'token.revoke', detail: { token } });
      assert.equal(await store.revokeToken('tok-alice', revokeAudit('tok-alice')), true);
      assert.equal(await store.revokeToken('tok-alice', revokeAudit('tok-alice')), false);
      assert.equal(await store.revokeToken('tok-nobody', revokeAudit('tok-nobody')), false);
      assert.deepEqual((await store.listAudit(10)).map((e) => [e.action, e.detail]), [
        ['token.revoke', { token: 'tok-alice' }],
        ['token.create', { token: 'tok-carol' }],
        ['token.create', { token: 'tok-bob' }],
        ['token.create', { token: 'tok-alice' }],
      ], 'each token made and each revocation is audited; a revocation that changed nothing is not');
      assert.equal(await store.findToken('h-alice', iso(100_000)), undefined, 'revoked');
      assert.equal((await store.findToken('h-bob', iso(100_000)))?.id, 'tok-bob', 'revoking one token leaves the others');

      const listed = [...(await store.listTokens())].sort((a, b) => (a.id < b.id ? -1 : 1));
      assert.deepEqual(listed.map((t) => [t.id, t.userId, t.userName, t.role, t.expiresAt, t.revokedAt !== undefined]), [
        ['tok-alice', alice.id, 'alice', 'reader', undefined, true],
        ['tok-bob', bobs[0]!.id, 'bob', 'admin', iso(3_600_000), false],
        ['tok-carol', carol.id, 'carol', 'writer', iso(-1000), false],
      ]);
      assertStamp(listed[0]!.revokedAt, t2, Date.now(), 'revokedAt');
      assert.equal(await store.countTokens(), 3, 'revoked and expired tokens are still counted');
    }));

    test('attachments: stored with a revision, replaced, dropped with their resource, kept under a legal hold, gone with the document', withStore(async (store) => {
      const a = '8f2c0000-0000-4000-8000-00000000000a';
      const [r1, r2] = ['8f2c0000-0000-4000-8000-0000000000r1', '8f2c0000-0000-4000-8000-0000000000r2'];
      const png = Buffer.from('\x89PNG not really, but bytes that do not shrink: ' + 'x'.repeat(10));
      const plain: BlobInput = { hash: blobOf(png).hash, size: png.length, gzip: png, plain: true };
      const text = Buffer.from('policy text '.repeat(500));
      const gzipped = blobOf(text);
      await store.createDocument(newDoc(a), revision('a1', fields('With files')), audit('document.create', a));
      await store.replaceDocument(a, { ...revision('a2', fields('With files')), resources: [r1, r2], attachments: [
        { resourceUuid: r1, blob: plain, mediaType: 'image/png', filename: 'diagram é.png' },
        { resourceUuid: r2, blob: gzipped, mediaType: 'text/plain', filename: 'policy.txt' },
      ] }, audit('attachment.create', a));
      const one = (await store.getAttachment(a, r1))!;
      assert.deepEqual({ ...one, createdAt: undefined }, { resourceUuid: r1, hash: plain.hash, size: png.length, mediaType: 'image/png', filename: 'diagram é.png', createdAt: undefined });
      assert.deepEqual(await store.getAttachmentBytes(plain.hash), { data: png, plain: true });
      const two = (await store.getAttachmentBytes(gzipped.hash))!;
      assert.equal(two.plain, false);
      assert.deepEqual(gunzipSync(two.data), text);
      assert.equal(await store.getAttachment(a, 'no-such-resource'), undefined);

      // The same bytes written again as gzip (a content blob, say) become gzip for every reader.
      await store.putRendition(a, 2, 'xml', blobOf(png));
      assert.deepEqual(gunzipSync((await store.getBlob(plain.hash))!), png);
      assert.deepEqual(gunzipSync((await store.getAttachmentBytes(plain.hash))!.data), png);

      // Without `resources`, every file stays; a revision without r2 drops r2's file and blob.
      await store.replaceDocument(a, revision('a3', fields('With files')), audit('document.replace', a));
      assert.ok(await store.getAttachment(a, r2));
      await store.replaceDocument(a, { ...revision('a4', fields('With files')), resources: [r1] }, audit('document.replace', a));
      assert.equal(await store.getAttachment(a, r2), undefined);
      assert.equal(await store.getAttachmentBytes(gzipped.hash), undefined, 'the unshared blob is collected');

      // Under a legal hold a revision without the resource keeps its file.
      await store.setAccess(a, { legalHold: true }, audit('access.change', a));
      await store.replaceDocument(a, { ...revision('a5', fields('With files')), resources: [] }, audit('document.replace', a));
      assert.ok(await store.getAttachment(a, r1));
      await store.setAccess(a, { legalHold: false }, audit('access.change', a));

      // Replacing a file collects the old bytes.
      const newer = blobOf(Buffer.from('second drawing '.repeat(100)));
      await store.replaceDocument(a, { ...revision('a6', fields('With files')), resources: [r1], attachments: [{ resourceUuid: r1, blob: newer, mediaType: 'image/svg+xml', filename: 'd.svg' }] }, audit('attachment.replace', a));
      assert.equal((await store.getAttachment(a, r1))!.hash, newer.hash);
      assert.equal((await store.getAttachment(a, r1))!.mediaType, 'image/svg+xml');
      assert.ok(await store.getAttachmentBytes(plain.hash), 'the old bytes stay while revision 2 has them as a rendition');

      await store.deleteDocument(a, audit('document.delete', a));
      assert.equal(await store.getAttachment(a, r1), undefined);
      assert.equal(await store.getAttachmentBytes(newer.hash), undefined);
    }));

    test('replaceDocument with ifRevision: refused as stale once another revision is current, and nothing changes', withStore(async (store) => {
      const a = '8f3c0000-0000-4000-8000-00000000000a';
      await store.createDocument(newDoc(a), revision('a1', fields('Guarded')), audit('document.create', a));
      assert.equal((await store.replaceDocument(a, revision('a2', fields('Guarded 2')), audit('document.replace', a), 1)).revision, 2);
      await rejectsWith(store.replaceDocument(a, revision('a3', fields('Lost')), audit('document.replace', a), 1), 'stale');
      assert.equal((await store.getDocument(a))!.title, 'Guarded 2');
      assert.deepEqual((await store.listRevisions(a)).map((r) => r.number), [2, 1]);
      // Of many writers holding revision 2, exactly one gets in.
      const outcomes = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => store.replaceDocument(a, revision(`race ${i}`, fields(`Race ${i}`)), audit('document.replace', a), 2)));
      assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
      assert.deepEqual((await store.listRevisions(a)).map((r) => r.number), [3, 2, 1]);
    }));

    test('snapshots: create, list by kind, get, update (old copy collected), delete; legal hold; gone with the document', withStore(async (store) => {
      const a = '8f4c0000-0000-4000-8000-00000000000a';
      const [s1, s2, s3] = ['8f4c0000-0000-4000-8000-0000000000s1', '8f4c0000-0000-4000-8000-0000000000s2', '8f4c0000-0000-4000-8000-0000000000s3'];
      await store.createDocument(newDoc(a), revision('a1', fields('Snapped')), audit('document.create', a));
      const copy = (text: string) => blobOf(Buffer.from(canonicalText(text)));
      const base = { documentId: a, revision: 1, author: 'alice' };
      await store.createSnapshot({ ...base, id: s1, kind: 'content', labels: ['v1'], types: [], createdAt: '2024-06-01T00:00:00.000Z' }, copy('snap 1'), audit('snapshot.create', a));
      await store.createSnapshot({ ...base, id: s2, kind: 'content', description: 'second', labels: [], types: ['audit'], createdAt: '2024-06-02T00:00:00.000Z' }, copy('snap 2'), audit('snapshot.create', a));
      await store.createSnapshot({ ...base, id: s3, kind: 'resolved', labels: [], types: ['resolved-profile'], createdAt: '2024-06-03T00:00:00.000Z' }, copy('resolved 1'), audit('resolved-snapshot.create', a));
      await rejectsWith(store.createSnapshot({ ...base, documentId: 'no-such-document', id: 'x', kind: 'content', labels: [], types: [], createdAt: '2024-06-01T00:00:00.000Z' }, copy('orphan'), audit('snapshot.create', a)), 'not-found');

      assert.deepEqual((await store.listSnapshots(a, 'content')).map((s) => [s.id, s.description, s.labels, s.types, s.canonicalHash]),
        [[s1, undefined, ['v1'], [], copy('snap 1').hash], [s2, 'second', [], ['audit'], copy('snap 2').hash]]);
      assert.deepEqual((await store.listSnapshots(a, 'resolved')).map((s) => s.id), [s3]);
      assert.equal(await store.getSnapshot(a, 'resolved', s1), undefined, 'a content snapshot is not a resolved one');
      const got = (await store.getSnapshot(a, 'content', s1))!;
      assert.equal(got.createdAt, '2024-06-01T00:00:00.000Z');
      assert.equal(got.revision, 1);

      await store.updateSnapshot(a, 'content', s1, { description: 'now described', labels: ['v1', 'final'], types: ['x'] }, copy('snap 1 annotated'), audit('snapshot.update', a));
      const updated = (await store.getSnapshot(a, 'content', s1))!;
      assert.deepEqual([updated.description, updated.labels, updated.types, updated.createdAt], ['now described', ['v1', 'final'], ['x'], '2024-06-01T00:00:00.000Z']);
      assert.equal(await blobText(store, updated.canonicalHash), canonicalText('snap 1 annotated'));
      assert.equal(await store.getBlob(copy('snap 1').hash), undefined, 'the replaced copy is collected');
      await rejectsWith(store.updateSnapshot(a, 'content', 'nope', { labels: [], types: [] }, copy('n'), audit('snapshot.update', a)), 'not-found');

      await store.setAccess(a, { legalHold: true }, audit('access.change', a));
      await rejectsWith(store.deleteSnapshot(a, 'content', s2, audit('snapshot.delete', a)), 'legal-hold');
      await store.setAccess(a, { legalHold: false }, audit('access.change', a));
      await store.deleteSnapshot(a, 'content', s2, audit('snapshot.delete', a));
      assert.equal(await store.getSnapshot(a, 'content', s2), undefined);
      assert.equal(await store.getBlob(copy('snap 2').hash), undefined);
      await rejectsWith(store.deleteSnapshot(a, 'content', s2, audit('snapshot.delete', a)), 'not-found');

      await store.deleteDocument(a, audit('document.delete', a));
      assert.deepEqual(await store.listSnapshots(a, 'content'), []);
      assert.deepEqual(await store.listSnapshots(a, 'resolved'), []);
      assert.equal(await store.getBlob(updated.canonicalHash), undefined);
      assert.equal(await store.getBlob(copy('resolved 1').hash), undefined);
    }));

    test('findings: kept with the revision they were found on, each field as written; none when none were given', withStore(async (store) => {
      const id = 'f1d0c000-0000-4000-8000-000000000001';
      const warning: StoredFinding = {
        code: 'constraint', level: 'WARNING', message: 'port-range start "0" — below 1', path: '/component-definition/components/0/protocols/0/port-ranges/0',
        constraintId: 'oscal-port-range-start', metapath: '/component-definition[1]/component[1]/protocol[1]/port-range[1]/@start', line: 12, column: 7, source: 'oscal-component-definition',
      };
      const bare: StoredFinding = { code: 'constraint', level: 'INFORMATIONAL', message: 'note', path: '' };
      await store.createDocument(newDoc(id), { ...revision('found1', fields('Found')), findings: [warning, bare] }, audit('document.create', id));
      await store.replaceDocument(id, revision('found2', fields('Found v2')), audit('document.replace', id));
      assert.deepEqual((await store.listRevisions(id)).map((r) => [r.number, r.findings]), [[2, []], [1, [warning, bare]]]);
      assert.deepEqual((await store.getRevision(id, 1))!.findings, [warning, bare]);
    }));

    test('aliases: given ones replaced as a set; metadata ones follow the current revision, also when it is deleted; found by key; gone with the document', withStore(async (store) => {
      const a = 'a11a5000-0000-4000-8000-000000000001';
      const b = 'a11a5000-0000-4000-8000-000000000002';
      const entry = (alias: string, key: string) => ({ alias, key });
      await store.createDocument(newDoc(a), revision('alias a1', fields('A', { aliases: [entry('https://x.org/a.json', 'url:https://x.org/a.json'), entry('https://x.org/a.json', 'name:a')] })), audit('document.create', a));
      await store.createDocument(newDoc(b), revision('alias b1', fields('B')), audit('document.create', b));
      await store.setAliases(b, [entry('a.xml', 'name:a'), entry('b.yaml', 'name:b')], audit('document.aliases', b));
      assert.deepEqual(await store.findAliases(['name:a']), [{ documentId: a, key: 'name:a' }, { documentId: b, key: 'name:a' }]);
      assert.deepEqual(await store.findAliases(['url:https://x.org/a.json', 'name:b', 'name:none']), [{ documentId: a, key: 'url:https://x.org/a.json' }, { documentId: b, key: 'name:b' }]);
      assert.deepEqual(await store.listAliases(b), [{ source: 'given', alias: 'a.xml', key: 'name:a' }, { source: 'given', alias: 'b.yaml', key: 'name:b' }]);
      await store.setAliases(b, [entry('c.json', 'name:c')], audit('document.aliases', b));
      assert.deepEqual((await store.listAliases(b)).map((r) => r.alias), ['c.json']);
      assert.equal((await store.listAudit(10, { action: 'document.aliases' })).length, 2);
      await rejectsWith(store.setAliases('a11a5000-0000-4000-8000-00000000dead', [], audit('document.aliases', b)), 'not-found');

      await store.replaceDocument(a, revision('alias a2', fields('A v2', { aliases: [entry('urn:x:a', 'name:urn:x:a')] })), audit('document.replace', a));
      assert.deepEqual((await store.listAliases(a)).map((r) => [r.source, r.alias]), [['metadata', 'urn:x:a']]);
      await store.deleteRevision(a, 2, audit('revision.delete', a));
      assert.deepEqual([...new Set((await store.listAliases(a)).map((r) => r.alias))], ['https://x.org/a.json'], 'back to revision 1\'s metadata');

      await store.deleteDocument(a, audit('document.delete', a));
      assert.deepEqual(await store.listAliases(a), []);
      assert.deepEqual(await store.findAliases(['name:a', 'url:https://x.org/a.json']), []);
    }));

    test('constraint sets: put creates then replaces (keeping who and when first), get, list without text, delete', withStore(async (store) => {
      const text = (n: number) => `<METASCHEMA-CONSTRAINTS xmlns="http://csrc.nist.gov/ns/oscal/metaschema/1.0"><!-- ${n} --></METASCHEMA-CONSTRAINTS>`;
      const set = (name: string, n: number) => ({ name, text: text(n), hash: hashOf(text(n)), size: sizeOf(text(n)) });
      assert.deepEqual(await store.listConstraintSets(), []);
      assert.equal(await store.getConstraintSet('fedramp'), undefined);
      const t0 = Date.now();
      assert.deepEqual(await store.putConstraintSet(set('fedramp', 1), { actor: 'admin', action: 'constraint-set.put', detail: { name: 'fedramp' } }), { created: true });
      assert.deepEqual(await store.putConstraintSet(set('agency-rules', 2), { actor: 'root', action: 'constraint-set.put', detail: { name: 'agency-rules' } }), { created: true });
      const t1 = Date.now();
      const first = (await store.getConstraintSet('fedramp'))!;
      assert.deepEqual({ ...first, createdAt: '', updatedAt: '' }, { ...set('fedramp', 1), createdBy: 'admin', createdAt: '', updatedAt: '' });
      assertStamp(first.createdAt, t0, t1, 'createdAt');
      await sleep(20);
      assert.deepEqual(await store.putConstraintSet(set('fedramp', 3), { actor: 'root', action: 'constraint-set.put', detail: { name: 'fedramp' } }), { created: false });
      const replaced = (await store.getConstraintSet('fedramp'))!;
      assert.deepEqual([replaced.text, replaced.hash, replaced.createdBy, replaced.createdAt], [text(3), hashOf(text(3)), 'admin', first.createdAt]);
      assert.ok(Date.parse(replaced.updatedAt) > Date.parse(first.updatedAt), 'a replacement moves updatedAt');
      assert.deepEqual((await store.listConstraintSets()).map((s) => [s.name, s.size, 'text' in s]), [['agency-rules', sizeOf(text(2)), false], ['fedramp', sizeOf(text(3)), false]]);
      assert.equal(await store.deleteConstraintSet('fedramp', { actor: 'root', action: 'constraint-set.delete', detail: { name: 'fedramp' } }), true);
      assert.equal(await store.deleteConstraintSet('fedramp', { actor: 'root', action: 'constraint-set.delete', detail: { name: 'fedramp' } }), false);
      assert.equal(await store.getConstraintSet('fedramp'), undefined);
      assert.deepEqual((await store.listAudit(10)).map((e) => [e.actor, e.action, e.detail]), [
        ['root', 'constraint-set.delete', { name: 'fedramp' }],
        ['root', 'constraint-set.put', { name: 'fedramp' }],
        ['root', 'constraint-set.put', { name: 'agency-rules' }],
        ['admin', 'constraint-set.put', { name: 'fedramp' }],
      ], 'a delete of a missing set is not audited');
    }));

    test('audit: each write is logged with actor, action, documentId and detail, newest first', withStore(async (store) => {
      const a = 'ff0c0000-0000-4000-8000-00000000000a';
      const b = 'ff0c0000-0000-4000-8000-00000000000b';
      const t0 = Date.now();
      await store.createDocument(newDoc(a), revision('au1', fields('Audited')), { actor: 'alice', action: 'document.create', documentId: a, detail: { model: 'catalog', format: 'json' } });
      await store.createDocument(newDoc(b, 'bob'), revision('au2', fields('Audited too')), { actor: 'system', action: 'document.import' });
      await store.replaceDocument(a, revision('au3', fields('Audited v2')), { actor: 'carol', action: 'document.replace', documentId: a, detail: { format: 'yaml', sizes: [1, 2.5, -3], nested: { ok: true, none: null }, note: 'été ✓ "q"' } });
      await store.setAccess(a, { visibility: 'public' }, { actor: 'alice', action: 'access.change', documentId: a, detail: { visibility: 'public', grants: [{ principal: 'user:carol', permission: 'read' }] } });
      await store.deleteDocument(b, { actor: 'bob', action: 'document.delete', documentId: b, detail: { model: 'catalog' } });
      const t1 = Date.now();

      const entries = await store.listAudit(10);
      assert.deepEqual(entries.map(({ id: _, at: __, ...e }) => e), [
        { actor: 'bob', action: 'document.delete', documentId: b, detail: { model: 'catalog' } },
        { actor: 'alice', action: 'access.change', documentId: a, detail: { visibility: 'public', grants: [{ principal: 'user:carol', permission: 'read' }] } },
        { actor: 'carol', action: 'document.replace', documentId: a, detail: { format: 'yaml', sizes: [1, 2.5, -3], nested: { ok: true, none: null }, note: 'été ✓ "q"' } },
        { actor: 'system', action: 'document.import' },
        { actor: 'alice', action: 'document.create', documentId: a, detail: { model: 'catalog', format: 'json' } },
      ]);
      for (const e of entries) {
        assert.equal(typeof e.id, 'number');
        assertStamp(e.at, t0, t1, 'audit at');
      }
      assert.deepEqual(entries.map((e) => e.id), [...entries.map((e) => e.id)].sort((x, y) => y - x), 'ids fall, newest first');
      assert.equal(new Set(entries.map((e) => e.id)).size, 5);
      assert.deepEqual((await store.listAudit(2)).map((e) => e.action), ['document.delete', 'access.change']);
    }));

    test('audit filters: before (paging), since and until, actor, action, document, combined', withStore(async (store) => {
      const a = 'ff0c0000-0000-4000-8000-0000000000a1';
      const b = 'ff0c0000-0000-4000-8000-0000000000b1';
      await store.createDocument(newDoc(a), revision('af1', fields('A')), { actor: 'alice', action: 'document.create', documentId: a });
      await store.createDocument(newDoc(b, 'bob'), revision('af2', fields('B')), { actor: 'bob', action: 'document.create', documentId: b });
      await sleep(5);
      const middle = new Date().toISOString();
      await sleep(5);
      await store.replaceDocument(a, revision('af3', fields('A2')), { actor: 'bob', action: 'document.replace', documentId: a });
      await sleep(5);
      await store.setAccess(b, { visibility: 'public' }, { actor: 'bob', action: 'access.change', documentId: b });
      const all = await store.listAudit(10);
      const summary = (entries: { actor: string; action: string; documentId?: string }[]) => entries.map((e) => `${e.actor} ${e.action} ${e.documentId === a ? 'a' : 'b'}`);
      assert.deepEqual(summary(all), ['bob access.change b', 'bob document.replace a', 'bob document.create b', 'alice document.create a']);

      assert.deepEqual(summary(await store.listAudit(2, { before: all[1]!.id })), ['bob document.create b', 'alice document.create a'], 'before: strictly older, newest first');
      assert.deepEqual(summary(await store.listAudit(10, { since: middle })), ['bob access.change b', 'bob document.replace a']);
      assert.deepEqual(summary(await store.listAudit(10, { until: middle })), ['bob document.create b', 'alice document.create a']);
      assert.deepEqual(summary(await store.listAudit(10, { since: all[1]!.at, until: all[0]!.at })), ['bob document.replace a'], 'since inclusive, until exclusive');
      assert.deepEqual(summary(await store.listAudit(10, { actor: 'alice' })), ['alice document.create a']);
      assert.deepEqual(summary(await store.listAudit(10, { action: 'document.create' })), ['bob document.create b', 'alice document.create a']);
      assert.deepEqual(summary(await store.listAudit(10, { documentId: a })), ['bob document.replace a', 'alice document.create a']);
      assert.deepEqual(summary(await store.listAudit(10, { actor: 'bob', documentId: b, since: middle })), ['bob access.change b']);
      assert.deepEqual(await store.listAudit(10, { actor: "bob' OR '1'='1" }), [], 'values are bound, never spliced into the SQL');
    }));
  });
}

// ---------------------------------------------------------------------------------------------
// Backends

/** Through the factory the server uses, checking it built the backend under test. */
async function openThrough(config: { dataDir: string; databaseUrl?: string }, kind: Store['kind']): Promise<Store> {
  const store = await openStore(config);
  if (store.kind !== kind) {
    await store.close();
    throw new Error(`openStore gave a ${store.kind} store where a ${kind} one was configured`);
  }
  return store;
}

{
  const dir = mkdtempSync(join(tmpdir(), 'oscal-depot-sqlite-'));
  let opened = 0;
  conformance('SQLite', () => openThrough({ dataDir: join(dir, `store-${++opened}`) }, 'sqlite'), async () => rmSync(dir, { recursive: true, force: true }));
}

describe('SQLite: document records kept between writes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'oscal-depot-sqlite-shared-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const id = '9a0c0000-0000-4000-8000-000000000001';

  test('a write through this connection is read at once, one through another within milliseconds', async () => {
    const here = await openThrough({ dataDir: dir }, 'sqlite');
    const other = await openThrough({ dataDir: dir }, 'sqlite');
    try {
      await here.createDocument(newDoc(id), revision('one', fields('One')), audit('document.create', id));
      assert.equal((await here.getDocument(id))!.visibility, 'private');
      // Another process (or a worker thread's connection) writes: the record kept here is dropped.
      await other.setAccess(id, { visibility: 'public' }, audit('access.change', id));
      await sleep(5);
      assert.equal((await here.getDocument(id))!.visibility, 'public');
      await here.setAccess(id, { visibility: 'private', legalHold: true }, audit('access.change', id));
      assert.deepEqual([(await here.getDocument(id))!.visibility, (await here.getDocument(id))!.legalHold], ['private', true]);
      await here.setAccess(id, { legalHold: false }, audit('access.change', id));
      await other.replaceDocument(id, revision('two', fields('Two')), audit('document.replace', id));
      await sleep(5);
      const replaced = (await here.getDocument(id))!;
      assert.deepEqual([replaced.revision, replaced.title], [2, 'Two']);
      assert.throws(() => {
        (replaced as { title: string }).title = 'changed by a caller';
      }, TypeError, 'a kept record is shared by every caller, so it cannot be changed');
      await other.deleteDocument(id, audit('document.delete', id));
      await sleep(5);
      assert.equal(await here.getDocument(id), undefined);
    } finally {
      await here.close();
      await other.close();
    }
  });
});

const databaseUrl = TEST_DATABASE_URL;
if (databaseUrl) {
  const databases = new ScratchDatabases(databaseUrl);
  // A PostgreSQL store keeps nothing in the data directory, but the configuration names one.
  const dataDir = mkdtempSync(join(tmpdir(), 'oscal-depot-pg-'));
  conformance('PostgreSQL', async () => openThrough({ dataDir, databaseUrl: await databases.create() }, 'postgres'), async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await databases.dropAll();
  });
} else {
  // support/postgres.js has said so on the console.
  test(`store conformance: ${SKIP_MESSAGE}`, { skip: true }, () => {});
}
