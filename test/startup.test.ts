/**
 * The first start never loses the owner's key (issue 30, item 7), as real processes: a start whose
 * port is taken, or whose data folder cannot be written, stops before anything is made and names
 * the variable to set; the next start (port freed) makes the owner and prints its key. A start
 * that finds an owner whose key was never used says how to make a new one with the admin command.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { listenFailure, withOwnerKept } from '../src/startup.ts';
import { freePort, startServer, type TestServer } from '../testkit/process.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const KEY = /msk_[0-9a-f]{8}_/;
const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-startup-'));
  dirs.push(dir);
  return dir;
};
after(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** `node src/main.ts` until it exits on its own (a start that must fail): its exit code and everything it printed. */
function startToExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const full: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env };
  for (const k of ['DATABASE_URL', 'BLOB_STORE', 'REDIS_URL', 'RATE_LIMIT_STORE']) delete full[k];
  const p = spawn(process.execPath, ['src/main.ts'], { cwd: ROOT, env: full, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  p.stdout.on('data', (d: Buffer) => (output += d.toString()));
  p.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve) => p.once('exit', (code) => resolve({ code, output })));
}

/** A listener on a free loopback port, as another program holding it. */
async function holdPort(): Promise<{ port: number; release(): Promise<void> }> {
  const port = await freePort();
  const other = net.createServer((s) => s.destroy());
  await new Promise<void>((resolve) => other.listen(port, '127.0.0.1', resolve));
  return { port, release: () => new Promise((resolve) => other.close(() => resolve())) };
}

const okWith = async (srv: TestServer, key: string) => (await fetch(`${srv.api}/models`, { headers: { authorization: `Bearer ${key}` } })).status;

describe('the first start', () => {
  it('with its port taken: stops before the owner is made, names PORT; the next start prints the key', { timeout: 120_000 }, async () => {
    const held = await holdPort();
    const dataDir = path.join(tempDir(), 'data');
    let srv: TestServer | null = null;
    try {
      const first = await startToExit({ PORT: String(held.port), DATA_DIR: dataDir });
      assert.equal(first.code, 1, first.output);
      assert.match(first.output, new RegExp(`Port ${held.port} on 127\\.0\\.0\\.1 is already in use`));
      assert.match(first.output, /set PORT to a free port, e\.g\. PORT=\d+ npm start/);
      assert.doesNotMatch(first.output, KEY, 'no key printed by a start that cannot serve');
      assert.doesNotMatch(first.output, /EADDRINUSE/, 'said in words, not as a bare error code');
      assert.ok(!fs.existsSync(path.join(dataDir, 'mindsim.sqlite')), 'no database made, so no owner account');
      await held.release();
      srv = await startServer({ DATA_DIR: dataDir });
      assert.match(srv.apiKey, KEY, `the next start makes the owner and prints its key:\n${srv.output()}`);
      assert.equal(await okWith(srv, srv.apiKey), 200);
    } finally {
      await held.release().catch(() => {});
      await srv?.stop();
    }
  });

  it('with a data folder that cannot be written: stops before anything is made, names DATA_DIR', { timeout: 60_000 }, async () => {
    const file = path.join(tempDir(), 'a-file');
    fs.writeFileSync(file, 'not a folder');
    const r = await startToExit({ PORT: String(await freePort()), DATA_DIR: path.join(file, 'data') });
    assert.equal(r.code, 1, r.output);
    assert.match(r.output, /The data folder .*a-file[/\\]data cannot be written \(\w+\)\. Set DATA_DIR to a folder this user can write/);
    assert.doesNotMatch(r.output, KEY);
  });

  it('a port taken only after the check (the listen itself fails) still says PORT, and keeps the key printed above', () => {
    const err = withOwnerKept(listenFailure(Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' }), 8080, '127.0.0.1'), { accountId: 'acc-1' });
    assert.match(err.message, /Port 8080 on 127\.0\.0\.1 is already in use.*PORT=8081/);
    assert.match(err.message, /owner account acc-1 was created and its API key printed above: keep it/);
    assert.match(listenFailure(Object.assign(new Error('x'), { code: 'EACCES' }), 80, '0.0.0.0').message, /Set PORT to a port from 1024 up/);
    assert.match(listenFailure(Object.assign(new Error('x'), { code: 'EADDRNOTAVAIL' }), 8080, '10.9.9.9').message, /Set HOST/);
  });
});

describe('a start that finds the owner', () => {
  it('whose key was never used: says how to make a new key with the admin command (never a key); once a key is used, says nothing', { timeout: 180_000 }, async () => {
    const srv = await startServer();
    try {
      assert.match(srv.apiKey, KEY);
      await srv.stop();
      let from = srv.output().length;
      await srv.start();
      const restart = srv.output().slice(from);
      assert.doesNotMatch(restart, KEY);
      assert.ok(restart.includes(`npm run --silent admin -- create-api-key --account ${srv.ownerAccountId}`), restart);

      // The command it names works: a new key for the owner.
      const made = await srv.admin('create-api-key', '--account', srv.ownerAccountId);
      assert.equal(made.code, 0, made.stderr);
      const { apiKey } = JSON.parse(made.stdout) as { apiKey: string };
      assert.equal(await okWith(srv, apiKey), 200);

      await srv.stop();
      from = srv.output().length;
      await srv.start();
      assert.doesNotMatch(srv.output().slice(from), /create-api-key/, 'a key of the owner has been used: no notice');
    } finally {
      await srv.stop();
    }
  });
});
