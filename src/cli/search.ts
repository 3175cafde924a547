import { Command, Option } from 'commander';
import { DepotClient, RequestFailed, serverOption, tokenOption } from './depot-client.js';
import { countValue } from './option-values.js';

interface SearchOptions {
  server: string;
  token?: string;
  model?: string;
  controlId?: string;
  limit: number;
  json?: boolean;
}

interface Result {
  'content-uuid': string;
  title: string;
  model: string;
  path: string;
  kind: string;
  key?: string;
  'object-title'?: string;
  snippet: string;
  highlights: [number, number][];
}

/** Matched words in brackets, as a terminal shows them without colour. */
function marked(snippet: string, highlights: [number, number][]): string {
  let out = '';
  let at = 0;
  for (const [start, end] of highlights) {
    out += `${snippet.slice(at, start)}[${snippet.slice(start, end)}]`;
    at = end;
  }
  return out + snippet.slice(at);
}

/** Control characters of a document are shown, not obeyed by the terminal. */
const printable = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, ' ');

export function searchCommand(): Command {
  return new Command('search')
    .summary('search every document a token may read on a server')
    .description(
      'search the documents a token may read on an OSCAL Depot server: words (all must match), "a phrase", ' +
        'a prefix (crypt*) or a control id (ac-2.1 and AC-2(1) alike); the best hits first, each with the object found and where',
    )
    .argument('[query...]', 'what to find')
    .addOption(serverOption())
    .addOption(tokenOption())
    .option('--model <model>', 'only documents of this model (catalog, system-security-plan, ...)')
    .option('--control-id <id>', 'only objects about this control (any spelling of its id)')
    .addOption(new Option('--limit <n>', 'hits to show').argParser(countValue).default(20))
    .option('--json', 'the server’s answer as JSON')
    .action(async (words: string[], opts: SearchOptions) => {
      const client = new DepotClient(opts.server, opts.token);
      const query = new URLSearchParams({ limit: String(Math.min(opts.limit, 100)) });
      if (words.length) query.set('q', words.join(' '));
      if (opts.model) query.set('model', opts.model);
      if (opts.controlId) query.set('control-id', opts.controlId);
      const answer = await client.request('GET', `/search?${query}`, { accept: 'application/json' });
      if (answer.status !== 200) throw new RequestFailed('search', answer);
      const body = JSON.parse(answer.body.toString('utf8')) as { 'search-results': Result[] };
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
        return;
      }
      const results = body['search-results'];
      // Without a token only public documents are searched: say so, or a private document seems absent.
      if (results.length === 0)
        process.stdout.write(
          opts.token
            ? 'nothing found\n'
            : 'nothing found among public documents (no token: --token or OSCAL_DEPOT_TOKEN)\n',
        );
      for (const r of results) {
        const object = [r.kind, r.key, r['object-title']].filter(Boolean).join(' ');
        const lines = [
          `${r.title} (${r.model} ${r['content-uuid']})`,
          `  ${object} at ${r.path}`,
          `  ${marked(r.snippet, r.highlights)}`,
        ];
        process.stdout.write(`${lines.map(printable).join('\n')}\n`);
      }
    });
}
