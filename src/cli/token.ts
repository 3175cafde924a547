import { Command, Option } from 'commander';
import { cliActor, createToken, expiryFrom } from '../auth/tokens.js';
import type { Role } from '../store/types.js';
import { durationValue } from './option-values.js';
import { databaseOption, dataOption, openStoreFor, storeConfigOf, type StoreOptions } from './store-options.js';

const storeOf = (opts: StoreOptions) => openStoreFor(storeConfigOf(opts));

export function tokenCommand(): Command {
  const token = new Command('token').description('manage local API tokens (only their hashes are stored)');
  token
    .command('create')
    .description('create a token and print it once')
    .requiredOption('--user <name>', 'the user the token acts as (created if new)')
    .addOption(
      new Option('--role <role>', 'role of the token').choices(['admin', 'writer', 'reader']).default('reader'),
    )
    .option('--expires <duration>', 'lifetime such as 30d, 12h or 1y (default: no expiry)', durationValue)
    .addOption(dataOption())
    .addOption(databaseOption())
    .action(async (opts: StoreOptions & { user: string; role: Role; expires?: string }) => {
      const store = await storeOf(opts);
      try {
        const expires = opts.expires ? expiryFrom(opts.expires) : undefined;
        const { id, token: secret } = await createToken(store, {
          user: opts.user,
          role: opts.role,
          ...(expires ? { expiresAt: expires } : {}),
          actor: cliActor(),
        });
        process.stderr.write(
          `token ${id} for ${opts.user} (${opts.role}${expires ? `, expires ${expires.toISOString()}` : ''}); it is shown only now:\n`,
        );
        process.stdout.write(secret + '\n');
      } finally {
        await store.close();
      }
    });
  token
    .command('list')
    .description('list tokens (never their secrets)')
    .addOption(dataOption())
    .addOption(databaseOption())
    .action(async (opts: StoreOptions) => {
      const store = await storeOf(opts);
      try {
        for (const t of await store.listTokens()) {
          const state = t.revokedAt
            ? `revoked ${t.revokedAt}`
            : t.expiresAt && t.expiresAt < new Date().toISOString()
              ? `expired ${t.expiresAt}`
              : 'active';
          process.stdout.write(
            `${t.id}  ${t.userName}  ${t.role}  created ${t.createdAt}  ${t.expiresAt ? `expires ${t.expiresAt}  ` : ''}${state}\n`,
          );
        }
      } finally {
        await store.close();
      }
    });
  token
    .command('revoke')
    .description('revoke a token by id')
    .argument('<id>', 'token id, as `token list` shows it')
    .addOption(dataOption())
    .addOption(databaseOption())
    .action(async (id: string, opts: StoreOptions) => {
      const store = await storeOf(opts);
      try {
        if (!(await store.revokeToken(id, { actor: cliActor(), action: 'token.revoke', detail: { token: id } }))) {
          process.stderr.write(`no active token ${id}\n`);
          process.exitCode = 1;
        } else process.stdout.write(`revoked ${id}\n`);
      } finally {
        await store.close();
      }
    });
  return token;
}
