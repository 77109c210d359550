/**
 * `npm run vectors`: builds the compact word-vector table once (see src/memory/word-vectors.ts).
 * Runs before `npm start`, `npm run worker` and `npm test`; a no-op when the table exists.
 */
import { ensureVectorTable, wordVectors } from '../memory/word-vectors.ts';

const t0 = performance.now();
const file = ensureVectorTable();
const table = wordVectors();
const ms = Math.round(performance.now() - t0);
if (ms > 1000) console.error(`word vectors: ${table.size} words in ${file} (built in ${ms} ms)`);
