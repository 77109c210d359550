/** The fidelity evaluation's results as a Markdown report (EVAL.md). */

export interface Scores {
  tokenF1: number;
  rougeL: number;
  contentF1: number;
}

export interface Scored {
  person: string;
  file: string;
  format: string;
  engine: Scores;
  /** The engine said it does not know (off-topic answer, no evidence). */
  unknown: boolean;
  random: Scores;
  other: Scores;
  /** The best any other answer of the same person scores: a ceiling for quoting engines. */
  ceiling: { tokenF1: number; contentF1: number };
}

export interface ReportMeta {
  dir: string;
  interviews: number;
  formats: string[];
  perInterview: number;
  seconds: number;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);
const f = (n: number) => n.toFixed(3);
const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : '–');

function row(label: string, rows: readonly Scored[]): string {
  const m = (pick: (s: Scored) => number) => mean(rows.map(pick));
  const e = { t: m((s) => s.engine.tokenF1), c: m((s) => s.engine.contentF1) };
  const r = { t: m((s) => s.random.tokenF1), c: m((s) => s.random.contentF1) };
  const unknown = rows.filter((s) => s.unknown).length;
  return (
    `| ${label} | ${rows.length} | ${unknown} | ${f(e.t)} | ${f(m((s) => s.engine.rougeL))} | ${f(e.c)} | ` +
    `${f(r.t)} | ${f(m((s) => s.random.rougeL))} | ${f(r.c)} | ` +
    `${f(m((s) => s.other.tokenF1))} | ${f(m((s) => s.other.rougeL))} | ${f(m((s) => s.other.contentF1))} | ` +
    `${f(m((s) => s.ceiling.tokenF1))} / ${f(m((s) => s.ceiling.contentF1))} | ${ratio(e.t, r.t)} | ${ratio(e.c, r.c)} |`
  );
}

const HEAD =
  '| | answers | "don\'t know" | engine F1 | engine R-L | engine content F1 | random F1 | random R-L | random content F1 | ' +
  'other-person F1 | other R-L | other content F1 | ceiling F1 / content | engine ÷ random F1 | engine ÷ random content F1 |\n' +
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|';

export function renderReport(scored: readonly Scored[], meta: ReportMeta): string {
  const people = [...new Map(scored.map((s) => [s.person, s.file])).entries()];
  const all = (pick: (s: Scored) => number) => mean(scored.map(pick));
  return [
    '# Fidelity evaluation',
    '',
    '`npm run eval` (eval/run.ts) — held-out answer prediction through the public API on a freshly started',
    "service, offline engine (`mind-reasoner-standard`). For each interview some of the guest's answers",
    '(≥ 25 words, spread over the interview) are held out; the mind is built from the rest of the transcript,',
    'rendered to each format (Teams-style VTT, DOCX with `Name  00:01:07` headers, PDF with `NAME:` turns)',
    'and uploaded; each held-out question is reworded deterministically (fillers dropped, a leading',
    '"When/If …," clause moved to the end, synonyms from a small list) and asked. The simulated `saying` is',
    'scored against the real answer: token F1 and ROUGE-L F1 over all lower-cased words, and token F1 over',
    'content words (wink-nlp stems, stop words removed).',
    '',
    'Baselines: **random** — a random other answer of the same person (seeded); **other-person** — the answer',
    'another guest gave to the nearest question (stem Jaccard) in another interview. **Ceiling** — the best',
    "score any single other answer of the same person reaches (an oracle pick): no engine that quotes the",
    'person can expect more on average. "don\'t know" counts answers where the engine found nothing relevant',
    'and said so (low confidence, no evidence): they score ≈ 0.',
    '',
    `Transcripts: ${meta.interviews} from \`${meta.dir}\` (Changelog Media, CC BY-SA 4.0; read in place, not copied).`,
    `Formats: ${meta.formats.join(', ')}. Held out: up to ${meta.perInterview} answers per interview. Run time: ${meta.seconds.toFixed(0)} s.`,
    '',
    `**Overall: engine ÷ same-person random = ${ratio(all((s) => s.engine.tokenF1), all((s) => s.random.tokenF1))} on token F1, ` +
      `${ratio(all((s) => s.engine.contentF1), all((s) => s.random.contentF1))} on content-word F1** (target ≥ 1.5×; ` +
      `the oracle ceiling is ${ratio(all((s) => s.ceiling.tokenF1), all((s) => s.random.tokenF1))} / ` +
      `${ratio(all((s) => s.ceiling.contentF1), all((s) => s.random.contentF1))}).`,
    '',
    '## Overall, per format',
    '',
    HEAD,
    ...meta.formats.map((fmt) => row(fmt, scored.filter((s) => s.format === fmt))),
    row('**all**', scored),
    '',
    '## Reading the numbers',
    '',
    '- Token F1 over all words rewards answering at the right length in the person\'s everyday words, which',
    '  any answer of theirs does: a random other answer of the same person already scores',
    `  ${f(all((s) => s.random.tokenF1))}, and the best single answer they ever gave scores ${f(all((s) => s.ceiling.tokenF1))} on average —`,
    `  only ${ratio(all((s) => s.ceiling.tokenF1), all((s) => s.random.tokenF1))} the random baseline. An engine that answers with the person's own statements cannot`,
    '  reach 1.5× on this metric; content-word F1 (topic words only) separates topical answers from random ones better.',
    `- The engine declines ("I haven't talked about that", confidence ≤ 0.1) on ${scored.filter((s) => s.unknown).length} of ${scored.length} questions: podcast`,
    '  questions often lean on the conversation before them ("How significant has that been for you?"), and nothing',
    '  the person said elsewhere matches. Those answers score ≈ 0 and pull the averages down; on the questions it',
    `  answers, engine token F1 is ${f(mean(scored.filter((s) => !s.unknown).map((s) => s.engine.tokenF1)))} and content-word F1 ${f(mean(scored.filter((s) => !s.unknown).map((s) => s.engine.contentF1)))}.`,
    '- The three formats give identical numbers: the same transcript yields the same memories from VTT, DOCX and PDF.',
    '',
    '## Per person (all formats)',
    '',
    HEAD,
    ...people.map(([person, file]) => row(`${person} (${file})`, scored.filter((s) => s.person === person))),
    '',
  ].join('\n');
}
