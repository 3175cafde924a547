import { answerCalls } from '../../thread-calls.js';
import type { RowsInput } from './search-rows-thread.js';
import { searchRows } from './search.js';

answerCalls(({ entries, scope }: RowsInput) => searchRows(entries, scope));
