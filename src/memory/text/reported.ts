/**
 * A view of the person's reported in the third person, as one plain sentence, for `thinking`'s lead.
 *
 * - Said in the first person, it is turned to the third, word by word where that keeps it
 *   grammatical: "I need to give myself permission to take a break" → "They need to give themselves
 *   permission to take a break"; "I think it speaks to our model" → "They think it speaks to their
 *   model"; "I" + am/was (even with adverbs between: "I actually am") → "they are/were".
 * - A rule said of no one in particular is reported: "It's always good to have several clients" →
 *   "They hold that it's always good to have several clients".
 *
 * A sentence that cannot be turned safely is not reported (it can still be quoted): a question, one
 * holding a quote (whose "I" is someone else's), an idiom ("oh my god"), one longer than
 * VIEW_MAX_WORDS, one starting with a word that may be a name (the tagger cannot tell "Amazon
 * wants…" from "Stuff you don't do…" at a sentence's start).
 */
import { VIEW_MAX_WORDS } from '../tuning.ts';
import { FIRST_PERSON_RE, isQuestion, reasonOf } from './readings.ts';
import { tidy } from './tidy.ts';

/** Words a sentence may open with that stay lower-case after "They hold that". */
const OPENERS = new Set(
  ("it it's its that that's this there there's these those the a an you you're your people everyone everybody nobody no " +
    "not most many some if when whenever what how why to in for on at as all any every each being having one so because " +
    "sometimes often always never doing just maybe probably certainly they they're them their he she his her success " +
    "money time work life nothing something anything everything good great hard").split(' '),
);

/** Adverbs that may stand between "I" and "am"/"was" ("I actually am", "I really wasn't"). */
const BETWEEN = String.raw`(?:\s+(?:\w+ly|just|also|still|even|never|always|not|kind of|sort of))*`;

/** First person → third, in order (case-sensitive: "US" is a country). */
const TURNS: Array<[RegExp, string]> = [
  [/\b(I|we|We)['’]m\b/g, "they're"],
  [/\b(?:I|we|We)['’]re\b/g, "they're"],
  [/\b(?:I|we|We)['’]ve\b/g, "they've"],
  [/\b(?:I|we|We)['’]d\b/g, "they'd"],
  [/\b(?:I|we|We)['’]ll\b/g, "they'll"],
  [new RegExp(String.raw`\bI(${BETWEEN})\s+am\b`, 'g'), 'they$1 are'],
  [new RegExp(String.raw`\bI(${BETWEEN})\s+was\b`, 'g'), 'they$1 were'],
  [new RegExp(String.raw`\bI(${BETWEEN})\s+wasn['’]t\b`, 'g'), "they$1 weren't"],
  [/\bam I\b/g, 'are they'],
  [/\bwas I\b/g, 'were they'],
  [/\b(?:I|we|We)\b/g, 'they'],
  [/\b(?:myself|ourselves|Myself|Ourselves)\b/g, 'themselves'],
  [/\b(?:mine|ours)\b/g, 'theirs'],
  [/\b(?:my|our|My|Our)\b/g, 'their'],
  [/\b(?:me|us)\b/g, 'them'],
];

/** Idioms that a word-by-word turn would break ("oh my god" is not "oh their god"). */
const IDIOM_RE = /\b(?:oh my|my (?:god|gosh|goodness|lord|bad)|excuse me|let me (?:tell|say|think|see)|trust me|believe me)\b/i;

const capitalised = (t: string): string => t.charAt(0).toUpperCase() + t.slice(1);

/** The sentence as one plain third-person sentence, or null when it cannot be turned safely. */
export function reported(sentence: string): string | null {
  const text = tidy(sentence);
  if (isQuestion(text) || /["“”]/.test(text) || IDIOM_RE.test(text) || text.split(/\s+/).length > VIEW_MAX_WORDS) return null;
  const ended = /[.!…]$/.test(text) ? text : `${text.replace(/[,;:—–-]+$/, '')}.`;
  if (FIRST_PERSON_RE.test(ended)) return capitalised(TURNS.reduce((t, [re, to]) => t.replace(re, to), ended));
  // Said of no one in particular, only a rule is something they hold ("It's always good to…"); a cause or a story is not.
  const first = ended.split(/\s+/)[0]?.toLowerCase() ?? '';
  return OPENERS.has(first) && reasonOf(ended) === 'rule' ? `They hold that ${ended.charAt(0).toLowerCase()}${ended.slice(1)}` : null;
}
