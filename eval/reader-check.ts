/**
 * What a reader sees (issue 29): an answer's four fields checked for what makes it read like one
 * search result pasted four times.
 *
 * - **shared words**: a field that shares at least half of its content words with another field:
 *   |A ∩ B| / min(|A|, |B|) ≥ 0.5 over the distinct content stems of the two fields (the project's
 *   `terms`: wink-nlp stems, stop words and framing words removed). A field without content words
 *   shares nothing.
 * - **cut saying**: a `saying` that does not end a sentence (no sentence-final punctuation, or a
 *   comma, semicolon, colon or dash just before it: "squeeze in a couple more hours,."), that holds
 *   such a ",." inside (a piece of a sentence joined to the next), or whose last word cannot end a
 *   sentence ("and.", "the.", "because.").
 * - **filler**: the old engine's stock phrases (unless the person said them: the phrase and the word
 *   after it are in the answer's evidence), and any other phrase of FILLER_WORDS words that
 *   recurs in more than half of a run's answers (`runFiller`), in what the engine wrote around the
 *   person's words (outside quotation marks: "in terms of" said by the person is theirs).
 *
 * The honest decline ("I haven't talked about that…") is not checked: the caller leaves it out.
 */
import { terms } from '../src/memory/sentences.ts';

export const FIELDS = ['saying', 'thinking', 'feeling', 'acting'] as const;
export type Field = (typeof FIELDS)[number];
export type AnswerFields = Record<Field, string>;

/** The share of a field's content words found in another field at or beyond which the two repeat each other. */
export const SHARED_SHARE = 0.5;
/** A phrase that recurs across a run is this many consecutive words (outside quotation marks). */
export const FILLER_WORDS = 4;
/** …in more than this share of a run's answers. */
export const FILLER_SHARE = 0.5;

/** The old engine's stock phrases (issue 29), each filler wherever it appears. */
export const STOCK_PHRASES = [
  'in terms of',
  'talk about this with warmth and conviction',
  'they would act on the view above',
  'describe it without strong emotion',
  'touches on something that troubles them',
  'there is both enthusiasm and unease',
];

export interface SharedField {
  a: Field;
  b: Field;
  share: number;
}

export interface ReaderFindings {
  /** Pairs of fields that repeat each other (share ≥ SHARED_SHARE). */
  shared: SharedField[];
  /** Why the saying reads as cut inside a sentence, or null. */
  cut: string | null;
  /** The filler phrases found. */
  filler: string[];
}

const stemsOf = (text: string): Set<string> => new Set(terms(text));

/** |A ∩ B| / min(|A|, |B|) over distinct content stems; 0 when either has none. */
export function sharedShare(a: string, b: string): number {
  const x = stemsOf(a);
  const y = stemsOf(b);
  const smaller = Math.min(x.size, y.size);
  if (smaller === 0) return 0;
  let both = 0;
  for (const s of x) if (y.has(s)) both++;
  return both / smaller;
}

/**
 * Words on which no finished sentence ends: articles, coordinating conjunctions, "because", "if",
 * "than" and possessive determiners ("…and.", "…because.", "…the."). Prepositions and "that" are not
 * among them: "something we're proud of.", "and things like that." end sentences.
 */
const DANGLING = new Set('a an the and or nor but because if than my your our their its'.split(' '));
const FINAL_RE = /[.!?…]["”'’)\]]*$/;

/** Why a saying reads as cut inside a sentence, or null when it runs to a sentence end. */
export function cutSaying(saying: string): string | null {
  const text = saying.trim();
  if (!text) return 'empty';
  if (!FINAL_RE.test(text)) return 'no sentence-final punctuation';
  if (/[,;:–—-]\s*[.!?…]/.test(text)) return 'a clause cut off (",." inside or at the end)';
  const last = text.replace(/[.!?…"”'’)\]]+$/, '').split(/\s+/).pop()?.toLowerCase() ?? '';
  if (DANGLING.has(last)) return `ends on "${last}"`;
  return null;
}

/** A text without what it quotes ("…" and “…”): what the engine wrote around the person's words. */
export function outsideQuotes(text: string): string {
  return text.replace(/“[^”]*”?/g, ' ').replace(/"[^"]*"?/g, ' ');
}

const lowerWords = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu) ?? [];

/** The distinct phrases of FILLER_WORDS words an answer writes around its quotes, over its four fields. */
function phrasesOf(answer: AnswerFields): Set<string> {
  const out = new Set<string>();
  for (const f of FIELDS) {
    if (f === 'saying') continue; // the saying is the person's own words throughout
    const words = lowerWords(outsideQuotes(answer[f]));
    for (let i = 0; i + FILLER_WORDS <= words.length; i++) out.add(words.slice(i, i + FILLER_WORDS).join(' '));
  }
  return out;
}

/** The phrases that recur in more than FILLER_SHARE of a run's (non-declined) answers. */
export function runFiller(answers: readonly AnswerFields[]): string[] {
  const counts = new Map<string, number>();
  for (const a of answers) for (const p of phrasesOf(a)) counts.set(p, (counts.get(p) ?? 0) + 1);
  return [...counts]
    .filter(([, n]) => n > FILLER_SHARE * answers.length)
    .map(([p]) => p)
    .sort();
}

/**
 * Whether a stock phrase, where the engine wrote it, is the person's own (the phrase and the word
 * after it said in the evidence: "in terms of what you're receiving" reported from their sentence).
 */
function theirs(text: string, phrase: string, evidence: string): boolean {
  const words = lowerWords(text).join(' ');
  const said = ` ${lowerWords(evidence).join(' ')} `;
  let at = words.indexOf(phrase);
  while (at >= 0) {
    const next = words.slice(at + phrase.length).trim().split(' ')[0] ?? '';
    if (!said.includes(` ${phrase} ${next} `)) return false;
    at = words.indexOf(phrase, at + 1);
  }
  return true;
}

/** One answer's findings; `recurring` are the run's recurring phrases (runFiller), `evidence` the texts it quotes. */
export function checkAnswer(answer: AnswerFields, recurring: readonly string[] = [], evidence: readonly string[] = []): ReaderFindings {
  const shared: SharedField[] = [];
  FIELDS.forEach((a, i) => {
    for (const b of FIELDS.slice(i + 1)) {
      const share = sharedShare(answer[a], answer[b]);
      if (share >= SHARED_SHARE) shared.push({ a, b, share });
    }
  });
  const all = FIELDS.filter((f) => f !== 'saying').map((f) => outsideQuotes(answer[f]).toLowerCase().replace(/\s+/g, ' ')).join('\n');
  const around = new Set(phrasesOf(answer));
  const said = evidence.join(' ');
  const filler = [...STOCK_PHRASES.filter((p) => all.includes(p) && !theirs(all, p, said)), ...recurring.filter((p) => around.has(p))];
  return { shared, cut: cutSaying(answer.saying), filler };
}

export interface RunSummary {
  /** Answers checked (the declined ones left out by the caller). */
  checked: number;
  /** Answers with a field sharing half its content words with another field. */
  sharedWords: number;
  cutSayings: number;
  /** Answers with template filler. */
  filler: number;
  /** The run's recurring phrases (beyond the stock ones). */
  recurring: string[];
  findings: ReaderFindings[];
}

/** An answer as the check reads it: its four fields and the texts of its evidence. */
export interface CheckedAnswer extends AnswerFields {
  evidence?: readonly string[];
}

/** Every answer of a run checked, the recurring phrases computed over the run (or given: a whole run's, for a part of it). */
export function checkRun(answers: readonly CheckedAnswer[], recurring: readonly string[] = runFiller(answers)): RunSummary {
  const findings = answers.map((a) => checkAnswer(a, recurring, a.evidence ?? []));
  return {
    checked: answers.length,
    sharedWords: findings.filter((f) => f.shared.length > 0).length,
    cutSayings: findings.filter((f) => f.cut !== null).length,
    filler: findings.filter((f) => f.filler.length > 0).length,
    recurring: [...recurring],
    findings,
  };
}
