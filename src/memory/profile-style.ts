/**
 * Speaking style of the person: sentence length, signature phrases (recurring 3–4 word runs),
 * fillers and hedges, counted over their own sentences.
 */
import type { Memory } from './types.ts';
import type { PhraseCount, ProfileStyle } from './profile-types.ts';
import { words } from './sentences.ts';

const FILLERS = ['um', 'uh', 'you know', 'i mean', 'like', 'basically', 'actually', 'literally', 'honestly', 'kind of', 'sort of'];
const HEDGES = ['i think', 'maybe', 'perhaps', 'probably', 'i guess', 'might', 'i feel like', 'possibly', 'i suppose', 'somewhat', 'it depends'];
/** Words that alone make an n-gram uninformative when it has nothing else ("of the", "it was a"). */
const FUNCTION_WORDS = new Set(
  'a an the and or but so of to in on at for with from by as is are was were be been it its this that these those i you we they he she me my our your their there here what which who do did does have has had not no if then than just very'.split(
    ' ',
  ),
);
const SIGNATURE_MIN = 3;
const TOP = 10;

function countPhrases(tokens: readonly string[], phrases: readonly string[]): PhraseCount[] {
  const joined = ` ${tokens.join(' ')} `;
  return phrases
    .map((phrase) => ({ phrase, count: joined.split(` ${phrase} `).length - 1 }))
    .filter((p) => p.count > 0)
    .sort((a, b) => b.count - a.count || a.phrase.localeCompare(b.phrase));
}

/** Recurring word runs (n = 3, 4) with at least two content words, longest-first when equally frequent. */
function signaturePhrases(sentences: ReadonlyArray<readonly string[]>): PhraseCount[] {
  const counts = new Map<string, number>();
  for (const ws of sentences) {
    const seen = new Set<string>();
    for (const n of [3, 4]) {
      for (let i = 0; i + n <= ws.length; i++) {
        const gram = ws.slice(i, i + n);
        if (gram.filter((w) => !FUNCTION_WORDS.has(w)).length < 2) continue;
        const key = gram.join(' ');
        if (seen.has(key)) continue;
        seen.add(key);
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
  }
  const ranked = [...counts]
    .filter(([, c]) => c >= SIGNATURE_MIN)
    .sort((a, b) => b[1] - a[1] || b[0].length - a[0].length || a[0].localeCompare(b[0]));
  const out: PhraseCount[] = [];
  for (const [phrase, count] of ranked) {
    if (out.some((p) => p.phrase.includes(phrase) || phrase.includes(p.phrase))) continue; // one of overlapping runs
    out.push({ phrase, count });
    if (out.length >= TOP) break;
  }
  return out;
}

export function styleOf(memories: readonly Memory[]): ProfileStyle {
  const sentences = memories.map((m) => words(m.text));
  const all = sentences.flat();
  return {
    words: all.length,
    sentences: sentences.length,
    avgSentenceWords: sentences.length ? Math.round((all.length / sentences.length) * 10) / 10 : 0,
    signaturePhrases: signaturePhrases(sentences),
    fillers: countPhrases(all, FILLERS),
    hedges: countPhrases(all, HEDGES),
  };
}
