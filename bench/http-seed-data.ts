/**
 * The documents both seeders write (bench/http-seed.ts through SQLite's createDocument,
 * bench/http-seed-postgres.ts as PostgreSQL rows checked against createDocument's).
 *
 * Each document is a catalog as a JSON POST of it would leave it: its list fields in the documents
 * table, a revision, and its JSON rendition. The list reads only the documents table, so all
 * revisions point at one small canonical blob (the first document's), which keeps seeding to
 * the cost of the store's own writes.
 */
import { randomUUID } from 'node:crypto';
import { blobOf } from '../src/service/blobs.js';
import { CONTENT_UUID_SCHEME } from '../src/oscal/identifiers.js';
import type { BlobInput, DocumentFields, Store } from '../src/store/types.js';
import { seedTitle } from './http-support.js';

const OSCAL_VERSION = '1.1.2';
const BASE = Date.UTC(2024, 0, 1);

export type CreateArgs = Parameters<Store['createDocument']>;

export class SeedDocuments {
  private shared: BlobInput | undefined;

  constructor(readonly count: number) {}

  /** The arguments of createDocument for the i-th seeded catalog. */
  args(i: number): CreateArgs {
    const id = randomUUID();
    const documentIds = [{ scheme: CONTENT_UUID_SCHEME, identifier: id }];
    // Spread over the period, not in insertion order, so the last-modified sort has work to do.
    const lastModified = new Date(BASE + ((i * 7919) % this.count) * 60_000).toISOString();
    const fields: DocumentFields = {
      title: seedTitle(i),
      version: '1.0.0',
      oscalVersion: OSCAL_VERSION,
      lastModified,
      documentIds,
      markings: [],
    };
    if (!this.shared) {
      const content = {
        catalog: {
          uuid: randomUUID(),
          metadata: {
            title: fields.title,
            'last-modified': lastModified,
            version: '1.0.0',
            'oscal-version': OSCAL_VERSION,
            'document-ids': documentIds,
          },
        },
      };
      this.shared = blobOf(Buffer.from(JSON.stringify(content, null, 2) + '\n'));
    }
    const shared = this.shared;
    return [
      { id, model: 'catalog', owner: 'admin', visibility: 'private' },
      {
        canonical: shared,
        original: shared,
        originalFormat: 'json',
        author: 'admin',
        fields,
        renditions: [{ format: 'json', blob: shared }],
        pendingFormats: [],
      },
      { actor: 'admin', action: 'document.create', documentId: id, detail: { model: 'catalog', format: 'json' } },
    ];
  }
}
