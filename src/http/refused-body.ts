import type { IncomingMessage } from 'node:http';

/** A refused body at most this long is read to its end; a longer one is cut off with the connection. */
const DRAIN_LIMIT = 256 * 1024 * 1024;
/** A client that sends nothing for this long is not sending the body (it waits for 100 Continue, or stalls). */
const DRAIN_IDLE_MS = 250;

/**
 * Reads and drops the rest of a body refused before it was read (413 by Content-Length), while
 * the client keeps sending it. Closing a connection with bytes still arriving makes the kernel
 * reset it, and the reset can destroy the refusal before the client has read it: the client,
 * still sending, sees "connection reset" instead of the 413. A client that sends nothing more is
 * answered at once; the request timeout bounds a slow one.
 */
export function drainRefusedBody(raw: IncomingMessage): Promise<void> {
  const declared = Number(raw.headers['content-length']);
  if (raw.readableEnded || raw.destroyed || !(declared <= DRAIN_LIMIT)) return Promise.resolve();
  return new Promise((resolve) => {
    let idle = setTimeout(done, DRAIN_IDLE_MS);
    function done(): void {
      clearTimeout(idle);
      raw.off('data', more).pause();
      resolve();
    }
    function more(): void {
      clearTimeout(idle);
      idle = setTimeout(done, DRAIN_IDLE_MS);
    }
    raw.on('data', more).once('end', done).once('close', done).once('error', done);
    raw.resume();
  });
}
