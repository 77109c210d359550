/**
 * The offline engine's thinking, feeling and acting: the passages it answers from, said in
 * plain language about the person (their own sentences turned to the third person: "I always
 * pair with juniors" → "they always pair with juniors"), never a template around quotes.
 * Each part lists the docs (sentence numbers) it used, for the evidence.
 */
import { FEELING_LEANING, FEELING_MIXED, FEELING_STRONG } from '../memory/tuning.ts';
import { behaviourStrength } from '../memory/behaviours.ts';
import type { MindMemory } from '../memory/mind-memory.ts';
import { pickTopics, topicRank } from '../memory/profile-topics.ts';

const LEADING_FILLER_RE = /^(?:(?:and|but|so|yeah|well|um|uh|oh|like|okay|ok|you know|I mean|I guess|right)[,.]?\s+)+/i;
const INLINE_FILLER_RE = /,?\s+\b(?:uh|um|erm)\b,?/gi;
const REASONING_RE =
  /\b(because|since|depends|important|matters?|worr(y|ied)|risk|reason|trade-?off|balance|priorit\w*|rather|instead|the thing is|I think|I believe|I feel|the key|should|need to|have to)\b/i;

/** Tidy a spoken sentence for quoting: drop leading "And/So/Yeah," and inline "uh/um", capitalise. */
export function tidy(text: string): string {
  let t = text.replace(/^[\s.,;:…—–-]+/, '');
  if (t.startsWith('"') && (t.match(/"/g) ?? []).length % 2 === 1) t = t.slice(1); // a quote opened in the previous sentence
  t = t.replace(INLINE_FILLER_RE, '').replace(LEADING_FILLER_RE, '').trim() || text.trim();
  const capital = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?…"”']$/.test(capital) ? capital : `${capital}.`;
}

const THIRD_PERSON: Array<[RegExp, string]> = [
  [/\bI'm\b/g, "they're"],
  [/\bI am\b/g, 'they are'],
  [/\bI was\b/g, 'they were'],
  [/\bI wasn't\b/g, "they weren't"],
  [/\bI've\b/g, "they've"],
  [/\bI'd\b/g, "they'd"],
  [/\bI'll\b/g, "they'll"],
  [/\bam I\b/g, 'are they'],
  [/\bwas I\b/g, 'were they'],
  [/\bI\b/g, 'they'],
  [/\bmyself\b/gi, 'themselves'],
  [/\bmine\b/gi, 'theirs'],
  [/\bmy\b/gi, 'their'],
  [/\bme\b/gi, 'them'],
];

/** A sentence of theirs, about them: first person turned into the third (not inside quotes), tidied, lower-case start. */
export function aboutThem(text: string): string {
  // Quotes ("and I said 'I'm done'") stay as spoken; a quote left open runs to the end of the sentence.
  let quoted = false;
  const t = tidy(text)
    .split(/(["“”])/)
    .map((part) => {
      if (/^["“”]$/.test(part)) {
        quoted = !quoted;
        return part;
      }
      return quoted ? part : THIRD_PERSON.reduce((acc, [re, to]) => acc.replace(re, to), part);
    })
    .join('');
  return t.charAt(0).toLowerCase() + t.slice(1);
}

const capitalised = (t: string): string => t.charAt(0).toUpperCase() + t.slice(1);

/** Up to `max` subjects (nouns and noun phrases) of some sentences, most mentioned first, phrases before single nouns. */
function subjects(mind: MindMemory, docs: readonly number[], max: number): string[] {
  return pickTopics(
    docs.map((d) => mind.reading(d).candidates),
    1,
  )
    .map((p) => ({ p, rank: topicRank(p.sentences.length, p.words) }))
    .sort((a, b) => b.rank - a.rank || (a.p.key < b.p.key ? -1 : 1))
    .slice(0, max)
    .map(({ p }) => [...p.forms].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? p.key);
}

const list = (xs: readonly string[]): string => (xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

export interface Described {
  text: string;
  used: number[];
}

const textOf = (mind: MindMemory, doc: number): string => mind.memories[doc]?.text ?? '';

/** What they would weigh: the subjects of the passage and the reasons they gave in it, in the third person. */
export function describeThinking(mind: MindMemory, passage: readonly number[]): Described {
  const reasons = passage.filter((d) => REASONING_RE.test(textOf(mind, d))).slice(0, 2);
  const used = reasons.length > 0 ? reasons : passage.slice(0, 1);
  const about = subjects(mind, passage, 3);
  const lead = about.length > 0 ? `They would think about it in terms of ${list(about)}.` : 'They would think it through from their own experience.';
  const [first, second] = used.map((d) => aboutThem(textOf(mind, d)));
  return { text: [lead, first ? capitalised(first) : '', second ? `Beyond that, ${second}` : ''].filter(Boolean).join(' '), used };
}

/** How they feel about it: the passage's sentiment, with the sentence that shows it most. */
export function describeFeeling(mind: MindMemory, passage: readonly number[]): Described {
  const rated = passage.map((d) => ({ d, s: mind.reading(d).sentiment }));
  const mean = rated.reduce((sum, r) => sum + r.s, 0) / Math.max(1, rated.length);
  const strongest = [...rated].sort((a, b) => Math.abs(b.s) - Math.abs(a.s) || a.d - b.d)[0];
  const pos = rated.filter((r) => r.s >= FEELING_STRONG).length;
  const neg = rated.filter((r) => r.s <= -FEELING_STRONG).length;
  if (!strongest) return { text: 'Unknown: they have not expressed feelings about anything like this.', used: [] };
  const shown = aboutThem(textOf(mind, strongest.d));
  const used = [strongest.d];
  if (pos > 0 && neg > 0 && Math.abs(mean) < FEELING_MIXED) return { text: `Mixed: there is both enthusiasm and unease in how they talk about it; ${shown}`, used };
  if (mean >= FEELING_LEANING) return { text: `Positive: they talk about this with warmth and conviction; ${shown}`, used };
  if (mean <= -FEELING_LEANING) return { text: `Uneasy: this touches on something that troubles them; ${shown}`, used };
  return { text: `Calm and matter-of-fact: they describe it without strong emotion; ${shown}`, used };
}

/** What they would do: the behaviours they state in the passage, else habits they state near it, in the third person. */
export function describeActing(mind: MindMemory, passage: readonly number[], pool: readonly number[]): Described {
  const near = pool.filter((d) => !passage.includes(d));
  const stated = [
    ...passage.map((d) => ({ d, strength: behaviourStrength(textOf(mind, d)) + 1 })),
    ...near.map((d) => ({ d, strength: behaviourStrength(textOf(mind, d)) })).filter((b) => b.strength >= 2),
  ];
  const used = stated
    .filter((b) => b.strength > 1)
    .sort((a, b) => b.strength - a.strength || a.d - b.d)
    .slice(0, 2)
    .map((b) => b.d)
    .sort((a, b) => a - b);
  if (used.length === 0) return { text: 'They have not said what they do in situations like this; going by their words, they would act on the view above.', used };
  return { text: `Going by what they say they do: ${used.map((d) => aboutThem(textOf(mind, d))).join(' And ')}`, used };
}
