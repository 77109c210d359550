import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pino from 'pino';
import { compose, type Context } from '../../src/composition.ts';
import type { Runtime } from '../../src/kernel/runtime.ts';
import { sharedAnalysis } from '../../testkit/analysis.ts';
import { loadConfig } from '../../src/config.ts';
import { buildApp, httpSettings } from '../../src/http/app.ts';
import { webPages } from '../../src/web/plugin.ts';
import { serviceEnv } from '../../testkit/service.ts';

export interface Route {
  method: string;
  url: string;
}

export interface InProcess {
  app: FastifyInstance;
  ctx: Context;
  /** Every route of the app (HEAD routes Fastify adds for GETs left out). */
  routes: Route[];
  /** Every log line written so far, by the request logger and the service's own. */
  logs(): string;
  dataDir: string;
  close(): Promise<void>;
}

/** The service's environment for tests: a fresh data folder, the embedded defaults, no practical rate limit. */
export function testEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return serviceEnv(extra, { DATA_DIR: dataDir, PUBLIC_URL: 'http://127.0.0.1:8080', WORKER_POLL_MS: '20' });
}

/**
 * The whole service in this process: the composition root and the Fastify app, the log captured.
 * Requests go through `app.inject` (no socket), or `listen()` for real HTTP on a free port.
 */
/** The service composed in this process (no port); `rt` is its clock, ids and randomness (testkit/clock.ts moves the clock). */
export async function startInProcess(extraEnv: Record<string, string> = {}, rt?: Runtime): Promise<InProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-inproc-'));
  const config = loadConfig(testEnv(dataDir, extraEnv));
  let logged = '';
  const stream = { write: (line: string) => void (logged += line) };
  const ctx = await compose(config, rt, pino({ level: config.logLevel }, stream), { analysis: sharedAnalysis(config) });
  const routes: Route[] = [];
  const onRoute = (r: { method: string | string[]; url: string }) => {
    for (const method of [r.method].flat()) if (method !== 'HEAD') routes.push({ method, url: r.url });
  };
  const app = await buildApp(ctx.services, httpSettings(config, { logStream: stream, onRoute }), webPages(ctx.services, ctx.web));
  await app.ready();
  return {
    app,
    ctx,
    routes,
    logs: () => logged,
    dataDir,
    close: async () => {
      await app.close();
      await ctx.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** `app.inject`, with the body parsed as JSON when it is JSON. */
export async function inject(app: FastifyInstance, opts: InjectOptions): Promise<Answer> {
  const res = await app.inject(opts);
  let json: unknown = undefined;
  try {
    json = JSON.parse(res.body);
  } catch {
    /* not JSON */
  }
  return { status: res.statusCode, headers: res.headers, text: res.body, json };
}

/** A multipart/form-data body as bytes plus its content type (FormData serialised by undici). */
export async function multipart(form: FormData): Promise<{ payload: Buffer; contentType: string }> {
  const res = new Response(form);
  return { payload: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type') ?? '' };
}
