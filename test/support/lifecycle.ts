/** Stopping test servers without letting a shutdown that never completes hang the whole run. */
import type { TestServer } from './server.js';

/** SIGTERM and wait; a server still running after `ms` is killed and reported as a failure. */
export async function stopWithin(server: TestServer | undefined, ms = 15_000): Promise<void> {
  if (!server) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  const outcome = await Promise.race([server.stop(), timeout]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    server.process.kill('SIGKILL');
    await server.stop();
    throw new Error(`the server did not stop within ${ms} ms of SIGTERM; its output: ${server.output.slice(-2000)}`);
  }
}
