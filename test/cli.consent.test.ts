import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { runMindsim } from '../testkit/cli.ts';
import { startService, type Service } from '../testkit/service.ts';

/** `mindsim consent show|grant|clear|withdraw` and `mindsim account privacy`, as processes, against the service in this process. */
let srv: Service;
let home: string;

before(async () => {
  srv = await startService();
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-cli-consent-'));
});
after(async () => {
  await srv?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

const mindsim = (...args: string[]) => runMindsim(home, srv, args);

it('records, shows, clears and (with --yes) withdraws a consent; sets the account privacy settings', async () => {
  const sdk = srv.sdk();
  const { mind } = await sdk.minds.create('Sam Okafor');
  assert.match((await mindsim('consent', 'show', mind.id)).stdout, /unknown/);

  const badScope = await mindsim('consent', 'grant', mind.id, '--subject', 'Sam', '--obtained', '2026-01-05', '--method', 'written', '--scope', 'simulate,email');
  assert.equal(badScope.code, 2, badScope.stderr);
  assert.match(badScope.stderr, /--scope/);
  const badDate = await mindsim('consent', 'grant', mind.id, '--subject', 'Sam', '--obtained', 'yesterday', '--method', 'written', '--scope', 'simulate');
  assert.equal(badDate.code, 1, 'the API refuses it');
  assert.match(badDate.stderr, /obtainedAt/);

  const granted = await mindsim('--json', 'consent', 'grant', mind.id, '--subject', 'Sam Okafor', '--obtained', '2026-01-05', '--method', 'verbal', '--scope', 'simulate', '--scope', 'llm', '--expires', '2027-01-05');
  assert.equal(granted.code, 0, granted.stderr);
  assert.deepEqual(JSON.parse(granted.stdout).consent, { status: 'granted', subject: 'Sam Okafor', obtainedAt: '2026-01-05T00:00:00.000Z', method: 'verbal', scope: ['simulate', 'llm'], expiresAt: '2027-01-05T00:00:00.000Z', evidenceArtifactId: null });
  const shown = await mindsim('consent', 'show', mind.id);
  assert.match(shown.stdout, /granted by Sam Okafor/);
  assert.match(shown.stdout, /scope: simulate, llm/);
  assert.equal((await mindsim('consent', 'clear', mind.id)).code, 0);
  assert.deepEqual((await sdk.minds.get(mind.id)).consent, { status: 'unknown' });

  const unconfirmed = await mindsim('consent', 'withdraw', mind.id);
  assert.equal(unconfirmed.code, 2);
  assert.match(unconfirmed.stderr, /--yes/);
  assert.equal((await sdk.minds.get(mind.id)).name, 'Sam Okafor', 'nothing erased without --yes');
  const withdrawn = await mindsim('--json', 'consent', 'withdraw', mind.id, '--yes');
  assert.equal(withdrawn.code, 0, withdrawn.stderr);
  assert.deepEqual([JSON.parse(withdrawn.stdout).mindId, JSON.parse(withdrawn.stdout).consent.status], [mind.id, 'withdrawn']);
  const gone = await mindsim('--json', 'consent', 'show', mind.id);
  assert.equal(gone.code, 1);
  assert.match(gone.stdout + gone.stderr, /CONSENT_WITHDRAWN/);

  assert.match((await mindsim('account', 'privacy')).stdout, /requireConsent: off/);
  const set = await mindsim('--json', 'account', 'privacy', '--require-consent', 'on', '--retention-days', '30');
  assert.deepEqual(JSON.parse(set.stdout), { requireConsent: true, retentionDays: 30 });
  assert.equal((await mindsim('account', 'privacy', '--retention-days', '0')).code, 2);
  const kept = await mindsim('account', 'privacy', '--require-consent', 'off', '--retention-days', 'keep');
  assert.match(kept.stdout, /requireConsent: off\nretentionDays: keep/);
  assert.deepEqual(await sdk.account.privacy(), { requireConsent: false, retentionDays: null });
});
