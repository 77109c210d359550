/**
 * Log lines for a person on a terminal, JSON for everything else: `npm start` prints pino-pretty
 * lines when stdout is a TTY and pino's JSON when it is a pipe or a file; LOG_FORMAT overrides.
 * The terminal is util-linux `script`, a real pseudo-terminal.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { logFormat, prettyMessage } from '../src/logging.ts';
import { freePort, startServer, type TestServer } from '../testkit/process.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const PRETTY_STARTED = /\[\d\d:\d\d:\d\d\.\d{3}\] INFO: mind simulation service started \{"api":true/;
// eslint-disable-next-line no-control-regex
const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '').replace(/\r/g, '');
const started: TestServer[] = [];
after(() => Promise.all(started.map((s) => s.stop())));

describe('the log format', () => {
  it('follows stdout unless LOG_FORMAT says: pretty on a terminal, JSON elsewhere', () => {
    assert.equal(logFormat(undefined, true), 'pretty');
    assert.equal(logFormat(undefined, false), 'json');
    assert.equal(logFormat('json', true), 'json');
    assert.equal(logFormat('pretty', false), 'pretty');
  });

  it("reads Fastify's request lines as method, path, status and time", () => {
    const req = { method: 'GET', url: '/healthz', id: 'r1' };
    assert.equal(prettyMessage({ msg: 'incoming request', req }, 'msg'), 'GET /healthz (incoming request)');
    assert.equal(prettyMessage({ msg: 'request completed', res: { statusCode: 201 }, responseTime: 12.4 }, 'msg'), '201 in 12 ms (request completed)');
    assert.equal(prettyMessage({ msg: 'shutting down', signal: 'SIGTERM' }, 'msg'), 'shutting down');
  });

  it('is JSON on a pipe, one object per line', async () => {
    const srv = await startServer({ LOG_LEVEL: 'info' });
    started.push(srv);
    await fetch(`${srv.baseUrl}/healthz`);
    await srv.stop();
    const lines = srv.output().split('\n').filter((l) => l.startsWith('{'));
    const events = lines.map((l) => JSON.parse(l) as { level: number; msg: string });
    assert.ok(events.some((e) => e.level === 30 && e.msg === 'mind simulation service started'));
    assert.ok(events.some((e) => e.msg === 'shutting down'), 'the last line before the exit is written');
  });

  it('LOG_FORMAT=pretty gives readable lines on a pipe too, secrets still redacted', async () => {
    const srv = await startServer({ LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' });
    started.push(srv);
    await fetch(`${srv.baseUrl}/healthz`);
    await fetch(`${srv.api}/minds`, { headers: { authorization: `Bearer ${srv.apiKey}` } });
    await srv.stop();
    const out = plain(srv.output());
    assert.match(out, PRETTY_STARTED);
    assert.match(out, /INFO: GET \/healthz \(incoming request\) \{"reqId":"[^"]+"\}/);
    assert.match(out, /INFO: 200 in \d+ ms \(request completed\)/);
    assert.match(out, /INFO: shutting down \{"signal":"SIGTERM"\}/);
    assert.ok(!out.split('\n').some((l) => l.startsWith('{"level"')), 'no JSON lines');
    assert.equal(out.split(srv.apiKey).length, 2, 'the key appears once: in the first-start banner, never in a log line');
  });
});

/** The service on a pseudo-terminal until it has started, then Ctrl-C, as a person would stop it. */
async function onTerminal(env: Record<string, string>): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-tty-'));
  const port = await freePort();
  // exec: node itself is the terminal's foreground process, as under `npm start`.
  const cmd = `exec ${[process.execPath, 'src/main.ts'].map((a) => `'${a}'`).join(' ')}`;
  const childEnv: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env };
  for (const k of ['DATABASE_URL', 'BLOB_STORE', 'REDIS_URL', 'RATE_LIMIT_STORE', 'LOG_FORMAT']) if (!(k in env)) delete childEnv[k];
  return new Promise<string>((resolve, reject) => {
    const child = spawn('/usr/bin/script', ['-qfec', cmd, '/dev/null'], { cwd: ROOT, env: childEnv });
    let out = '';
    let interrupted = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!interrupted && /service started/.test(out)) {
        interrupted = true;
        child.stdin.write('\x03');
      }
    });
    child.once('error', reject);
    child.once('exit', () => {
      clearTimeout(timer);
      fs.rmSync(dataDir, { recursive: true, force: true });
      resolve(plain(out));
    });
  });
}

describe('on a terminal', { skip: !fs.existsSync('/usr/bin/script') && 'util-linux script not installed' }, () => {
  it('`npm start` prints readable lines, and stops on Ctrl-C', async () => {
    const out = await onTerminal({});
    assert.match(out, PRETTY_STARTED);
    assert.match(out, /INFO: shutting down \{"signal":"SIGINT"\}/);
  });

  it('LOG_FORMAT=json keeps JSON on a terminal', async () => {
    const out = await onTerminal({ LOG_FORMAT: 'json' });
    assert.match(out, /^\{"level":30,.*"msg":"mind simulation service started"\}$/m);
    assert.doesNotMatch(out, PRETTY_STARTED);
  });
});
