/**
 * A real OpenID provider (oidc-provider) for the sign-in tests, run in a process of its own by
 * oidc-provider.ts. It listens on a port of its own choosing and prints "listening <port>"; the
 * servers under test can then be started with its issuer, and the redirect URIs of the web clients
 * arrive as one JSON line on stdin, after which it prints "ready" and serves.
 * Login and consent are oidc-provider's development forms: any password, accounts as configured.
 *
 * Nothing runs on import: the test runner loads every file under test/ as a test.
 */
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import type { ProviderSetup } from './oidc-provider.js';

export async function runProvider(setup: ProviderSetup): Promise<void> {
  const { default: Provider, errors } = await import('oidc-provider');
  const configuration = (redirectUris: string[]) => ({
    clients: setup.clients.map((c) => ({
      client_id: c.id,
      client_secret: c.secret,
      redirect_uris: c.web ? redirectUris : [],
      grant_types: c.web ? ['authorization_code', 'client_credentials'] : ['client_credentials'],
      response_types: c.web ? ['code'] : [],
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    jwks: { keys: [setup.signingKey] },
    async findAccount(_ctx: unknown, id: string) {
      const user = setup.users[id];
      if (!user) return undefined;
      return { accountId: id, claims: () => ({ sub: id, preferred_username: id, ...user }) };
    },
    claims: { openid: ['sub'], profile: ['preferred_username'], roles: ['roles'], groups: ['groups'] },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // Web sign-in names no resource: its access token stays the provider's own, for userinfo.
        defaultResource: () => undefined,
        useGrantedResource: () => false,
        getResourceServerInfo(_ctx: unknown, indicator: string) {
          if (!setup.resources.includes(indicator)) throw new errors.InvalidTarget();
          return {
            scope: 'api',
            audience: indicator,
            accessTokenTTL: 300,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    // Machine clients carry their roles in the access token, as providers with client roles do.
    async extraTokenClaims(_ctx: unknown, token: { kind: string; clientId: string }) {
      const roles =
        token.kind === 'ClientCredentials' ? setup.clients.find((c) => c.id === token.clientId)?.roles : undefined;
      return roles === undefined ? undefined : { roles };
    },
    cookies: { keys: ['oscal-depot test provider cookie key'] },
  });

  // Port 0: the system picks a free port, so no other process can take it between choice and use.
  const server = createServer((_req, res) => res.writeHead(503).end());
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    process.stdout.write(`listening ${port}\n`);
    createInterface({ input: process.stdin }).once('line', (line) => {
      const provider = new Provider(`http://127.0.0.1:${port}`, configuration(JSON.parse(line) as string[]));
      server.removeAllListeners('request');
      server.on('request', provider.callback());
      process.stdout.write('ready\n');
    });
  });
}
