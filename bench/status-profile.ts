/**
 * `npm run bench:status-profile`: where the status route's time goes, stage by stage. The service
 * runs under V8's sampling profiler (`--cpu-prof`) while autocannon loads the status of a completed
 * snapshot (BENCH_SECONDS, default 10, 50 connections); each sample of the API thread is given to
 * the innermost stage of the pipeline on its stack (the key lookup, the rate limit, the security
 * headers, the usage meter, the handler, the serializer, the logger, Fastify itself, Node's HTTP…),
 * and the shares are printed as a table for BENCHMARKS.md ("Status route, per stage"). A flame
 * graph of the same run: open the .cpuprofile it names in Chrome's DevTools or speedscope.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startServer } from '../testkit/process.ts';
import { loadOnce } from './measure.ts';
import { withSnapshot } from './rate-limit.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Stages in the order they are tried on a frame (the first whose test matches names it). */
export const STAGES: ReadonlyArray<[string, (url: string, fn: string) => boolean]> = [
  ['API key lookup', (u) => u.includes('/src/http/plugins/auth.ts') || u.includes('/src/domain/accounts')],
  ['rate limit', (u) => u.includes('/src/http/plugins/rate-limit.ts') || u.includes('/src/domain/rate-limits') || u.includes('@fastify/rate-limit')],
  ['security headers', (u) => u.includes('/src/http/security.ts') || u.includes('/helmet/')],
  ['usage meter', (u) => u.includes('/src/domain/usage')],
  ['text guard', (u) => u.includes('/src/http/plugins/text-guard.ts')],
  ['error handling', (u) => u.includes('/src/http/plugins/errors.ts')],
  ['request validation (zod)', (u) => u.includes('fastify-type-provider-zod') || u.includes('/zod/')],
  ['response serializer', (u) => u.includes('/src/http/serializer.ts') || u.includes('fast-json-stringify')],
  ['status handler (routes, domain, store)', (u) => /\/src\/(http\/routes|domain|store)\//.test(u) || u.includes('better-sqlite3') || u.includes('kysely') || u.includes('lru-cache')],
  ['request id and other app hooks', (u) => u.includes('/src/http/app.ts')],
  ['logger (pino)', (u) => u.includes('/pino')],
  ['Fastify (routing, hooks, reply)', (u) => u.includes('/fastify/') || u.includes('find-my-way') || u.includes('avvio') || u.includes('/fastify-')],
];

const NODE_IO = /^node:(_http|net|internal\/stream_base|internal\/streams)/;

/**
 * Each stage's share of the API thread's busy samples within [from, to] µs of the profile, by the
 * innermost stage on each sample's stack. Node's own frames take their caller's stage, except the
 * HTTP parser, sockets and streams (the response's write to the socket included), which are Node's.
 */
export function stageShares(profile: CpuProfile, from = -Infinity, to = Infinity): Array<{ stage: string; share: number }> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stageOf = new Map<number, string>();
  const resolve = (id: number): string => {
    const known = stageOf.get(id);
    if (known) return known;
    const node = byId.get(id);
    const fn = node?.callFrame.functionName ?? '';
    const url = node?.callFrame.url ?? '';
    let stage: string;
    if (fn === '(garbage collector)') stage = 'garbage collection';
    else if (fn === '(idle)' || fn === '(program)' || fn === '(root)') stage = fn;
    else if (NODE_IO.test(url)) stage = 'Node HTTP and sockets';
    else {
      const own = url.startsWith('node:') || url === '' ? undefined : STAGES.find(([, test]) => test(url, fn))?.[0];
      const up = parent.get(id);
      stage = own ?? (up !== undefined ? resolve(up) : 'other');
      if (stage === '(root)') stage = 'other';
    }
    stageOf.set(id, stage);
    return stage;
  };
  const time = new Map<string, number>();
  let t = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    t += dt;
    if (t < from || t > to) return;
    const stage = resolve(id);
    time.set(stage, (time.get(stage) ?? 0) + dt);
  });
  for (const skip of ['(idle)', '(program)']) time.delete(skip);
  const total = [...time.values()].reduce((s, v) => s + v, 0);
  return [...time].map(([stage, v]) => ({ stage, share: v / total })).sort((a, b) => b.share - a.share);
}

/** Time the profile runs on after the load, while the service stops (µs): left out of the window. */
const SHUTDOWN_US = 500_000;

async function main(): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-prof-'));
  const srv = await startServer({ LOG_LEVEL: 'warn', NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` });
  let rps = 0;
  try {
    const { statusPath } = await withSnapshot(srv);
    const r = await loadOnce({ url: `${srv.api}${statusPath}`, headers: { authorization: `Bearer ${srv.apiKey}` }, connections: 50, duration: seconds });
    rps = r.rps;
  } finally {
    await srv.stop();
  }
  // The main thread's profile is the largest (the analysis and PDF threads write their own).
  const files = fs.readdirSync(dir).map((f) => path.join(dir, f));
  const main = files.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
  if (!main) throw new Error(`no profile written in ${dir}`);
  const profile = JSON.parse(fs.readFileSync(main, 'utf8')) as CpuProfile;
  // The load's window: its last `seconds` before the stop (start-up, the snapshot and the shutdown are not requests).
  const end = profile.timeDeltas.reduce((s, v) => s + v, 0) - SHUTDOWN_US;
  const shares = stageShares(profile, end - seconds * 1e6, end);
  console.log(`status route under --cpu-prof: ${rps.toFixed(0)} req/s over ${seconds} s (the profiler costs some); profile: ${main}\n`);
  console.log('| stage | share of the API thread |\n|---|---|');
  for (const s of shares) console.log(`| ${s.stage} | ${(100 * s.share).toFixed(1)}% |`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
