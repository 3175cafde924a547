/**
 * The checks after a restart, per document the clients ever touched: through the HTTP API that it
 * is there or gone as the ledger demands, that its versions are numbered 1..N and each is a write
 * the clients sent (whole, once, in the order the acknowledgements imply), and that the current
 * content is the newest; through the store that every blob of every revision reads back to its
 * hash and that the original bytes are exactly those sent.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sha256 } from '../../../src/service/blobs.js';
import type { Store } from '../../../src/store/types.js';
import { api } from '../http.js';
import { expectation, type Attempt, type Ledger } from './ledger.js';

export interface Findings {
  documents: number;
  /** Of those, the ones the store no longer holds. */
  gone: number;
  revisions: number;
  /** Stored encodings (gzip, brotli) read back and hashed. */
  blobs: number;
  /** Acknowledged effects that are not there: acknowledged writes missing, acknowledged deletes undone. */
  losses: string[];
  /** Anything else the store should not hold or do. */
  problems: string[];
}

export interface Target {
  url: string;
  token: string;
  store: Store;
}

const TIMEOUT_MS = 30_000;
const RENDITIONS = ['xml', 'yaml'] as const;

export async function verify(ledger: Ledger, target: Target): Promise<Findings> {
  const findings: Findings = { documents: 0, gone: 0, revisions: 0, blobs: 0, losses: [], problems: [] };
  const documents = [...ledger.documents()];
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < documents.length) {
      const [id, attempts] = documents[next++]!;
      await new DocumentCheck(id, attempts, ledger, target, findings).run();
    }
  }));
  return findings;
}

const attemptName = (a: Attempt) => `${a.kind}${a.revision ? ` ${a.revision.marker}` : ''} (${a.outcome}${a.status ? ` ${a.status}` : ''}${a.settled ? `, ${a.settled} at an earlier restart` : ''})`;

class DocumentCheck {
  private readonly writes: Attempt[];
  private readonly deletes: Attempt[];

  constructor(private readonly id: string, attempts: Attempt[], private readonly ledger: Ledger, private readonly target: Target, private readonly findings: Findings) {
    this.writes = attempts.filter((a) => a.revision);
    this.deletes = attempts.filter((a) => a.deletes);
  }

  private problem(message: string): void {
    this.findings.problems.push(`${this.id}: ${message}`);
  }

  async run(): Promise<void> {
    this.findings.documents++;
    const versions = await api(this.target.url, 'GET', `/api/v1/catalogs/${this.id}/versions`, { token: this.target.token, timeoutMs: TIMEOUT_MS });
    if (versions.status === 404) return this.absent();
    if (versions.status !== 200) return this.problem(`GET versions answered ${versions.status}: ${versions.text.slice(0, 200)}`);
    await this.present(versions.json() as { version: number; documentVersion: string }[]);
  }

  private async absent(): Promise<void> {
    this.findings.gone++;
    if ((await this.target.store.getDocument(this.id)) !== undefined) this.problem('the API says 404 but the store holds the document');
    if ((await this.target.store.listRevisions(this.id)).length > 0) this.problem('gone, but its revisions are left in the store');
    const deletes = this.deletes.filter((d) => expectation(d) !== 'absent');
    if (deletes.length > 0) {
      for (const d of deletes) if (expectation(d) === 'either') d.settled = 'applied';
      return;
    }
    const owed = this.writes.filter((w) => expectation(w) === 'present');
    for (const w of owed) this.findings.losses.push(`${this.id}: ${attemptName(w)} is gone with its document, which no delete removed`);
    for (const w of this.writes) if (expectation(w) === 'either') w.settled = 'not-applied';
  }

  private async present(listed: { version: number; documentVersion: string }[]): Promise<void> {
    const undone = this.deletes.filter((d) => expectation(d) === 'present');
    for (const d of undone) this.findings.losses.push(`${this.id}: ${attemptName(d)}, yet the document is there`);
    for (const d of this.deletes) if (expectation(d) === 'either') d.settled = 'not-applied';
    if (undone.length === 0) this.ledger.addLive(this.id);

    const numbers = listed.map((v) => v.version);
    const expected = Array.from({ length: listed.length }, (_, i) => listed.length - i);
    if (numbers.join() !== expected.join()) this.problem(`versions are numbered ${numbers.join(',')}, not ${listed.length}..1`);

    const byMarker = new Map(this.writes.map((w) => [w.revision!.marker, w]));
    const numberOf = new Map<Attempt, number>();
    for (const v of listed) {
      const write = byMarker.get(v.documentVersion);
      if (!write) {
        this.problem(`version ${v.version} is marked ${JSON.stringify(v.documentVersion)}, which no client sent for this document`);
        continue;
      }
      if (numberOf.has(write)) this.problem(`${attemptName(write)} is stored twice, as versions ${numberOf.get(write)} and ${v.version}`);
      if (expectation(write) === 'absent') this.problem(`${attemptName(write)} is stored as version ${v.version}`);
      if ((write.kind === 'create') !== (v.version === 1)) this.problem(`${attemptName(write)} is version ${v.version}`);
      if (write.number !== undefined && write.number !== v.version) this.problem(`${attemptName(write)} was version ${write.number} at an earlier restart, now ${v.version}`);
      write.number = v.version;
      numberOf.set(write, v.version);
    }
    for (const w of this.writes) {
      const state = expectation(w);
      if (state === 'present' && !numberOf.has(w)) this.findings.losses.push(`${this.id}: ${attemptName(w)} is missing from its versions`);
      if (state === 'either') w.settled = numberOf.has(w) ? 'applied' : 'not-applied';
    }
    this.checkOrder(numberOf);
    await this.checkCurrent(listed[0]);
    await this.checkStored(listed, byMarker);
  }

  /** A write acknowledged before another was sent must have the lower number. */
  private checkOrder(numberOf: Map<Attempt, number>): void {
    const stored = [...numberOf.entries()];
    for (const [earlier, n] of stored) {
      if (earlier.answeredAt === undefined) continue;
      for (const [later, m] of stored) {
        if (earlier.answeredAt < later.sentAt && n >= m) this.problem(`${attemptName(earlier)} was acknowledged before ${attemptName(later)} was sent, yet is version ${n} against ${m}`);
      }
    }
  }

  private async checkCurrent(newest: { version: number; documentVersion: string } | undefined): Promise<void> {
    const current = await api(this.target.url, 'GET', `/oscal/v1/catalog/${this.id}`, { token: this.target.token, accept: 'application/json', timeoutMs: TIMEOUT_MS });
    if (current.status !== 200) return this.problem(`GET answered ${current.status} while its versions are listed`);
    const marker = (current.json() as { catalog: { metadata: { version: string } } }).catalog.metadata.version;
    if (marker !== newest?.documentVersion) this.problem(`GET returns ${marker}, but the newest version is ${newest?.documentVersion}`);
    if (current.headers.etag !== `W/"${sha256(current.body)}"`) this.problem(`GET's body does not hash to its ETag ${current.headers.etag}`);
  }

  private async checkStored(listed: { version: number }[], byMarker: Map<string, Attempt>): Promise<void> {
    const { store } = this.target;
    const revisions = await store.listRevisions(this.id);
    if (revisions.map((r) => r.number).join() !== listed.map((v) => v.version).join()) this.problem('the store and the API list different revisions');
    for (const r of revisions) {
      this.findings.revisions++;
      const sent = byMarker.get(r.fields.version)?.revision?.sha256;
      if (sent !== undefined && r.originalHash !== sent) this.problem(`version ${r.number}'s original is not the bytes sent for ${r.fields.version}`);
      await this.checkBlob(r.canonicalHash, `version ${r.number}'s JSON`);
      await this.checkBlob(r.originalHash, `version ${r.number}'s original`);
      for (const format of RENDITIONS) {
        const rendition = await store.getRendition(this.id, r.number, format);
        // Small documents get every rendition within the write: one missing means a write was not whole.
        if (!rendition) this.problem(`version ${r.number} has no ${format} rendition`);
        else await this.checkBlob(rendition.hash, `version ${r.number}'s ${format}`);
      }
    }
  }

  private async checkBlob(hash: string, what: string): Promise<void> {
    const gzip = await this.target.store.getBlobEncoded(hash, 'gzip');
    if (!gzip) return this.problem(`${what}: blob ${hash} is missing`);
    this.checkEncoding(hash, gzip, gunzipSync, `${what} (gzip)`);
    const br = await this.target.store.getBlobEncoded(hash, 'br');
    if (br) this.checkEncoding(hash, br, brotliDecompressSync, `${what} (brotli)`);
  }

  private checkEncoding(hash: string, stored: Buffer, decode: (bytes: Buffer) => Buffer, what: string): void {
    this.findings.blobs++;
    let bytes: Buffer;
    try {
      bytes = decode(stored);
    } catch (e) {
      return this.problem(`${what}: blob ${hash} does not decode: ${(e as Error).message}`);
    }
    if (sha256(bytes) !== hash) this.problem(`${what}: blob ${hash} does not match its hash`);
  }
}
