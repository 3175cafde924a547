/** The token CLI run asynchronously, so that several tokens can be made at once. */
import { spawn } from 'node:child_process';
import { CLI_BIN as BIN } from './serve-process.js';

export function cliAsync(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `oscal-depot token create`: the secret (stdout) and the token id (named on stderr). */
export async function makeToken(
  dataDir: string,
  user: string,
  role: 'admin' | 'writer' | 'reader',
  extra: string[] = [],
): Promise<{ secret: string; id: string }> {
  const r = await cliAsync(['token', 'create', '--user', user, '--role', role, '--data', dataDir, ...extra]);
  if (r.code !== 0) throw new Error(`token create failed: ${r.stderr}`);
  const id = /^token (\S+) for /m.exec(r.stderr)?.[1];
  if (!id) throw new Error(`token create did not name the token id: ${r.stderr}`);
  return { secret: r.stdout.trim(), id };
}
