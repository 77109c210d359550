/**
 * Prompts for mind-reasoner-pro: the person's profile, the experts' reflections and their own
 * statements (the whole transcript when it fits the context budget, else the retrieved ones).
 * The interviewer's words appear only as the questions the person answered, marked as such.
 */
import type { MindProfile } from '../memory/profile-merge.ts';
import type { Memory, StoredMemory } from '../memory/types.ts';
import type { ConversationTurn, Reflection } from './types.ts';

/** At most this many words of a topic's passage in the prompt. */
const BRIEF_PASSAGE_WORDS = 45;

/** A window of at most `max` words of a passage, around the first mention of the topic when it is cut. */
function excerpt(text: string, mentions: readonly string[], max: number): string {
  const ws = text.split(/\s+/);
  if (ws.length <= max) return text;
  const lower = ws.map((w) => w.toLowerCase());
  const heads = mentions.map((m) => m.toLowerCase().split(' ')[0] ?? '').filter(Boolean);
  const at = Math.max(0, lower.findIndex((w) => heads.some((h) => w.startsWith(h))));
  const from = Math.max(0, Math.min(at - 8, ws.length - max));
  return `${from > 0 ? '…' : ''}${ws.slice(from, from + max).join(' ')}${from + max < ws.length ? '…' : ''}`;
}

export function profileBrief(p: MindProfile): string {
  const lines: string[] = [];
  if (p.topics.length) {
    lines.push('Subjects they talk about (mentions, sentiment), each with a passage in their own words:');
    for (const t of p.topics.slice(0, 10)) {
      const words = t.passages[0]?.text ?? t.stances[0]?.text;
      lines.push(`- ${t.label} (${t.mentions}, ${t.affect.label})${words ? `: "${excerpt(words, [t.label, t.key], BRIEF_PASSAGE_WORDS)}"` : ''}`);
    }
  }
  if (p.behaviours.length) {
    lines.push('Behaviours they state:');
    for (const b of p.behaviours.slice(0, 10)) lines.push(`- [${b.kind}] "${b.evidence.text}"`);
  }
  const s = p.style;
  const phrases = (xs: Array<{ phrase: string }>) => xs.slice(0, 6).map((x) => `"${x.phrase}"`).join(', ') || 'none';
  lines.push(
    `Style: ${s.avgSentenceWords} words per sentence on average; signature phrases ${phrases(s.signaturePhrases)}; ` +
      `fillers ${phrases(s.fillers)}; hedges ${phrases(s.hedges)}.`,
  );
  return lines.join('\n');
}

export function reflectionsBrief(reflections: readonly Reflection[]): string {
  if (reflections.length === 0) return '(none)';
  return reflections.map((r) => `[${r.expert}] ${r.text}`).join('\n');
}

/** The statements sent: as many as the context budget allows, from the start. */
export function withinBudget(memories: readonly Memory[], budget: number): Memory[] {
  const sent: Memory[] = [];
  let words = 0;
  for (const m of memories) {
    words += m.text.split(' ').length;
    if (words > budget) break;
    sent.push(m);
  }
  return sent;
}

/** Memories as numbered lines, grouped under the question they answered. */
export function memoriesBrief(memories: readonly StoredMemory[]): string {
  const lines: string[] = [];
  let question: string | null = null;
  memories.forEach((m, i) => {
    if (m.question && m.question !== question) lines.push(`(Interviewer asked: "${m.question}")`);
    question = m.question;
    lines.push(`[M${i + 1}] ${m.text}`);
  });
  return lines.join('\n');
}

export function simulationSystem(mindName: string): string {
  return (
    `You simulate ${mindName}, a real person, from what they said in interviews. ` +
    'Answer only from the material given: their profile, expert reflections about them and their own statements. ' +
    "Never present the interviewer's words as theirs. When the material does not cover the scenario, say so and give a low confidence."
  );
}

/** The passages retrieval picked for the scenario, best first, each a contiguous stretch of their words. */
export function passagesBrief(passages: ReadonlyArray<readonly StoredMemory[]>): string {
  if (passages.length === 0) return '(nothing they said matches this scenario closely)';
  return passages
    .map((p, i) => {
      const q = p[0]?.question;
      return `[P${i + 1}]${q ? ` (answering: "${q}")` : ''} ${p.map((m) => m.text).join(' ')}`;
    })
    .join('\n');
}

/** The person's own corrections that answer the scenario, best first (issue 32): what they would really say. */
export function correctionsBrief(corrections: ReadonlyArray<{ scenario: string; answer: string }>): string {
  return corrections.map((c, i) => `[C${i + 1}] Asked "${c.scenario}", they would really say: ${c.answer}`).join('\n');
}

export function simulationPrompt(
  mindName: string,
  profile: string,
  reflections: string,
  passages: string,
  memories: string,
  scenario: string,
  history: readonly ConversationTurn[] = [],
  corrections = '',
): string {
  return [
    ...(corrections
      ? [
          `# ${mindName}'s own corrections (they reviewed earlier answers and wrote what they would really say; on the same point these win over everything below, the transcript included)`,
          corrections,
        ]
      : []),
    `# Profile of ${mindName}`,
    profile,
    '# Expert reflections',
    reflections,
    `# What ${mindName} said that bears most on this scenario (best first)`,
    passages,
    `# Everything else ${mindName} said`,
    memories,
    ...(history.length ? [`# The conversation so far (oldest first; the scenario below continues it)`, historyBrief(mindName, history)] : []),
    '# Scenario',
    scenario,
    '# Task',
    `Answer as ${mindName} would. thinking: how they would reason about it (third person). feeling: how they would feel. ` +
      `saying: what they would say, in the first person, in their own phrasing and style (reuse their words, lead with ${corrections ? 'their own correction, then ' : ''}the passages above). ` +
      'acting: what they would do. confidence: 0 to 1, how well the material supports this answer.',
  ].join('\n\n');
}

/** Earlier turns as lines: what the user said, and what was answered as the person. */
export function historyBrief(mindName: string, history: readonly ConversationTurn[]): string {
  return history.map((t) => `${t.role === 'user' ? 'User' : mindName}: ${t.text}`).join('\n');
}

export function reflectionSystem(): string {
  return (
    'You are a panel of four experts — a psychologist, a behavioural economist, a political scientist and a demographer. ' +
    'Each writes a short reflection (3 to 5 sentences) on the person, grounded only in the material given.'
  );
}

export function reflectionPrompt(mindName: string, profile: string, memories: string): string {
  return [`# Profile of ${mindName}`, profile, `# What ${mindName} said`, memories, '# Task', `Write the four reflections on ${mindName}.`].join(
    '\n\n',
  );
}
