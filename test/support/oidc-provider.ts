/** Starts and stops the test OpenID provider process (oidc-provider-process.ts) on a loopback port. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { PROJECT_ROOT } from './shared.js';

const SCRIPT = join(PROJECT_ROOT, 'dist', 'test', 'support', 'oidc-provider-process.js');

export interface ProviderClient {
  id: string;
  secret: string;
  /** A web client signs people in (authorization code); the others only have client credentials. */
  web: boolean;
  /** The roles claim of its client-credentials tokens. */
  roles?: string | string[];
}

export interface ProviderSetup {
  /** The private key the provider signs with (RS256, with a kid). */
  signingKey: JWK;
  clients: ProviderClient[];
  /** Accounts by login name; their claims beside sub and preferred_username. */
  users: Record<string, { roles?: string | string[]; groups?: string[] }>;
  /** Resource indicators the provider issues JWT access tokens for (each is the token's audience). */
  resources: string[];
}

export async function rsaSigningKey(kid: string): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
}

/**
 * In two steps, since the provider must know the servers' callbacks and the servers its issuer:
 * `listen` gives the issuer, `serve` the web clients' redirect URIs.
 */
export class TestProvider {
  output = '';
  private port = 0;
  private changed: (() => void) | undefined;
  private readonly exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    readonly setup: ProviderSetup,
  ) {
    child.stdout!.on('data', (d) => {
      this.output += d;
      this.changed?.();
    });
    child.stderr!.on('data', (d) => (this.output += d));
    this.exited = new Promise((resolve) =>
      child.once('exit', () => {
        this.changed?.();
        resolve();
      }),
    );
  }

  static async listen(setup: ProviderSetup): Promise<TestProvider> {
    const run = `import { runProvider } from ${JSON.stringify(pathToFileURL(SCRIPT).href)}; await runProvider(${JSON.stringify(setup)});`;
    const child = spawn(process.execPath, ['--input-type=module', '--eval', run], { stdio: ['pipe', 'pipe', 'pipe'] });
    const provider = new TestProvider(child, setup);
    provider.port = Number(await provider.said(/^listening (\d+)$/m));
    return provider;
  }

  get issuer(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The serve options of a depot signing in through this provider as `client`, taking tokens for `audience`. */
  depotArgs(client: ProviderClient, audience: string, scopes?: string): string[] {
    return [
      '--oidc-issuer',
      this.issuer,
      '--oidc-client-id',
      client.id,
      '--oidc-audience',
      audience,
      ...(scopes ? ['--oidc-scopes', scopes] : []),
    ];
  }

  async serve(redirectUris: string[]): Promise<void> {
    this.child.stdin!.write(JSON.stringify(redirectUris) + '\n');
    await this.said(/^(ready)$/m);
  }

  /** A client-credentials access token for a resource, as a machine client gets one. */
  async clientCredentials(clientId: string, resource: string): Promise<string> {
    const client = this.setup.clients.find((c) => c.id === clientId)!;
    const res = await fetch(`${this.issuer}/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope: 'api' }),
    });
    const body = (await res.json()) as { access_token?: string };
    if (!res.ok || !body.access_token)
      throw new Error(`client credentials grant failed (${res.status}): ${JSON.stringify(body)}`);
    return body.access_token;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    await this.exited;
  }

  /** Waits for a line on the process's stdout; the pattern's first group is the answer. */
  private said(pattern: RegExp): Promise<string> {
    return new Promise((resolve, reject) => {
      const finish = (outcome: () => void) => {
        clearTimeout(timer);
        this.changed = undefined;
        outcome();
      };
      const timer = setTimeout(
        () => finish(() => reject(new Error(`the test provider did not print ${pattern} within 15 s: ${this.output}`))),
        15_000,
      );
      this.changed = () => {
        const match = pattern.exec(this.output);
        if (match) finish(() => resolve(match[1]!));
        else if (this.child.exitCode !== null || this.child.signalCode !== null)
          finish(() => reject(new Error(`the test provider exited: ${this.output}`)));
      };
      this.changed();
    });
  }
}
