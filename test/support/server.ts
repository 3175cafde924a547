import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_BIN as BIN, freePort, serveArgs } from './serve-process.js';

export { freePort } from './serve-process.js';

export function newDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'oscal-depot-test-'));
}

/** Runs the CLI to completion (token create, …) against a data directory. */
export function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function createTokenFor(
  dataDir: string,
  user: string,
  role: 'admin' | 'writer' | 'reader',
  extra: string[] = [],
): string {
  const r = cli(['token', 'create', '--user', user, '--role', role, '--data', dataDir, ...extra]);
  if (r.code !== 0) throw new Error(`token create failed: ${r.stderr}`);
  return r.stdout.trim();
}

/** A real `oscal-depot serve` process on a loopback port, with its own data directory. */
export class TestServer {
  readonly url: string;
  private exited: Promise<number | null>;
  output = '';

  private constructor(
    readonly process: ChildProcess,
    readonly port: number,
    readonly dataDir: string,
    readonly scheme: 'http' | 'https',
  ) {
    this.url = `${scheme}://127.0.0.1:${port}`;
    // 'close', not 'exit': by then `output` holds everything the process wrote.
    this.exited = new Promise((resolve) => process.once('close', (code) => resolve(code)));
  }

  /** With `--tls-cert` among the args, the server is reached over HTTPS (its certificate is not checked here). */
  static async start(
    options: { dataDir?: string; args?: string[]; env?: Record<string, string> } = {},
  ): Promise<TestServer> {
    const dataDir = options.dataDir ?? newDataDir();
    const port = await freePort();
    const child = spawn(process.execPath, serveArgs(port, dataDir, options.args), {
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server = new TestServer(child, port, dataDir, options.args?.includes('--tls-cert') ? 'https' : 'http');
    child.stdout!.on('data', (d) => (server.output += d));
    child.stderr!.on('data', (d) => (server.output += d));
    await server.waitReady();
    return server;
  }

  private async waitReady(): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      if (this.process.exitCode !== null) throw new Error(`server exited: ${this.output}`);
      try {
        if (await this.ready()) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`server did not become ready: ${this.output}`);
  }

  private async ready(): Promise<boolean> {
    if (this.scheme === 'http') return (await fetch(`${this.url}/readyz`)).ok;
    return new Promise((resolve, reject) => {
      httpsGet(`${this.url}/readyz`, { rejectUnauthorized: false }, (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      }).on('error', reject);
    });
  }

  /** SIGTERM and wait: the server finishes in-flight requests and closes the store. */
  async stop(): Promise<number | null> {
    if (this.process.exitCode === null) this.process.kill('SIGTERM');
    return this.exited;
  }

  /** SIGKILL and wait: the process gets no chance to finish anything, as in a crash. */
  async kill(): Promise<void> {
    if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill('SIGKILL');
    await this.exited;
  }

  adminToken(): string {
    return readFileSync(join(this.dataDir, 'admin-token'), 'utf8').trim();
  }
}
