/**
 * The checks after a restart, per document the clients ever touched: through the HTTP API that it
 * is there or gone as the ledger demands, that its versions are numbered 1..N and each is a write
 * the clients sent (whole, once, in the order the acknowledgements imply), that the current
 * content is the newest, and that every file its resources name reads back as uploaded; through
 * the store that every blob of every revision and file reads back to its hash and that the
 * original bytes are exactly those sent.
 */
import { isDeepStrictEqual } from 'node:util';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sha256 } from '../../../src/digest.js';
import type { RevisionRecord, Store } from '../../../src/store/types.js';
import { api } from '../http.js';
import { expectation, type Attempt, type Ledger } from './ledger.js';

export interface Findings {
  documents: number;
  /** Of those, the ones the store no longer holds. */
  gone: number;
  revisions: number;
  /** Stored encodings (gzip, brotli, plain files) read back and hashed. */
  blobs: number;
  /** Files of current resources read back whole, over HTTP and from the store; of those, kept as they came rather than gzip. */
  files: number;
  plainFiles: number;
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
  const findings: Findings = {
    documents: 0,
    gone: 0,
    revisions: 0,
    blobs: 0,
    files: 0,
    plainFiles: 0,
    losses: [],
    problems: [],
  };
  const documents = [...ledger.documents()];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < documents.length) {
        const [id, attempts] = documents[next++]!;
        await new DocumentCheck(id, attempts, ledger, target, findings).run();
      }
    }),
  );
  return findings;
}

const attemptName = (a: Attempt) =>
  `${a.kind}${a.revision ? ` ${a.revision.marker}` : ''} (${a.outcome}${a.status ? ` ${a.status}` : ''}${a.settled ? `, ${a.settled} at an earlier restart` : ''})`;

interface Resource {
  uuid: string;
  title?: string;
  rlinks?: { href?: string; hashes?: { value?: string }[] }[];
}

interface Content {
  catalog: { metadata: { version: string }; 'back-matter'?: { resources?: Resource[] } };
}

/** A revision as the store holds it, its JSON form read back, and the write found to have made it. */
interface Stored {
  record: RevisionRecord;
  content?: Content;
  write?: Attempt;
  /** For an upload: the resource it added. */
  adds?: Resource;
}

const resourcesIn = (content: Content | undefined) => content?.catalog['back-matter']?.resources ?? [];

/** The content as it was before its newest resource was added. */
function withoutNewestResource(content: Content): Content {
  const copy = structuredClone(content);
  const backMatter = copy.catalog['back-matter']!;
  backMatter.resources!.pop();
  if (backMatter.resources!.length === 0) delete backMatter.resources;
  if (Object.keys(backMatter).length === 0) delete copy.catalog['back-matter'];
  return copy;
}

class DocumentCheck {
  private readonly writes: Attempt[];
  private readonly deletes: Attempt[];
  private readonly byMarker: Map<string, Attempt>;

  constructor(
    private readonly id: string,
    attempts: Attempt[],
    private readonly ledger: Ledger,
    private readonly target: Target,
    private readonly findings: Findings,
  ) {
    this.writes = attempts.filter((a) => a.revision);
    this.deletes = attempts.filter((a) => a.deletes);
    this.byMarker = new Map(this.writes.map((w) => [w.revision!.marker, w]));
  }

  private problem(message: string): void {
    this.findings.problems.push(`${this.id}: ${message}`);
  }

  async run(): Promise<void> {
    this.findings.documents++;
    const versions = await api(this.target.url, 'GET', `/api/v1/catalogs/${this.id}/versions`, {
      token: this.target.token,
      timeoutMs: TIMEOUT_MS,
    });
    if (versions.status === 404) return this.absent();
    if (versions.status !== 200)
      return this.problem(`GET versions answered ${versions.status}: ${versions.text.slice(0, 200)}`);
    await this.present(versions.json() as { version: number; documentVersion: string }[]);
  }

  private async absent(): Promise<void> {
    this.findings.gone++;
    const { store } = this.target;
    if ((await store.getDocument(this.id)) !== undefined)
      this.problem('the API says 404 but the store holds the document');
    if ((await store.listRevisions(this.id)).length > 0) this.problem('gone, but its revisions are left in the store');
    for (const w of this.writes) {
      if (w.resource && (await store.getAttachment(this.id, w.resource.uuid)))
        this.problem(`gone, but the file of ${attemptName(w)} is left in the store`);
    }
    const deletes = this.deletes.filter((d) => expectation(d) !== 'absent');
    if (deletes.length > 0) {
      for (const d of deletes) if (expectation(d) === 'either') d.settled = 'applied';
      return;
    }
    const owed = this.writes.filter((w) => expectation(w) === 'present');
    for (const w of owed)
      this.findings.losses.push(`${this.id}: ${attemptName(w)} is gone with its document, which no delete removed`);
    for (const w of this.writes) if (expectation(w) === 'either') w.settled = 'not-applied';
  }

  private async present(listed: { version: number; documentVersion: string }[]): Promise<void> {
    const undone = this.deletes.filter((d) => expectation(d) === 'present');
    for (const d of undone) this.findings.losses.push(`${this.id}: ${attemptName(d)}, yet the document is there`);
    for (const d of this.deletes) if (expectation(d) === 'either') d.settled = 'not-applied';
    if (undone.length === 0) this.ledger.addLive(this.id);

    const numbers = listed.map((v) => v.version);
    const expected = Array.from({ length: listed.length }, (_, i) => listed.length - i);
    if (numbers.join() !== expected.join())
      this.problem(`versions are numbered ${numbers.join(',')}, not ${listed.length}..1`);

    const revisions = await this.target.store.listRevisions(this.id);
    if (revisions.map((r) => r.number).join() !== numbers.join())
      this.problem('the store and the API list different revisions');
    const stored: Stored[] = [];
    for (const record of revisions.reverse()) {
      const json = await this.checkBlob(record.canonicalHash, `version ${record.number}'s JSON`);
      const content = json && (JSON.parse(json.toString('utf8')) as Content);
      const listedAs = listed.find((v) => v.version === record.number)?.documentVersion;
      if (content && listedAs !== content.catalog.metadata.version)
        this.problem(
          `version ${record.number} is listed as ${listedAs}, but its content says ${content.catalog.metadata.version}`,
        );
      stored.push({
        record,
        ...(content ? { content, ...this.identify(record, content, stored.at(-1)?.content) } : {}),
      });
    }

    const numberOf = new Map<Attempt, number>();
    for (const {
      record: { number },
      write,
    } of stored) {
      if (!write) continue;
      if (numberOf.has(write))
        this.problem(`${attemptName(write)} is stored twice, as versions ${numberOf.get(write)} and ${number}`);
      if (expectation(write) === 'absent') this.problem(`${attemptName(write)} is stored as version ${number}`);
      if ((write.kind === 'create') !== (number === 1)) this.problem(`${attemptName(write)} is version ${number}`);
      if (write.number !== undefined && write.number !== number)
        this.problem(`${attemptName(write)} was version ${write.number} at an earlier restart, now ${number}`);
      write.number = number;
      numberOf.set(write, number);
    }
    for (const w of this.writes) {
      const state = expectation(w);
      if (state === 'present' && !numberOf.has(w))
        this.findings.losses.push(`${this.id}: ${attemptName(w)} is missing from its versions`);
      if (state === 'either') w.settled = numberOf.has(w) ? 'applied' : 'not-applied';
    }
    this.checkOrder(numberOf);
    await this.checkCurrent(stored.at(-1)?.record);
    await this.checkStored(stored.map((s) => s.record));
    await this.checkFiles(stored);
  }

  /**
   * The write that made a revision: a content write by its metadata/version, an upload by the
   * resource it adds to the content of the revision before, which must otherwise be unchanged.
   */
  private identify(
    record: RevisionRecord,
    content: Content,
    previous: Content | undefined,
  ): Pick<Stored, 'write' | 'adds'> {
    const resources = resourcesIn(content);
    if (resources.length === 0) {
      const marker = content.catalog.metadata.version;
      const write = this.byMarker.get(marker);
      if (!write || write.revision!.upload) {
        this.problem(
          `version ${record.number} is marked ${JSON.stringify(marker)}, which no client sent for this document`,
        );
        return {};
      }
      if (record.originalHash !== write.revision!.sha256)
        this.problem(`version ${record.number}'s original is not the bytes sent for ${marker}`);
      return { write };
    }
    const adds = resources.at(-1)!;
    const write = this.byMarker.get(String(adds.title));
    if (!write?.revision!.upload) {
      this.problem(
        `version ${record.number} adds a resource titled ${JSON.stringify(adds.title)}, which no client uploaded to this document`,
      );
      return {};
    }
    const name = attemptName(write);
    if (!previous || !isDeepStrictEqual(withoutNewestResource(content), previous))
      this.problem(`version ${record.number}, ${name}, is not version ${record.number - 1} with one more resource`);
    const hash = adds.rlinks?.[0]?.hashes?.[0]?.value;
    if (hash !== write.revision!.sha256)
      this.problem(`version ${record.number}'s resource for ${name} gives the hash ${hash}, not that of the file sent`);
    if (write.resource && write.resource.uuid !== adds.uuid)
      this.problem(
        `${name} was answered with resource ${write.resource.uuid}, but version ${record.number} adds ${adds.uuid}`,
      );
    if (write.resource && write.resource.sha256 !== write.revision!.sha256)
      this.problem(`${name} was answered with the hash ${write.resource.sha256}, not that of the file sent`);
    return { write, adds };
  }

  /** A write acknowledged before another was sent must have the lower number. */
  private checkOrder(numberOf: Map<Attempt, number>): void {
    const stored = [...numberOf.entries()];
    for (const [earlier, n] of stored) {
      if (earlier.answeredAt === undefined) continue;
      for (const [later, m] of stored) {
        if (earlier.answeredAt < later.sentAt && n >= m)
          this.problem(
            `${attemptName(earlier)} was acknowledged before ${attemptName(later)} was sent, yet is version ${n} against ${m}`,
          );
      }
    }
  }

  private async checkCurrent(newest: RevisionRecord | undefined): Promise<void> {
    const current = await api(this.target.url, 'GET', `/oscal/v1/catalog/${this.id}`, {
      token: this.target.token,
      accept: 'application/json',
      timeoutMs: TIMEOUT_MS,
    });
    if (current.status !== 200) return this.problem(`GET answered ${current.status} while its versions are listed`);
    if (sha256(current.body) !== newest?.canonicalHash)
      this.problem(`GET does not return the JSON form of the newest version, ${newest?.number}`);
    if (current.headers.etag !== `W/"${sha256(current.body)}"`)
      this.problem(`GET's body does not hash to its ETag ${current.headers.etag}`);
  }

  /** Every blob of every revision; the JSON forms were read when the revisions were identified. */
  private async checkStored(revisions: RevisionRecord[]): Promise<void> {
    for (const r of revisions) {
      this.findings.revisions++;
      await this.checkBlob(r.originalHash, `version ${r.number}'s original`);
      for (const format of RENDITIONS) {
        const rendition = await this.target.store.getRendition(this.id, r.number, format);
        // Small documents get every rendition within the write: one missing means a write was not whole.
        if (!rendition) this.problem(`version ${r.number} has no ${format} rendition`);
        else await this.checkBlob(rendition.hash, `version ${r.number}'s ${format}`);
      }
    }
  }

  /**
   * The files of the current content's resources read back as uploaded; the files of resources a
   * later revision dropped (a content PUT replaces the back-matter with its own) are gone.
   */
  private async checkFiles(stored: Stored[]): Promise<void> {
    const current = new Set(resourcesIn(stored.at(-1)?.content).map((r) => r.uuid));
    for (const { write, adds } of stored) {
      if (!write || !adds) continue;
      if (current.has(adds.uuid)) await this.checkFile(write, adds.uuid);
      else if (await this.target.store.getAttachment(this.id, adds.uuid))
        this.problem(`the file of ${attemptName(write)} is still held, though its resource was dropped`);
    }
  }

  private async checkFile(write: Attempt, uuid: string): Promise<void> {
    const sent = write.revision!.sha256;
    const name = attemptName(write);
    // A revision that names a file it does not have was not written whole.
    const missing = (what: string) => {
      (write.outcome === 'acked' ? this.findings.losses : this.findings.problems).push(`${this.id}: ${name}: ${what}`);
    };
    const got = await api(this.target.url, 'GET', `/oscal/v1/catalog/${this.id}/attachment/${uuid}`, {
      token: this.target.token,
      timeoutMs: TIMEOUT_MS,
    });
    if (got.status !== 200) return missing(`GET of its file answered ${got.status}: ${got.text.slice(0, 200)}`);
    if (sha256(got.body) !== sent)
      return this.problem(`${name}: GET of its file returns other bytes (${got.body.length} bytes)`);
    const held = await this.target.store.getAttachment(this.id, uuid);
    if (held?.hash !== sent)
      return missing(`the store holds ${held ? `the file ${held.hash}` : 'no file'} for its resource`);
    const kept = await this.target.store.getAttachmentBytes(held.hash);
    if (!kept) return missing(`blob ${held.hash} is missing`);
    if (
      !this.checkEncoding(
        held.hash,
        kept.data,
        kept.plain ? (bytes) => bytes : gunzipSync,
        `the file of ${name} (${kept.plain ? 'plain' : 'gzip'})`,
      )
    )
      return;
    this.findings.files++;
    if (kept.plain) this.findings.plainFiles++;
    write.fileVerified = true;
  }

  /** The blob's gzip encoding, and its brotli one if kept, read back to its hash; the bytes, if they do. */
  private async checkBlob(hash: string, what: string): Promise<Buffer | undefined> {
    const gzip = await this.target.store.getBlobEncoded(hash, 'gzip');
    if (!gzip) {
      this.problem(`${what}: blob ${hash} is missing`);
      return undefined;
    }
    const bytes = this.checkEncoding(hash, gzip, gunzipSync, `${what} (gzip)`);
    const br = await this.target.store.getBlobEncoded(hash, 'br');
    if (br) this.checkEncoding(hash, br, brotliDecompressSync, `${what} (brotli)`);
    return bytes;
  }

  private checkEncoding(
    hash: string,
    stored: Buffer,
    decode: (bytes: Buffer) => Buffer,
    what: string,
  ): Buffer | undefined {
    this.findings.blobs++;
    let bytes: Buffer;
    try {
      bytes = decode(stored);
    } catch (e) {
      this.problem(`${what}: blob ${hash} does not decode: ${(e as Error).message}`);
      return undefined;
    }
    if (sha256(bytes) === hash) return bytes;
    this.problem(`${what}: blob ${hash} does not match its hash`);
    return undefined;
  }
}
