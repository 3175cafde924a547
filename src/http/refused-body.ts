import type { IncomingMessage } from 'node:http';

/** A refused body at most this long is read to its end; a longer one is cut off with the connection. */
const DRAIN_LIMIT = 256 * 1024 * 1024;

/**
 * Reads and drops the rest of a body refused before it was read (413 by Content-Length). Closing
 * a connection with bytes still arriving makes the kernel reset it, and the reset can destroy
 * the refusal before the client has read it: the client, which is still sending, sees "connection
 * reset" instead of the 413. The request timeout still bounds how long this can take.
 */
export function drainRefusedBody(raw: IncomingMessage): Promise<void> {
  const declared = Number(raw.headers['content-length']);
  if (raw.readableEnded || raw.destroyed || !(declared <= DRAIN_LIMIT)) return Promise.resolve();
  return new Promise((resolve) => {
    raw
      .once('end', resolve)
      .once('close', resolve)
      .once('error', () => resolve());
    raw.resume();
  });
}
