/**
 * How tests and benches start `oscal-depot serve`: the command, a free port, and the arguments
 * every such server takes, in one place.
 */
import { createServer } from 'node:net';
import { join } from 'node:path';
import { PROJECT_ROOT } from './shared.js';

export const CLI_BIN = join(PROJECT_ROOT, 'dist', 'src', 'cli', 'main.js');

/** A port nothing listens on now: the OS picks it, and it is given back at once. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** The argument list of `node <cli> serve` on loopback, quiet but for warnings. */
export function serveArgs(port: number, dataDir: string, extra: readonly string[] = []): string[] {
  return [
    CLI_BIN,
    'serve',
    '--port',
    String(port),
    '--host',
    '127.0.0.1',
    '--data',
    dataDir,
    '--log-level',
    'warn',
    ...extra,
  ];
}
