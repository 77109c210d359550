import os from 'node:os';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { longInterview, teamsVtt } from '../testkit/fixtures.ts';
import { client, waitForSnapshot } from '../testkit/http.ts';
import { SAM_QUESTIONS } from '../testkit/panels.ts';
import { startServer } from '../testkit/process.ts';
import { writeSection } from '../eval/panels/report.ts';
import { loadOnce, startHello } from './measure.ts';

/**
 * `npm run bench:reads`: every GET route of the API next to a bare Fastify hello-world in the same
 * run (issue 24: no read route below 40% of it). The routes come from the service's own OpenAPI
 * document, their ids from one mind with a completed snapshot, a simulation, a panel and a tag;
 * a route whose path holds an id nothing here makes, or that streams (server-sent events, MCP),
 * is listed as skipped with why. Each route's round follows a hello-world round of the same
 * length (autocannon 50 connections, BENCH_SECONDS each after a 2 s warm-up).
 * `-- --write` puts the table into BENCHMARKS.md.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const SECTION = '## Read routes next to the hello-world';
const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const FLOOR = 0.4;

interface Row {
  route: string;
  rps: number;
  hello: number;
  p99: number;
  non2xx: number;
}

async function main() {
  const srv = await startServer({ LOG_LEVEL: 'warn' });
  const bare = await startHello();
  try {
    const api = client(srv.api, srv.apiKey);
    const created = await api.post('/minds', { name: 'Sam Okafor', tags: ['bench'] });
    const mindId = created.body.mind.id as string;
    const form = new FormData();
    form.append('file', new Blob([teamsVtt(longInterview(2000))]), 'i.vtt');
    const snap = await api.post(`/minds/${mindId}/snapshots`, form);
    await waitForSnapshot(api, mindId, snap.body.mindAssessmentId);
    const sim = await api.post('/simulate', { mindId, scenario: { message: 'How do you deal with burnout?' } });
    const panel = await api.post('/panels', { mindIds: [mindId], questions: SAM_QUESTIONS.slice(0, 2) });
    const panelId = (panel.body.panel?.id ?? panel.body.id) as string;
    for (let i = 0; i < 100 && (await api.get(`/panels/${panelId}`)).body.panel?.status !== 'completed'; i++) await new Promise((r) => setTimeout(r, 100));
    const tags = await api.get('/tags');
    const ids: Record<string, string> = {
      mindId,
      mindAssessmentId: snap.body.mindAssessmentId,
      snapshotId: snap.body.mindAssessmentId,
      assessmentId: snap.body.mindAssessmentId,
      digitalTwinId: created.body.digitalTwin.id,
      twinId: created.body.digitalTwin.id,
      artifactId: snap.body.artifactId,
      simulationId: sim.body.simulationId,
      panelId,
      tagId: tags.body.tags?.[0]?.id,
    };
    const doc = (await (await fetch(`${srv.api}/openapi.json`)).json()) as { paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, unknown> }> }>> };
    const headers = { authorization: `Bearer ${srv.apiKey}` };
    const rows: Row[] = [];
    const skipped: string[] = [];
    for (const [template, ops] of Object.entries(doc.paths)) {
      const op = ops.get;
      if (!op) continue;
      const route = `GET ${template.replace(/^\/api\/public\/v1/, '')}`;
      const media = Object.keys(op.responses?.['200']?.content ?? {});
      if (media.includes('text/event-stream') || template.endsWith('/mcp')) {
        skipped.push(`${route} (a stream)`);
        continue;
      }
      if (template.endsWith('/export')) {
        // A bulk download whose size grows with the mind's access log (which this run fills).
        skipped.push(`${route} (an archive of the whole mind: bench/export.ts)`);
        continue;
      }
      const missing = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '').filter((p) => !ids[p]);
      if (missing.length > 0) {
        skipped.push(`${route} (no ${missing.join(', ')} here)`);
        continue;
      }
      const url = `${srv.baseUrl}${template.replace(/\{(\w+)\}/g, (_, p: string) => ids[p] ?? '')}`;
      const probe = await fetch(url, { headers });
      if (probe.status !== 200) {
        skipped.push(`${route} (answers ${probe.status} without a query)`);
        continue;
      }
      const h = await loadOnce({ url: bare.url, connections: 50, duration: seconds });
      const r = await loadOnce({ url, headers, connections: 50, duration: seconds });
      rows.push({ route, rps: r.rps, hello: h.rps, p99: r.p99, non2xx: r.non2xx });
      process.stdout.write(`${route}: ${r.rps.toFixed(0)} req/s, ${((100 * r.rps) / h.rps).toFixed(1)}% of hello (${h.rps.toFixed(0)})\n`);
    }
    const cpu = os.cpus();
    const lines = [
      SECTION,
      '',
      `Run: ${new Date().toISOString()} on ${cpu.length} × ${cpu[0]?.model ?? 'CPU'}, Node ${process.version}, load average ${os.loadavg()[0]?.toFixed(2)} at the end; produced by \`npm run bench:reads -- --write\` (bench/read-routes.ts).`,
      `Every GET route of the OpenAPI document, each round (autocannon, 50 connections, ${seconds} s after a 2 s warm-up) right after a hello-world round of the same length; the target is ≥ ${FLOOR * 100}% of the hello-world for every read route.`,
      '',
      '| route | req/s | hello-world req/s (same run) | share | p99 ms | non-2xx | ≥ 40% |',
      '|---|---:|---:|---:|---:|---:|---|',
      ...rows.map((r) => `| ${r.route} | ${r.rps.toFixed(0)} | ${r.hello.toFixed(0)} | ${((100 * r.rps) / r.hello).toFixed(1)}% | ${r.p99} | ${r.non2xx} | ${r.rps / r.hello >= FLOOR ? 'met' : '**not met**'} |`),
      '',
      skipped.length > 0 ? `Not measured: ${skipped.join('; ')}.` : 'Every GET route was measured.',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    if (process.argv.includes('--write')) writeSection(path.join(ROOT, 'BENCHMARKS.md'), lines.join('\n'), SECTION);
  } catch (err) {
    process.stderr.write(`the service's last output:\n${srv.output().slice(-4000)}\nexit code ${String(srv.proc.exitCode)}\n`);
    throw err;
  } finally {
    bare.stop();
    await srv.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
