import type { AliasEntry, AliasRecord, AuditEntry } from '../types.js';

/** The names documents are known by: given ones set here, metadata ones written with each revision. */
export interface AliasStore {
  /** Replaces the given aliases of a document (its metadata aliases follow its current revision). */
  setAliases(id: string, entries: AliasEntry[], audit: AuditEntry): Promise<void>;
  listAliases(id: string): Promise<AliasRecord[]>;
  /** The documents any of `keys` finds, each with the key that found it. */
  findAliases(keys: string[]): Promise<{ documentId: string; key: string }[]>;
}
