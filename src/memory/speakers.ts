/**
 * Who is the person? Picks the speaker label whose words become the mind's memories.
 *
 * Order of precedence (see `choosePerson`):
 *  1. no labels at all (every speaker null) → null: all the text is the person's (a monologue);
 *  2. an explicit speaker, matched case/whitespace-insensitively to a label, else by name tokens
 *     ("Jason" → "Jason Snell"); an explicit speaker that matches no label is returned as given,
 *     so it yields no memories rather than silently mind-building from someone else's words;
 *  3. the label matching the mind's name (full name first, else shared first/last-name tokens);
 *  4. the speaker who mostly answers: role labels ("A", "Respondent", "Guest" vs "Q", "Interviewer",
 *     "Host"), fewer question marks per turn, more words per turn and overall.
 */
import type { Utterance } from '../ingest/transcript.ts';
import { ROLE_PRIOR, TURN_LENGTH_WEIGHT } from './tuning.ts';

/** Case/whitespace-insensitive key of a label. */
export function labelKey(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** True when two labels name the same speaker (null only equals null). */
export function sameSpeaker(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  return labelKey(a) === labelKey(b);
}

const HONORIFICS = new Set(['mr', 'mrs', 'ms', 'miss', 'dr', 'prof', 'sir', 'madam', 'mx']);
const INTERVIEWER_RE =
  /^(interviewer|question|questions|host|co-?host|moderator|facilitator|researcher|reporter|journalist|presenter|anchor)\b|^(q|i|int)$/;
const PERSON_RE = /^(answer|answers|respondent|interviewee|guest|participant|subject|candidate)\b|^(a|r|p\s?\d+)$/;

/** Name tokens of a label or mind name: lower-cased words, honorifics and initials dropped. */
function nameTokens(name: string): string[] {
  const tokens = name.toLowerCase().match(/\p{L}[\p{L}'’-]*/gu) ?? [];
  return tokens.filter((t) => t.length > 1 && !HONORIFICS.has(t));
}

/**
 * Speaker of each utterance after filling gaps: in a labelled transcript an unlabelled
 * utterance continues the previous speaker's turn (multi-paragraph answers). Utterances before
 * the first label stay null (a title, a preamble: nobody's words).
 */
export function effectiveSpeakers(utterances: readonly Utterance[]): Array<string | null> {
  let previous: string | null = null;
  return utterances.map((u) => {
    const label = u.speaker?.trim() || null;
    if (label !== null) previous = label;
    return label ?? previous;
  });
}

/** Distinct labels in order of first appearance (first written form of each key). */
function distinctLabels(speakers: ReadonlyArray<string | null>): string[] {
  const seen = new Map<string, string>();
  for (const s of speakers) if (s !== null && !seen.has(labelKey(s))) seen.set(labelKey(s), s);
  return [...seen.values()];
}

/** Labels sharing the most name tokens with `name` (exact full-name matches first); [] if none. */
function matchByName(labels: readonly string[], name: string): string[] {
  const wanted = nameTokens(name);
  if (wanted.length === 0) return [];
  const full = wanted.join(' ');
  const exact = labels.filter((l) => nameTokens(l).join(' ') === full);
  if (exact.length > 0) return exact;
  let best = 0;
  let matches: string[] = [];
  for (const label of labels) {
    const shared = nameTokens(label).filter((t) => wanted.includes(t)).length;
    if (shared > best) [best, matches] = [shared, [label]];
    else if (shared === best && shared > 0) matches.push(label);
  }
  return matches;
}

interface SpeakerStats {
  turns: number;
  words: number;
  questionMarks: number;
}

/** Turn/word/question-mark counts per label key; consecutive utterances of one speaker are one turn. */
function speakerStats(utterances: readonly Utterance[], speakers: ReadonlyArray<string | null>): Map<string, SpeakerStats> {
  const stats = new Map<string, SpeakerStats>();
  let previousKey: string | null = null;
  utterances.forEach((u, i) => {
    const speaker = speakers[i];
    if (speaker === null || speaker === undefined) return;
    const key = labelKey(speaker);
    const s = stats.get(key) ?? { turns: 0, words: 0, questionMarks: 0 };
    if (key !== previousKey) s.turns += 1;
    s.words += u.text.split(/\s+/).filter(Boolean).length;
    s.questionMarks += (u.text.match(/\?/g) ?? []).length;
    stats.set(key, s);
    previousKey = key;
  });
  return stats;
}

/** Prior from the label itself: +ROLE_PRIOR for answer-side roles, −ROLE_PRIOR for interviewer roles. */
function rolePrior(label: string): number {
  const key = labelKey(label).replace(/[:.]+$/, '');
  if (INTERVIEWER_RE.test(key)) return -ROLE_PRIOR;
  if (PERSON_RE.test(key)) return ROLE_PRIOR;
  return 0;
}

/** The candidate who most looks like the one answering; ties go to the first to speak. */
function mostLikelyAnswerer(candidates: readonly string[], stats: Map<string, SpeakerStats>): string | null {
  const totalWords = [...stats.values()].reduce((sum, s) => sum + s.words, 0) || 1;
  const wordsPerTurn = (s: SpeakerStats): number => s.words / Math.max(1, s.turns);
  const maxWpt = Math.max(1, ...[...stats.values()].map(wordsPerTurn));
  let best: string | null = null;
  let bestScore = -Infinity;
  for (const label of candidates) {
    const s = stats.get(labelKey(label)) ?? { turns: 0, words: 0, questionMarks: 0 };
    const questionRate = Math.min(1, s.questionMarks / Math.max(1, s.turns));
    const score = rolePrior(label) + s.words / totalWords + (TURN_LENGTH_WEIGHT * wordsPerTurn(s)) / maxWpt - questionRate;
    if (score > bestScore) [best, bestScore] = [label, score];
  }
  return best;
}

/** Resolve a client's explicit speaker against the labels (see the module comment). */
function matchExplicit(labels: readonly string[], explicit: string, stats: Map<string, SpeakerStats>): string {
  const wanted = labelKey(explicit);
  const exact = labels.find((l) => labelKey(l) === wanted);
  if (exact !== undefined) return exact;
  const byName = matchByName(labels, explicit);
  return mostLikelyAnswerer(byName, stats) ?? explicit.trim().replace(/\s+/g, ' ');
}

/**
 * The speaker label taken to be the person, as written in the transcript, or null when no
 * utterance is labelled (all the text is the person's). See the module comment for the order.
 */
export function choosePerson(utterances: readonly Utterance[], mindName: string, explicit?: string | null): string | null {
  const speakers = effectiveSpeakers(utterances);
  const labels = distinctLabels(speakers);
  if (labels.length === 0) return null;
  const stats = speakerStats(utterances, speakers);
  if (explicit?.trim()) return matchExplicit(labels, explicit, stats);
  const byName = matchByName(labels, mindName);
  return mostLikelyAnswerer(byName.length > 0 ? byName : labels, stats);
}
