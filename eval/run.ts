/**
 * `npm run eval [dir] [--limit N] [--per N] [--formats vtt,docx,pdf] [--out EVAL.md]`
 *
 * Held-out answer prediction through the public API (see eval/report.ts for the method).
 * Starts the service on a free port with a fresh data folder, like the tests do.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { client, fileForm, startServer, waitForSnapshot, type Client } from '../test/support/server.ts';
import { makeDocx, makePdf, teamsVtt, type Turn } from '../test/support/fixtures.ts';
import { scoreAnswer as wordScores, tokenF1 } from '../src/memory/fidelity.ts';
import { seededRandom } from '../src/memory/seeded-random.ts';
import { terms } from '../src/memory/sentences.ts';
import { holdOut, readInterviews, withoutHeldOut, type Interview, type QaPair } from './interviews.ts';
import { paraphrase } from './paraphrase.ts';
import { renderReport, type Scored } from './report.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const DEFAULT_DIR = '/work/shared/data/interviews/changelog';
const RENDER: Record<string, { file: string; make: (turns: Turn[]) => Promise<Buffer | string> }> = {
  vtt: { file: 'interview.vtt', make: async (turns) => teamsVtt(turns) },
  docx: { file: 'interview.docx', make: (turns) => makeDocx(turns) },
  pdf: { file: 'interview.pdf', make: (turns) => makePdf(turns) },
};

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    limit: { type: 'string' },
    per: { type: 'string', default: '8' },
    formats: { type: 'string', default: 'vtt,docx,pdf' },
    out: { type: 'string', default: path.join(ROOT, 'EVAL.md') },
    seed: { type: 'string', default: '7' },
  },
});
const dir = path.resolve(positionals[0] ?? DEFAULT_DIR);
const per = Number(values.per);
const formats = values.formats.split(',').filter((f) => f in RENDER);

const stems = (text: string) => new Set(terms(text));
/** Token F1 and ROUGE-L over all words, and token F1 over content words (stems, stop words removed). */
const scoreAnswer = (predicted: string, real: string) => ({ ...wordScores(predicted, real), contentF1: tokenF1(terms(predicted), terms(real)) });
const MIN_BASELINE_WORDS = 25;
function jaccard(a: Set<string>, b: Set<string>): number {
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter === 0 ? 0 : inter / (a.size + b.size - inter);
}

/** The answer another guest gave to the question nearest this one (another interview). */
function otherPersonAnswer(question: string, own: Interview, all: readonly Interview[]): string {
  const q = stems(question);
  let best = { score: -1, answer: '' };
  for (const other of all) {
    if (other === own) continue;
    for (const p of other.pairs) {
      const score = jaccard(q, stems(p.question));
      if (score > best.score) best = { score, answer: p.answer };
    }
  }
  return best.answer;
}

async function buildMind(api: Client, interview: Interview, heldOut: readonly QaPair[], format: string): Promise<string> {
  const render = RENDER[format];
  if (!render) throw new Error(`unknown format ${format}`);
  const mind = (await api.post('/minds', { name: interview.guest })).body.mind as { id: string };
  const bytes = await render.make(withoutHeldOut(interview, heldOut));
  const r = await api.post(`/minds/${mind.id}/snapshots`, fileForm(bytes, render.file, 'application/octet-stream', { speaker: interview.guest }));
  if (r.status !== 200) throw new Error(`snapshot of ${interview.file} (${format}): ${JSON.stringify(r.body)}`);
  const status = await waitForSnapshot(api, mind.id, r.body.mindAssessmentId, 120_000);
  if (status.status !== 'completed') throw new Error(`snapshot of ${interview.file} (${format}) failed: ${JSON.stringify(status.error)}`);
  return mind.id;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const interviews = readInterviews(dir, values.limit ? Number(values.limit) : Infinity);
  if (interviews.length === 0) throw new Error(`no interviews (*.md) in ${dir}`);
  const srv = await startServer({ LOG_LEVEL: 'warn', WORKER_CONCURRENCY: '2' });
  const api = client(srv.api, srv.apiKey);
  const scored: Scored[] = [];
  try {
    for (const [n, interview] of interviews.entries()) {
      const heldOut = holdOut(interview, per);
      const random = seededRandom(Number(values.seed) * 1000 + n);
      // The guest's other answers: every turn of theirs (of some substance) not held out.
      const hidden = new Set(heldOut.map((p) => p.turn + 1));
      const own = interview.turns.filter((t, i) => t.speaker === interview.guest && !hidden.has(i) && t.text.split(' ').length >= MIN_BASELINE_WORDS);
      const baselines = heldOut.map((p) => {
        const scores = own.map((t) => scoreAnswer(t.text, p.answer));
        return {
          random: scoreAnswer(own[Math.floor(random() * own.length)]?.text ?? '', p.answer),
          other: scoreAnswer(otherPersonAnswer(p.question, interview, interviews), p.answer),
          ceiling: { tokenF1: Math.max(0, ...scores.map((x) => x.tokenF1)), contentF1: Math.max(0, ...scores.map((x) => x.contentF1)) },
        };
      });
      const minds = await Promise.all(formats.map((format) => buildMind(api, interview, heldOut, format)));
      for (const [fi, format] of formats.entries()) {
        for (const [i, pair] of heldOut.entries()) {
          const r = await api.post('/simulate', {
            mindId: minds[fi],
            selectedSimulationModel: 'mind-reasoner-standard',
            scenario: { message: paraphrase(pair.question) },
          });
          if (r.status !== 200) throw new Error(`simulate: ${JSON.stringify(r.body)}`);
          const b = baselines[i];
          if (!b) continue;
          const saying = r.body.analysis.saying as string;
          scored.push({ person: interview.guest, file: interview.file, format, engine: scoreAnswer(saying, pair.answer), unknown: r.body.evidence.length === 0, ...b });
        }
      }
      console.error(`${interview.file}: ${interview.guest}, ${heldOut.length} held out of ${interview.pairs.length} Q/A pairs`);
    }
  } finally {
    await srv.stop();
    fs.rmSync(srv.dataDir, { recursive: true, force: true });
  }
  const report = renderReport(scored, { dir, interviews: interviews.length, formats, perInterview: per, seconds: (performance.now() - t0) / 1000 });
  fs.writeFileSync(values.out, report);
  console.log(report);
}

await main();
