/**
 * The crash test's operations, one small unit each: what to act on, what request to send, and what
 * the ledger learns when the server acknowledges it. A new kind of write is one more unit in
 * OPERATIONS.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { CONTENT_UUID_SCHEME } from '../../../src/oscal/identifiers.js';
import { sha256 } from '../../../src/digest.js';
import type { ApiResponse } from '../http.js';
import type { Attempt, Ledger } from './ledger.js';

export interface PlannedRequest {
  documentId: string;
  method: string;
  path: string;
  body?: Buffer;
  contentType?: string;
  headers?: Record<string, string>;
  revision?: Attempt['revision'];
  deletes?: boolean;
  /** What the ledger learns from a 2xx. */
  onAck?: (response: ApiResponse, attempt: Attempt) => void;
}

export interface Operation {
  readonly kind: string;
  /** How often it is chosen, relative to the others. */
  readonly weight: number;
  /** The request to send, or undefined when nothing suits it yet (a PUT needs a live document). */
  plan(ledger: Ledger): PlannedRequest | undefined;
}

/**
 * A valid catalog marked by `marker` in metadata/version, carrying its content uuid so that even a
 * create whose answer never came is known by id; 0 to 60 controls of random prose give writes of
 * 1 to 25 KB.
 */
export function catalogBody(id: string, marker: string): Buffer {
  const controls = Array.from({ length: Math.floor(Math.random() * 61) }, (_, i) => ({
    id: `c-${i + 1}`,
    title: `Control ${i + 1}`,
    parts: [{ id: `c-${i + 1}_smt`, name: 'statement', prose: randomBytes(96).toString('base64') }],
  }));
  const metadata = {
    title: `Crash test ${id}`,
    'last-modified': new Date().toISOString(),
    version: marker,
    'oscal-version': '1.1.2',
    'document-ids': [{ scheme: CONTENT_UUID_SCHEME, identifier: id }],
  };
  return Buffer.from(
    JSON.stringify({ catalog: { uuid: randomUUID(), metadata, ...(controls.length ? { controls } : {}) } }, null, 2),
  );
}

function writeOf(ledger: Ledger, id: string): Pick<PlannedRequest, 'body' | 'contentType' | 'revision'> {
  const marker = ledger.nextMarker();
  const body = catalogBody(id, marker);
  return { body, contentType: 'application/json', revision: { marker, sha256: sha256(body) } };
}

const create: Operation = {
  kind: 'create',
  weight: 3,
  plan(ledger) {
    const id = randomUUID();
    return {
      documentId: id,
      method: 'POST',
      path: '/oscal/v1/catalog',
      ...writeOf(ledger, id),
      onAck: () => ledger.addLive(id),
    };
  },
};

const put: Operation = {
  kind: 'put',
  weight: 6,
  plan(ledger) {
    const id = ledger.pickLive();
    return id === undefined
      ? undefined
      : { documentId: id, method: 'PUT', path: `/oscal/v1/catalog/${id}`, ...writeOf(ledger, id) };
  },
};

const remove: Operation = {
  kind: 'delete',
  weight: 1.5,
  plan(ledger) {
    const id = ledger.pickLive();
    if (id === undefined) return undefined;
    ledger.withdraw(id);
    return { documentId: id, method: 'DELETE', path: `/oscal/v1/catalog/${id}`, deletes: true };
  },
};

/**
 * A file of 1 KB to 2 MB, its size log-uniform so that most are small and some large: half hex
 * text, which gzip shrinks and the store keeps compressed, half random bytes, kept as they came.
 */
function randomFile(): { bytes: Buffer; text: boolean } {
  const size = Math.round(1024 * 2048 ** Math.random());
  const text = Math.random() < 0.5;
  return {
    bytes: text
      ? Buffer.from(
          randomBytes(Math.ceil(size / 2))
            .toString('hex')
            .slice(0, size),
        )
      : randomBytes(size),
    text,
  };
}

/** An upload: the file name is the mark, since the revision it makes keeps the document's metadata. */
const attach: Operation = {
  kind: 'attach',
  weight: 3,
  plan(ledger) {
    const id = ledger.pickLive();
    if (id === undefined) return undefined;
    const { bytes, text } = randomFile();
    const name = `${ledger.nextMarker()}.${text ? 'txt' : 'bin'}`;
    return {
      documentId: id,
      method: 'POST',
      path: `/oscal/v1/catalog/${id}/attachment`,
      body: bytes,
      contentType: text ? 'text/plain' : 'application/octet-stream',
      headers: { 'content-disposition': `attachment; filename="${name}"` },
      revision: { marker: name, sha256: sha256(bytes), upload: true },
      onAck: (response, attempt) => {
        const entry = response.json() as { uuid: string; rlinks?: { hashes?: { value: string }[] }[] };
        attempt.resource = { uuid: entry.uuid, sha256: entry.rlinks?.[0]?.hashes?.[0]?.value ?? '' };
      },
    };
  },
};

export const OPERATIONS: readonly Operation[] = [create, put, attach, remove];

/** An operation chosen by weight; one that has nothing to act on yet falls back to a create. */
export function planNext(ledger: Ledger): { kind: string; request: PlannedRequest } {
  const total = OPERATIONS.reduce((sum, op) => sum + op.weight, 0);
  let roll = Math.random() * total;
  const chosen = OPERATIONS.find((op) => (roll -= op.weight) < 0) ?? create;
  const request = chosen.plan(ledger);
  return request ? { kind: chosen.kind, request } : { kind: create.kind, request: create.plan(ledger)! };
}
