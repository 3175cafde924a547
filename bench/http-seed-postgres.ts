/**
 * Child process of the HTTP benchmark on PostgreSQL: seeds a fresh database with the same small
 * catalogs as bench/http-seed.ts, before the server opens it. Prints {"ms": …, "how": …}.
 *
 * The store's createDocument is one transaction of seven statements, each a round trip, with a
 * WAL flush at commit: a few thousand a second at best, too slow for 100 000 in the time budget.
 * So the first PROBES documents go through createDocument, their rows are read back and compared
 * column by column with what rowsOf() makes of the same arguments, and the rest are written as
 * those rows: multi-row INSERTs, BATCH documents to a transaction. Columns the database fills
 * from a sequence (audit_log.id, revisions.record_id) are left to it, as createDocument leaves
 * them. When the store's rows change, the check fails and says which: update rowsOf() to match.
 *
 * Usage: node dist/bench/http-seed-postgres.js <database url> <count>
 */
import { deepStrictEqual } from 'node:assert/strict';
import { tmpdir } from 'node:os';
import postgres from 'postgres';
import { openStore } from '../src/store/index.js';
import { fieldColumns } from '../src/store/rows.js';
import { SeedDocuments, type CreateArgs } from './http-seed-data.js';

const BATCH = 1000;
const PROBES = 20;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const [url, countArg] = process.argv.slice(2);
if (!url || !countArg) throw new Error('usage: http-seed-postgres.js <database url> <count>');
const count = Number(countArg);
const seeds = new SeedDocuments(count);
const start = performance.now();

type Rows = {
  documents: Record<string, unknown>;
  revisions: Record<string, unknown>;
  renditions: Record<string, unknown>[];
  audit_log: Record<string, unknown>;
};

/** The rows PostgresStore.createDocument writes for these arguments, at this time (blobs aside). */
function rowsOf([doc, revision, audit]: CreateArgs, at: string): Rows {
  if (revision.pendingFormats.length) throw new Error('the seeded documents queue no rendition jobs');
  return {
    documents: {
      ...doc,
      legal_hold: false,
      ...fieldColumns(revision.fields),
      revision: 1,
      last_revision: 1,
      created_at: at,
      updated_at: at,
    },
    revisions: {
      document_id: doc.id,
      number: 1,
      canonical_hash: revision.canonical.hash,
      original_hash: revision.original.hash,
      original_format: revision.originalFormat,
      author: revision.author,
      created_at: at,
      fields: JSON.stringify(revision.fields),
    },
    renditions: revision.renditions.map((r) => ({
      document_id: doc.id,
      revision: 1,
      format: r.format,
      blob_hash: r.blob.hash,
    })),
    audit_log: {
      at,
      actor: audit.actor,
      action: audit.action,
      document_id: audit.documentId ?? null,
      detail: audit.detail ? JSON.stringify(audit.detail) : null,
    },
  };
}

// 1. The probes, through the store (which also creates the schema and the one shared blob).
const store = await openStore({ dataDir: tmpdir(), databaseUrl: url }, { connections: 1 });
const probes: CreateArgs[] = [];
for (let i = 0; i < PROBES; i++) {
  const args = seeds.args(i);
  probes.push(args);
  await store.createDocument(...args);
}
await store.close();

const sql = postgres(url, { max: 1, onnotice: () => {}, transform: { undefined: null } });
try {
  // 2. Their rows, read back, must be what rowsOf() makes: same columns, same values (times aside).
  const time = (value: unknown, what: string): string => {
    if (typeof value !== 'string' || !ISO.test(value))
      throw new Error(`${what} is ${JSON.stringify(value)}, not an ISO time`);
    return value;
  };
  const sequenced = new Set(
    (
      await sql`SELECT table_name || '.' || column_name AS c FROM information_schema.columns
    WHERE table_schema = current_schema() AND column_default LIKE 'nextval(%'`
    ).map((r) => r.c as string),
  );
  const written = (table: string, row: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(row).filter(([column]) => !sequenced.has(`${table}.${column}`)));
  for (const args of probes) {
    const id = args[0].id;
    const [doc] = await sql`SELECT * FROM documents WHERE id = ${id}`;
    const [revision] = await sql`SELECT * FROM revisions WHERE document_id = ${id}`;
    const renditions = await sql`SELECT * FROM renditions WHERE document_id = ${id} ORDER BY format`;
    const [audit] = await sql`SELECT * FROM audit_log WHERE document_id = ${id}`;
    const expected = rowsOf(args, time(doc!.created_at, 'documents.created_at'));
    expected.audit_log.at = time(audit!.at, 'audit_log.at');
    const actual = {
      documents: written('documents', doc!),
      revisions: written('revisions', revision!),
      renditions: renditions.map((r) => written('renditions', r)),
      audit_log: written('audit_log', audit!),
    };
    deepStrictEqual(
      actual,
      expected,
      'the rows createDocument writes have changed: update rowsOf() in bench/http-seed-postgres.ts to match',
    );
  }
  const hashes = new Set(
    probes.flatMap(([, r]) => [r.canonical.hash, r.original.hash, ...r.renditions.map((x) => x.blob.hash)]),
  );
  const [{ n }] = (await sql`SELECT COUNT(*)::int AS n FROM blobs WHERE hash IN ${sql([...hashes])}`) as unknown as [
    { n: number },
  ];
  if (hashes.size !== 1 || n !== 1)
    throw new Error(`expected the seeded documents to share one stored blob; ${hashes.size} hashes, ${n} stored`);

  // 3. The rest, as rows.
  for (let from = PROBES; from < count; from += BATCH) {
    const batch: Rows[] = [];
    for (let i = from; i < Math.min(count, from + BATCH); i++)
      batch.push(rowsOf(seeds.args(i), new Date().toISOString()));
    await sql.begin(async (tx) => {
      await tx`INSERT INTO documents ${tx(batch.map((b) => b.documents))}`;
      await tx`INSERT INTO revisions ${tx(batch.map((b) => b.revisions))}`;
      await tx`INSERT INTO renditions ${tx(batch.flatMap((b) => b.renditions))}`;
      await tx`INSERT INTO audit_log ${tx(batch.map((b) => b.audit_log))}`;
    });
  }
  // What autovacuum does within a minute of such a load; the planner's row estimates depend on it.
  await sql`ANALYZE`;
} finally {
  await sql.end({ timeout: 5 });
}
const ms = performance.now() - start;
console.log(
  JSON.stringify({
    ms,
    how: `as the rows createDocument writes (the first ${PROBES} through createDocument, their rows checked column by column), ${BATCH} documents to a multi-row INSERT transaction, then ANALYZE`,
  }),
);
