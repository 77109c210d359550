/**
 * A new conversation's first turn is stored after its answer (domain/pending-turns.ts): journaled
 * before the answer is sent, stored in batches, and read through by every read of a conversation.
 * SIMULATION_FLUSH_MS holds the batch here (ten minutes: nothing is stored unless a read asks), so
 * what is written is told by counting the statements the database runs, never by timing them.
 * The process-level crash (SIGKILL between the answer and the store) is test/simulate.crash.test.ts.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AnsweredTurn } from '../../src/domain/conversation.ts';
import { PendingTurns } from '../../src/domain/pending-turns.ts';
import { openTurnJournal } from '../../src/store/turn-journal.ts';
import { PG_SKIP, createDatabase } from '../../testkit/scale.ts';
import { interviewMind, statusOf, type TestSdk } from '../../testkit/sdk.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { waitUntil } from '../../testkit/wait.ts';

const HELD = { SIMULATION_FLUSH_MS: '600000' };

let srv: Service;
let sdk: TestSdk;
let mindId = '';
/** Every statement the service's database ran, in order. */
const statements: string[] = [];

before(async () => {
  srv = await startService(HELD, { onQuery: (sql) => void statements.push(sql) });
  sdk = srv.sdk();
  mindId = await interviewMind(sdk, 'Sam Okafor');
  // The mind's first simulate looks its default twin up (counted in its own test below) and loads the engine.
  await sdk.simulate({ mindId, scenario: { message: 'Hello?' } });
  await srv.ctx.turns.flush();
});
after(() => srv?.close());

/** The statements run by `fn`, counted by what they do to the simulation tables and the twins. */
async function counting(fn: () => Promise<unknown>) {
  const from = statements.length;
  await fn();
  const ran = statements.slice(from);
  const count = (re: RegExp) => ran.filter((s) => re.test(s)).length;
  return {
    simulationInserts: count(/^insert into "simulations"/),
    messageInserts: count(/^insert into "simulation_messages"/),
    simulationUpdates: count(/^update "simulations"/),
    twinReads: count(/from "digital_twins"/),
  };
}

const ask = (message: string, extra: Record<string, unknown> = {}) => ({ mindId, scenario: { message }, ...extra });
const storedIds = async (ids: string[]) =>
  (await srv.ctx.store.db.selectFrom('simulations').select('id').where('id', 'in', ids).execute()).map((r) => r.id).sort();
/** The sentences of some evidence (passages of different lengths can quote the same sentences). */
const sentences = (evidence: ReadonlyArray<{ text: string }>) => new Set(evidence.flatMap((e) => e.text.split(/(?<=[.!?])\s+/)));

describe('the first turn is stored after the answer', () => {
  it('five answers write nothing to the simulation tables; the first read stores all five in one transaction of two inserts', async () => {
    const batches = srv.ctx.turns.counts.batches;
    const answers: Array<{ simulationId: string; message: string }> = [];
    const during = await counting(async () => {
      for (const q of ['How do you start your day?', 'What do you think of remote work?', 'Who was your best hire?', 'What makes a good team?', 'How do you handle a missed deadline?']) {
        answers.push(await sdk.simulate(ask(q)));
        assert.equal(sdk.last?.status, 200);
      }
    });
    assert.deepEqual(during, { simulationInserts: 0, messageInserts: 0, simulationUpdates: 0, twinReads: 0 }, 'no write before or after the answers');
    const ids = answers.map((a) => a.simulationId);
    assert.deepEqual(await storedIds(ids), [], 'none is in the database yet');
    assert.equal(srv.ctx.turns.size, 5, 'all five are in the journal');

    let detail: Awaited<ReturnType<TestSdk['simulations']['get']>> | undefined;
    const read = await counting(async () => (detail = await sdk.simulations.get(ids[2] ?? '')));
    assert.deepEqual(read, { simulationInserts: 1, messageInserts: 1, simulationUpdates: 0, twinReads: 0 }, 'one insert of five conversations, one of ten messages');
    assert.equal(srv.ctx.turns.counts.batches, batches + 1, 'one transaction');
    assert.equal(srv.ctx.turns.size, 0);
    assert.deepEqual(await storedIds(ids), [...ids].sort());
    assert.deepEqual(
      detail?.messages.map((m) => [m.role, m.content.text]),
      [
        ['user', 'Who was your best hire?'],
        ['assistant', answers[2]?.message],
      ],
    );
    assert.equal(detail?.simulation.messageCount, 2);
  });

  it('the same five answers stored before answering (SIMULATION_FLUSH_MS=0, as before) write two inserts each', async () => {
    const local: string[] = [];
    const sync = await startService({ DATA_DIR: srv.dataDir, RUN_WORKER: 'false', SIMULATION_FLUSH_MS: '0' }, { onQuery: (sql) => void local.push(sql) });
    try {
      assert.equal(sync.ctx.turns.deferring, false);
      const s = sync.sdk(srv.apiKey);
      for (let i = 0; i < 5; i++) await s.simulate(ask(`Question number ${i}: how do you start your day?`));
      const count = (re: RegExp) => local.filter((q) => re.test(q)).length;
      assert.deepEqual([count(/^insert into "simulations"/), count(/^insert into "simulation_messages"/)], [5, 5]);
    } finally {
      await sync.close();
    }
  });

  it('a list of the account, and a streamed answer, see the turns answered before them', async () => {
    const first = await sdk.simulate(ask('What do you look for in a manager?'));
    let result: { simulationId: string } | undefined;
    for await (const e of sdk.simulateStream(ask('Would you work for a startup?'))) if (e.event === 'result') result = e.data;
    assert.ok(result);
    assert.equal(srv.ctx.turns.size, 2);
    const list = await sdk.simulations.list({ mindId, limit: 2 });
    assert.deepEqual(list.simulations.map((s) => s.id).sort(), [result.simulationId, first.simulationId].sort(), 'the two newest');
    assert.equal(srv.ctx.turns.size, 0);
  });

  it('a follow-up right after the first turn has it in its history; the follow-up itself is stored before it is answered', async () => {
    const first = await sdk.simulate(ask('We are about to hire two engineers for my team. What would you look for in the candidates?'));
    assert.equal(srv.ctx.turns.size, 1, 'the first turn waits');
    let followUp: Awaited<ReturnType<TestSdk['simulate']>> | undefined;
    const writes = await counting(async () => (followUp = await sdk.simulate(ask('What would you do first?', { conversationId: first.conversationId }))));
    assert.equal(sdk.last?.status, 200);
    assert.deepEqual(writes, { simulationInserts: 1, messageInserts: 2, simulationUpdates: 1, twinReads: 0 }, "the first turn's batch, then the follow-up's own move and messages");
    assert.equal(srv.ctx.turns.size, 0);
    assert.equal(followUp?.conversationId, first.conversationId);
    const firstEvidence = sentences(first.evidence);
    assert.ok([...sentences(followUp?.evidence ?? [])].some((t) => firstEvidence.has(t)), "the follow-up draws on the first answer's passages");
    const detail = await sdk.simulations.get(first.conversationId);
    assert.deepEqual(detail.messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant']);
    assert.equal(detail.messages[2]?.content.text, 'What would you do first?');
  });

  it('a waiting turn is deleted like a stored one; a background turn continues a waiting conversation', async () => {
    const gone = await sdk.simulate(ask('Is this one deleted?'));
    await sdk.simulations.delete(gone.simulationId);
    assert.equal(sdk.last?.status, 200);
    assert.equal(await statusOf(sdk.simulations.get(gone.simulationId)), 404);

    const first = await sdk.simulate(ask('What makes a meeting useful?'));
    const queued = await sdk.simulate({ ...ask('And a useless one?', { conversationId: first.conversationId }), runInBackground: true });
    assert.equal(queued.status, 'queued');
    assert.equal(sdk.last?.status, 200);
  });

  it('a turn whose mind is deleted before its batch is stored is dropped, not stored', async () => {
    const other = await interviewMind(sdk, 'Dana Reyes');
    const dropped = srv.ctx.turns.counts.dropped;
    const answer = await sdk.simulate({ mindId: other, scenario: { message: 'How do you start your day?' } });
    await sdk.minds.delete(other);
    await srv.ctx.turns.flush();
    assert.equal(srv.ctx.turns.counts.dropped, dropped + 1);
    assert.deepEqual(await storedIds([answer.simulationId]), []);
    assert.equal(await statusOf(sdk.simulations.get(answer.simulationId)), 404);
  });
});

describe('the twin simulated, for the usage meter', () => {
  it("a mind's default twin is read once per process; an explicit twin once per turn; a conversation's own twin never again", async () => {
    const fresh = await interviewMind(sdk, 'Ada Lovelace');
    const q = (message: string, extra: Record<string, unknown> = {}) => ({ mindId: fresh, scenario: { message }, ...extra });
    const first = await counting(() => sdk.simulate(q('How do you start your day?')));
    const next = await counting(async () => {
      await sdk.simulate(q('What do you think of remote work?'));
      await sdk.simulate(q('Who was your best hire?'));
    });
    assert.equal(first.twinReads, 1, 'the first simulate of the mind looks its default twin up');
    assert.equal(next.twinReads, 0, 'later ones do not');

    const twin = (await sdk.twins.list(fresh)).digitalTwins.find((t) => t.isDefault);
    assert.ok(twin);
    let started: { conversationId: string } | undefined;
    const explicit = await counting(async () => (started = await sdk.simulate(q('What makes a good team?', { digitalTwinId: twin.id }))));
    assert.equal(explicit.twinReads, 1, 'a twin named in the request is checked');
    const followUp = await counting(() => sdk.simulate(q('Why?', { conversationId: started?.conversationId })));
    assert.equal(sdk.last?.status, 200);
    assert.equal(followUp.twinReads, 0, "the conversation's twin was checked when it began");
  });
});

describe('the journal', () => {
  it('a journal left behind is stored at the next start, once: a turn stored already adds nothing, a torn last line is skipped', async () => {
    const answer = await sdk.simulate(ask('What would you change about your job?'));
    const dir = path.join(srv.dataDir, 'simulation-turns');
    const lines = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.jsonl'))
      .flatMap((f) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n'))
      .filter((l) => l.includes(answer.simulationId));
    assert.equal(lines.length, 1, 'the turn is one line of the journal');
    await srv.ctx.turns.flush();
    assert.deepEqual(await storedIds([answer.simulationId]), [answer.simulationId]);
    assert.deepEqual(fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl')), [], 'its segment is removed once stored');

    // The same turn again (as a crash between the commit and the removal leaves it), one never stored, and a line cut short.
    const stored = JSON.parse(lines[0] ?? '') as AnsweredTurn;
    const unstored: AnsweredTurn = {
      ...stored,
      simulation: { ...stored.simulation, id: randomUUID() },
      messages: stored.messages.map((m) => ({ ...m, id: randomUUID() })),
    };
    const left = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-journal-'));
    try {
      fs.writeFileSync(path.join(left, '7.jsonl'), `${JSON.stringify(stored)}\n${JSON.stringify(unstored)}\n${JSON.stringify(unstored).slice(0, 40)}`);
      const journal = openTurnJournal(left);
      assert.ok(journal);
      assert.equal(openTurnJournal(left), null, 'one owner at a time');
      const turns = new PendingTurns(srv.ctx.store, { flushMs: 100, sharedDatabase: false });
      assert.deepEqual(await turns.start(journal), { replayed: 1, dropped: 0, unreadable: 1 });
      assert.deepEqual(fs.readdirSync(left).filter((f) => f.endsWith('.jsonl')), []);
      await turns.close();
      assert.deepEqual(fs.readdirSync(left), [], 'the lock is given up on close');
    } finally {
      fs.rmSync(left, { recursive: true, force: true });
    }
    for (const id of [answer.simulationId, unstored.simulation.id]) {
      const detail = await sdk.simulations.get(id);
      assert.equal(detail.messages.length, 2, 'each stored once');
    }
  });
});

describe('PostgreSQL, several API processes, turns deferred (SIMULATION_FLUSH_MS set)', () => {
  it('a follow-up on another process waits for the first turn to be stored there; a deleted mind drops its waiting turn', { skip: PG_SKIP, timeout: 120_000 }, async () => {
    const db = await createDatabase();
    const seenByB: string[] = [];
    const env = { DATABASE_URL: db.url, ...HELD };
    const a = await startService(env);
    const b = await startService({ ...env, RUN_WORKER: 'false' }, { onQuery: (sql) => void seenByB.push(sql) });
    try {
      assert.deepEqual([a.ctx.turns.deferring, b.ctx.turns.deferring], [true, true]);
      const sa = a.sdk();
      const sb = b.sdk(a.apiKey);
      const mind = await interviewMind(sa, 'Sam Okafor');
      const first = await sa.simulate({ mindId: mind, scenario: { message: 'We are hiring two engineers. What would you look for?' } });
      assert.equal(a.ctx.turns.size, 1);

      const readsOfB = () => seenByB.filter((q) => /^select .* from "simulations" where "id" = /.test(q)).length;
      const followUp = sb.simulate({ mindId: mind, conversationId: first.conversationId, scenario: { message: 'What would you do first?' } });
      await waitUntil(() => readsOfB() > 0, { what: 'B looked for the conversation once (and did not find it)' });
      await a.ctx.turns.flush();
      const answered = await followUp;
      assert.equal(answered.conversationId, first.conversationId);
      assert.ok(readsOfB() >= 2, 'B read the conversation again after missing it');
      assert.deepEqual((await sb.simulations.get(first.conversationId)).messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant']);

      const waiting = await sa.simulate({ mindId: mind, scenario: { message: 'How do you start your day?' } });
      await sb.minds.delete(mind);
      await a.ctx.turns.flush();
      assert.equal(a.ctx.turns.counts.dropped, 1);
      // Read from the database: through the API, a conversation not found is looked for again until another process's flush interval has passed.
      assert.equal(await a.ctx.store.db.selectFrom('simulations').select('id').where('id', '=', waiting.simulationId).executeTakeFirst(), undefined);
    } finally {
      await b.close();
      await a.close();
      await db.drop();
    }
  });
});
