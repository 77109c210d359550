/**
 * The engine side of the evaluation: a freshly started service (its own data folder, the caller's
 * environment plus `env`), one mind per interview and format built from the transcript without the
 * held-out answers, one from the whole transcript for the scenario suite, and every question asked
 * through POST /simulate.
 */
import { client, fileForm, waitForSnapshot, type Client } from '../testkit/http.ts';
import { startService } from '../testkit/service.ts';
import { makeDocx, makePdf, teamsVtt, type Turn } from '../testkit/fixtures.ts';
import { withoutHeldOut, type Interview, type QaPair } from './interviews.ts';
import { judge, type Reply, type ScenarioOutcome, type Suite } from './scenarios.ts';

export const RENDER: Record<string, { file: string; make: (turns: Turn[]) => Promise<Buffer | string> }> = {
  vtt: { file: 'interview.vtt', make: async (turns) => teamsVtt(turns) },
  docx: { file: 'interview.docx', make: (turns) => makeDocx(turns) },
  pdf: { file: 'interview.pdf', make: (turns) => makePdf(turns) },
};

/** Simulations in flight at once: the offline engine answers in milliseconds, an LLM takes seconds. */
const CONCURRENCY = 4;

export interface HeldOutSet {
  interview: Interview;
  heldOut: QaPair[];
  /** The reworded question asked for each held-out pair. */
  asked: string[];
}

export interface HeldOutAnswer {
  file: string;
  format: string;
  /** Index into the interview's held-out pairs. */
  index: number;
  saying: string;
  /** The engine said it does not know: no evidence, or the explicit decline. */
  unknown: boolean;
}

export interface EngineRun {
  answers: HeldOutAnswer[];
  scenarios: ScenarioOutcome[];
  /** The model names /simulate reported (the requested one, or what it fell back to). */
  models: string[];
}

export interface EngineOptions {
  env: Record<string, string>;
  model: string;
  formats: readonly string[];
  heldOut: readonly HeldOutSet[];
  suites: readonly Suite[];
  /** A line of progress (stderr). */
  log: (line: string) => void;
  isDecline: (saying: string) => boolean;
}

async function buildMind(api: Client, interview: Interview, turns: Turn[], format: string, what: string): Promise<string> {
  const render = RENDER[format];
  if (!render) throw new Error(`unknown format ${format}`);
  const mind = (await api.post('/minds', { name: interview.guest })).body.mind as { id: string };
  const bytes = await render.make(turns);
  const r = await api.post(`/minds/${mind.id}/snapshots`, fileForm(bytes, render.file, 'application/octet-stream', { speaker: interview.guest }));
  if (r.status !== 200) throw new Error(`snapshot of ${interview.file} (${format}, ${what}): ${JSON.stringify(r.body)}`);
  const status = await waitForSnapshot(api, mind.id, r.body.mindAssessmentId, 300_000);
  if (status.status !== 'completed') throw new Error(`snapshot of ${interview.file} (${format}, ${what}) failed: ${JSON.stringify(status.error)}`);
  return mind.id;
}

/** `fn` over `items` with at most `limit` running at once; results in order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export async function runEngine(opts: EngineOptions): Promise<EngineRun> {
  const srv = await startService({ LOG_LEVEL: 'warn', WORKER_CONCURRENCY: '2', ...opts.env });
  const api = client(srv.api, srv.apiKey);
  const models = new Set<string>();
  const simulate = async (mindId: string, message: string, what: string): Promise<Reply> => {
    const r = await api.post('/simulate', { mindId, selectedSimulationModel: opts.model, scenario: { message } });
    if (r.status !== 200) throw new Error(`simulate (${what}): HTTP ${r.status} ${JSON.stringify(r.body)}`);
    models.add(String(r.body.model));
    const a = r.body.analysis ?? {};
    const analysis = { saying: String(a.saying ?? ''), thinking: String(a.thinking ?? ''), feeling: String(a.feeling ?? ''), acting: String(a.acting ?? '') };
    return { saying: analysis.saying, confidence: Number(r.body.confidence), evidence: (r.body.evidence ?? []) as { text: string }[], analysis };
  };
  const answers: HeldOutAnswer[] = [];
  const scenarios: ScenarioOutcome[] = [];
  const files = [...new Set([...opts.heldOut.map((h) => h.interview.file), ...opts.suites.map((s) => s.file)])];
  try {
    for (const file of files) {
      const set = opts.heldOut.find((h) => h.interview.file === file);
      const suite = opts.suites.find((s) => s.file === file);
      const [heldOutMinds, suiteMinds] = await Promise.all([
        set ? Promise.all(opts.formats.map((f) => buildMind(api, set.interview, withoutHeldOut(set.interview, set.heldOut), f, 'held out'))) : [],
        suite ? Promise.all(opts.formats.map((f) => buildMind(api, suite.interview, suite.interview.turns, f, 'whole'))) : [],
      ]);
      const jobs: (() => Promise<void>)[] = [];
      for (const [fi, format] of opts.formats.entries()) {
        const heldOutMind = heldOutMinds[fi];
        if (set && heldOutMind) {
          for (const [index, message] of set.asked.entries()) {
            jobs.push(async () => {
              const r = await simulate(heldOutMind, message, `${file} ${format} held-out #${index}`);
              answers.push({ file, format, index, saying: r.saying, unknown: r.evidence.length === 0 || opts.isDecline(r.saying) });
            });
          }
        }
        const suiteMind = suiteMinds[fi];
        if (suite && suiteMind) {
          for (const s of [...suite.onTopic, ...suite.offTopic]) {
            jobs.push(async () => {
              scenarios.push(judge(suite, s, format, await simulate(suiteMind, s.scenario, `${file} ${format} ${s.id}`)));
            });
          }
        }
      }
      await mapLimit(jobs, CONCURRENCY, (job) => job());
      const name = set?.interview.guest ?? suite?.person ?? '';
      opts.log(`${file}: ${name}, ${set ? `${set.heldOut.length} held out of ${set.interview.pairs.length} Q/A pairs` : 'no held-out questions'}, ${suite ? `${suite.onTopic.length + suite.offTopic.length} scenarios` : 'no scenarios'}`);
    }
  } finally {
    await srv.close(); // and its data folder
  }
  return { answers, scenarios, models: [...models] };
}
