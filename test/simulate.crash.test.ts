/**
 * A simulate's first turn is stored after its answer (domain/pending-turns.ts): a process killed
 * with SIGKILL after answering and before storing it loses nothing, the journal in DATA_DIR is
 * stored at the next start, once. SIMULATION_FLUSH_MS holds the batch (ten minutes), so the kill
 * lands between the answer and the store by construction, not by timing; that the turn was not
 * stored before the kill is read from the database file itself.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, it } from 'node:test';
import Database from 'better-sqlite3';
import { client, fileForm, waitForSnapshot, type Client } from '../testkit/http.ts';
import { startServer, type TestServer } from '../testkit/process.ts';
import { sampleInterview, teamsVtt } from '../testkit/fixtures.ts';

let srv: TestServer;
let api: Client;
let mindId = '';

before(async () => {
  srv = await startServer({ SIMULATION_FLUSH_MS: '600000', WORKER_POLL_MS: '20' });
  api = client(srv.api, srv.apiKey);
  mindId = (await api.post('/minds', { name: 'Sam Okafor' })).body.mind.id as string;
  const snap = await api.post(`/minds/${mindId}/snapshots`, fileForm(teamsVtt(sampleInterview()), 'interview.vtt', 'text/vtt'));
  assert.equal((await waitForSnapshot(api, mindId, snap.body.mindAssessmentId, 60_000)).status, 'completed');
});
after(() => srv.stop());

/** The conversation's rows in the database file, read by a connection of the test's own. */
function stored(id: string): { simulations: number; messages: number } {
  const db = new Database(path.join(srv.dataDir, 'mindsim.sqlite'), { readonly: true });
  try {
    const simulations = (db.prepare('select count(*) as n from simulations where id = ?').get(id) as { n: number }).n;
    const messages = (db.prepare('select count(*) as n from simulation_messages where simulation_id = ?').get(id) as { n: number }).n;
    return { simulations, messages };
  } finally {
    db.close();
  }
}

const segments = () => fs.readdirSync(path.join(srv.dataDir, 'simulation-turns')).filter((f) => f.endsWith('.jsonl'));

it('SIGKILL after the answer and before the store loses no turn: the next start stores it, once, and a follow-up continues it', async () => {
  const asked = ['How do you start your day?', 'What do you think about remote work?'];
  const answers = [];
  for (const message of asked) {
    const r = await api.post('/simulate', { mindId, scenario: { message } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    answers.push(r.body as { simulationId: string; message: string });
  }
  for (const a of answers) assert.deepEqual(stored(a.simulationId), { simulations: 0, messages: 0 }, 'answered, not stored yet');
  assert.ok(segments().length > 0, 'the turns are in the journal');

  await srv.stop('SIGKILL');
  await srv.start();

  for (const [i, a] of answers.entries()) {
    assert.deepEqual(stored(a.simulationId), { simulations: 1, messages: 2 }, 'stored at start, once');
    const got = await api.get(`/simulations/${a.simulationId}`);
    assert.equal(got.status, 200);
    assert.deepEqual(
      got.body.messages.map((m: { role: string; content: { text: string } }) => [m.role, m.content.text]),
      [
        ['user', asked[i]],
        ['assistant', a.message],
      ],
    );
  }
  assert.deepEqual(segments(), [], 'the journal is emptied once its turns are stored');

  const first = answers[0]?.simulationId ?? '';
  const followUp = await api.post('/simulate', { mindId, conversationId: first, scenario: { message: 'Why?' } });
  assert.equal(followUp.status, 200, JSON.stringify(followUp.body));
  assert.equal(followUp.body.conversationId, first);
  assert.deepEqual(stored(first), { simulations: 1, messages: 4 });
});

it('SIGTERM stores the waiting turns before the process exits', async () => {
  const r = await api.post('/simulate', { mindId, scenario: { message: 'Who was your best hire?' } });
  assert.equal(r.status, 200);
  assert.deepEqual(stored(r.body.simulationId), { simulations: 0, messages: 0 });
  await srv.stop('SIGTERM');
  assert.deepEqual(stored(r.body.simulationId), { simulations: 1, messages: 2 }, 'stored on the way out, not at the next start');
  assert.deepEqual(segments(), []);
  await srv.start();
  assert.equal((await api.get(`/simulations/${r.body.simulationId}`)).status, 200);
});
