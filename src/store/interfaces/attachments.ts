import type { AttachmentRecord } from '../types.js';

/** The files behind back-matter resources (D9); written with the revision that adds them. */
export interface AttachmentStore {
  getAttachment(id: string, resourceUuid: string): Promise<AttachmentRecord | undefined>;
  /** An attachment's bytes as kept: gzip, or plain when compression gained nothing. */
  getAttachmentBytes(hash: string): Promise<{ data: Buffer; plain: boolean } | undefined>;
}
