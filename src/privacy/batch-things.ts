/**
 * The batch's things: single capitalised words that the batch itself (a transcript, a prompt) says
 * as a product, project, company or place. A name the corpus's lexicon never saw ("Restic",
 * "Concourse", "Faktory") is often said in a thing's context somewhere in the same conversation
 * ("the Restic repo", "using Concourse") or written in lower case ("restic"); a word said so at
 * least MIN_THING_MENTIONS times, and never with a strong person cue ("Concourse told me",
 * "my colleague Concourse"), is no person anywhere in the batch.
 */
import { isCommonWord } from './lexicon.ts';
import { cued, thingContext } from './person-context.ts';

/** Thing-like mentions in the batch that make a word a thing. */
export const MIN_THING_MENTIONS = 2;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Of `words` (single name words as written, "Restic"), those the batch says as things. */
export function batchThings(texts: readonly string[], words: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const word of new Set(words)) {
    if (!/^\p{Lu}\p{Ll}+$/u.test(word)) continue;
    const lower = word.toLowerCase();
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}@/.-])(?:${escapeRegExp(word)}|${escapeRegExp(lower)})(?![\\p{L}\\p{N}@]|[-.]\\p{L})`, 'gu');
    let thing = 0;
    let person = false;
    for (const text of texts) {
      for (const m of text.matchAll(pattern)) {
        const start = m.index;
        const end = start + m[0].length;
        if (cued(text, start, end, 'strong')) person = true;
        else if (m[0] === lower ? !isCommonWord(lower) : thingContext(text, start, end)) thing++;
      }
      if (person) break;
    }
    if (!person && thing >= MIN_THING_MENTIONS) out.add(word);
  }
  return out;
}
