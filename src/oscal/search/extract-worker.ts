import { answerCalls } from '../../thread-calls.js';
import type { ExtractInput } from './extract-thread.js';
import { searchEntriesOf } from './extract.js';

const decoder = new TextDecoder();

answerCalls(({ json, model, version }: ExtractInput) =>
  searchEntriesOf({ model, version, content: JSON.parse(decoder.decode(json)) as Record<string, unknown> }),
);
