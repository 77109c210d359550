/**
 * Redaction end to end (issue 25, item 2), against a local server speaking the OpenAI protocol that
 * records every request: with a mind's redaction `outbound`, none of the personal data planted in
 * its transcript (or in the scenario) reaches the provider in a snapshot's reflections and
 * estimates, a simulation (mind-reasoner-pro) or a panel's typed LLM answers; placeholders stand
 * in for them, a third party with one number throughout. With `stored`, nothing of it is in the
 * database's files, and the evidence quotes placeholders with their counts.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { blobOf, waitFor, type TestSdk } from '../testkit/sdk.ts';
import { startService, type Service } from '../testkit/service.ts';
import { sampleInterview, teamsVtt, type Turn } from '../testkit/fixtures.ts';
import { FULL_CONSENT } from '../testkit/consent.ts';
import { replyByName, startLlmStandIn, type LlmStandIn, type ProviderRequest } from '../testkit/llm-provider.ts';
import { SAM_QUESTIONS } from '../testkit/panels.ts';
import { PG_SKIP, createDatabase, type TestDatabase } from '../testkit/scale.ts';
import pg from 'pg';

/** What is planted, and the forms of it that must never be seen (as written, and compacted). */
const PLANTED = {
  email: 'okafor.home@fastmail.fm',
  phone: '+44 20 7946 0958',
  card: '4111 1111 1111 1111',
  iban: 'GB82 WEST 1234 5698 7654 32',
  address: '221B Baker Street, London NW1 6XE',
  url: 'linkedin.com/in/maria-lopez-4821',
  dob: 'March 3, 1985',
  person: 'Maria Lopez',
  person2: 'Kwabena Mensah',
};
const FORBIDDEN = [
  ...Object.values(PLANTED),
  '7946 0958',
  '4111111111111111',
  'GB82WEST12345698765432',
  'Baker Street',
  'maria-lopez',
  'Maria',
  'Lopez',
  'Kwabena',
  'Mensah',
  'okafor.home',
];

/** sampleInterview with the values said by the person and by the interviewer. */
function plantedInterview(): Turn[] {
  const turns = sampleInterview();
  const add = (i: number, text: string) => {
    const t = turns[i];
    if (t) t.text = `${t.text} ${text}`;
  };
  add(0, `My producer ${PLANTED.person2} sent you the release form, by the way.`);
  add(1, `My friend ${PLANTED.person} runs with me; you can call me on ${PLANTED.phone} if I'm late, or write to ${PLANTED.email}.`);
  add(3, `I live at ${PLANTED.address}, so the office is a long way.`);
  add(5, `I was born on ${PLANTED.dob}, and I still pay for everything with one card, ${PLANTED.card}.`);
  add(7, `Maria told me to ask for help sooner too. Her profile is ${PLANTED.url}. My salary goes to ${PLANTED.iban}.`);
  return turns;
}

const REPLIES: Record<string, unknown> = {
  reflections: { psychologist: 'Steady.', behaviouralEconomist: 'Careful.', politicalScientist: 'Civic.', demographer: 'Urban.' },
  simulation: { thinking: 'Would think it over.', feeling: 'Calm.', saying: 'I would run first, then decide.', acting: 'Runs.', confidence: 0.7 },
  // One reply that fits every typed question's schema (extra keys are dropped): a declined answer.
  typed_answer: { choice: 'no_evidence', choices: ['no_evidence'], value: null, noEvidence: true, saying: 'No idea.', confidence: 0.1, passages: [] },
  psychometrics: {
    ...Object.fromEntries(['openness', 'conscientiousness', 'extraversion', 'agreeableness', 'neuroticism'].map((t) => [t, { score: 0.5, rationale: 'Average.', statements: [1] }])),
    judgements: [],
  },
};

let provider: LlmStandIn;
let received: ProviderRequest[] = [];
const llmEnv = () => provider.env();

before(async () => {
  provider = await startLlmStandIn(replyByName(REPLIES));
  received = provider.requests;
});
after(() => provider.close());

/** Every planted form found in a text (JSON-escaped request bodies included). */
const leaks = (text: string) => FORBIDDEN.filter((v) => text.toLowerCase().includes(v.toLowerCase()));

describe('redaction outbound: nothing planted reaches the provider', () => {
  let srv: Service;
  let sdk: TestSdk;
  let mindId = '';
  before(async () => {
    srv = await startService(llmEnv());
    sdk = srv.sdk();
  });
  after(() => srv?.close());

  it('a snapshot: the reflections and estimates are sent with placeholders; the profile counts what was redacted', async () => {
    const created = await sdk.minds.create({ name: 'Sam Okafor', redaction: 'outbound', consent: FULL_CONSENT });
    assert.equal(created.mind.redaction, 'outbound');
    mindId = created.mind.id;
    const r = await sdk.snapshots.create(mindId, { file: blobOf(teamsVtt(plantedInterview())), fileName: 'talk.vtt' });
    assert.equal((await waitFor(sdk, mindId, r.mindAssessmentId)).status, 'completed');
    const reflections = received.find((x) => x.schemaName === 'reflections');
    assert.ok(reflections, 'the reflections were asked for');
    assert.ok(received.some((x) => x.schemaName === 'psychometrics'), 'the estimates were asked for');
    for (const x of received) assert.deepEqual(leaks(x.raw), [], `${x.schemaName} request`);
    for (const p of ['[email]', '[phone]', '[card]', '[iban]', '[address]', '[url]', '[date of birth]', '[person ']) assert.ok(reflections.raw.includes(p), `placeholder ${p} sent`);
    assert.ok(reflections.raw.includes('Sam Okafor'), "the person's own name is not a third party");
    const profile = await sdk.minds.profile(mindId);
    assert.deepEqual(profile.redactions, { email: 1, phone: 1, card: 1, iban: 1, address: 1, url: 1, dob: 1, person: 3 });
    // Outbound keeps what is stored as uploaded: the evidence the account reads is the person's words.
    const details = await sdk.snapshots.get(mindId, r.mindAssessmentId);
    assert.ok(JSON.stringify(details).includes(PLANTED.phone));
  });

  it('a simulation (mind-reasoner-pro), with a value in the scenario too: placeholders, the same third party numbered alike, counts in the answer', async () => {
    const before = received.length;
    const answer = await sdk.simulate({ mindId, selectedSimulationModel: 'mind-reasoner-pro', scenario: { message: `Would you run with Maria Lopez again, or call ${PLANTED.phone}?` } });
    const sent = received.slice(before);
    assert.equal(sent.length, 1);
    assert.equal(sent[0]?.schemaName, 'simulation');
    assert.deepEqual(leaks(sent[0]?.raw ?? ''), []);
    const reflections = received.find((x) => x.schemaName === 'reflections')?.raw ?? '';
    const maria = /\[person (\d+)\] runs with me/.exec(reflections)?.[1];
    assert.ok(maria, 'Maria numbered in the reflections');
    assert.ok(sent[0]?.raw.includes(`run with [person ${maria}] again`), 'the same number in the scenario of a later call');
    assert.ok((answer.redactions?.person ?? 0) >= 2 && (answer.redactions?.phone ?? 0) >= 1, JSON.stringify(answer.redactions));
  });

  it("a panel's typed LLM answers", async () => {
    const before = received.length;
    const { panel } = await sdk.panels.create({ name: 'Redacted panel', mindIds: [mindId], questions: SAM_QUESTIONS.slice(0, 3), selectedSimulationModel: 'mind-reasoner-pro' });
    const done = await sdk.panels.wait(panel.id, { timeoutMs: 60_000 });
    assert.equal(done.status, 'completed');
    const sent = received.slice(before);
    assert.equal(sent.filter((x) => x.schemaName === 'typed_answer').length, 3);
    for (const x of sent) assert.deepEqual(leaks(x.raw), [], `${x.schemaName} request`);
  });

  it('a mind with redaction off sends the words as they are (the stand-in does see values when nothing redacts them)', async () => {
    const off = await sdk.minds.create({ name: 'Sam Okafor', redaction: 'off', consent: FULL_CONSENT });
    const before = received.length;
    const r = await sdk.snapshots.create(off.mind.id, { file: blobOf(teamsVtt(plantedInterview())), fileName: 'talk.vtt' });
    await waitFor(sdk, off.mind.id, r.mindAssessmentId);
    const reflections = received.slice(before).find((x) => x.schemaName === 'reflections');
    assert.ok(reflections?.raw.includes(PLANTED.phone));
    // Changing the mode is a PUT; the Mind shows it.
    const { mind } = await sdk.minds.setRedaction(off.mind.id, 'stored');
    assert.equal(mind.redaction, 'stored');
    assert.equal((await sdk.minds.get(off.mind.id)).redaction, 'stored');
  });
});

describe('redaction stored: nothing planted is stored', () => {
  let srv: Service;
  let sdk: TestSdk;
  before(async () => {
    srv = await startService(llmEnv());
    sdk = srv.sdk();
  });
  after(() => srv?.close());

  it('the database files hold placeholders, never the values; the evidence quotes placeholders with their counts', async () => {
    const { mind } = await sdk.minds.create({ name: 'Sam Okafor', redaction: 'stored', consent: FULL_CONSENT });
    const first = await sdk.snapshots.create(mind.id, { file: blobOf(teamsVtt(plantedInterview())), fileName: 'talk.vtt' });
    assert.equal((await waitFor(sdk, mind.id, first.mindAssessmentId)).status, 'completed');
    // A second snapshot: the same third party keeps their number across snapshots.
    const second = await sdk.snapshots.create(mind.id, { file: blobOf(teamsVtt(plantedInterview().slice(0, 4))), fileName: 'again.vtt' });
    assert.equal((await waitFor(sdk, mind.id, second.mindAssessmentId)).status, 'completed');

    const answer = await sdk.simulate({ mindId: mind.id, scenario: { message: 'Who do you go running with in the morning?' } });
    const quoted = answer.evidence.find((e) => e.text.includes('[person'));
    assert.ok(quoted, `evidence quotes a placeholder: ${JSON.stringify(answer.evidence.map((e) => e.text))}`);
    assert.ok((quoted.redactions?.person ?? 0) >= 1);
    assert.ok(answer.redactions && (answer.redactions.person ?? 0) >= 1);

    const transcript = (t: string) => sdk.snapshots.get(mind.id, t).then((d) => JSON.stringify(d));
    const [a, b] = [await transcript(first.mindAssessmentId), await transcript(second.mindAssessmentId)];
    const numberIn = (s: string) => /My friend \[person (\d+)\] runs with me/.exec(s)?.[1];
    assert.ok(numberIn(a));
    assert.equal(numberIn(a), numberIn(b), 'one number for Maria in both snapshots');
    assert.deepEqual(leaks(a), []);

    // Everything the service stores outside the uploaded files (kept as uploaded): the database and its journal.
    const files = fs.readdirSync(srv.dataDir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile() && !path.join(f.parentPath, f.name).includes(`${path.sep}blobs${path.sep}`));
    assert.ok(files.some((f) => /\.(db|sqlite)/.test(f.name)), `a database file among ${files.map((f) => f.name).join(', ')}`);
    for (const f of files) {
      const text = fs.readFileSync(path.join(f.parentPath, f.name)).toString('latin1');
      assert.deepEqual(leaks(text), [], path.join(f.parentPath, f.name));
    }
  });
});

describe('redaction stored on PostgreSQL', { skip: PG_SKIP }, () => {
  let db: TestDatabase;
  let srv: Service;
  let sdk: TestSdk;
  before(async () => {
    db = await createDatabase();
    srv = await startService({ ...llmEnv(), DATABASE_URL: db.url });
    sdk = srv.sdk();
  });
  after(async () => {
    await srv?.close();
    await db?.drop();
  });

  it('no table holds a planted value; a third party keeps their number across snapshots; outbound prompts stay clean', async () => {
    const { mind } = await sdk.minds.create({ name: 'Sam Okafor', redaction: 'stored', consent: FULL_CONSENT });
    const before = received.length;
    const snapshots = [];
    for (const turns of [plantedInterview(), plantedInterview().slice(0, 4)]) {
      const r = await sdk.snapshots.create(mind.id, { file: blobOf(teamsVtt(turns)), fileName: 'talk.vtt' });
      assert.equal((await waitFor(sdk, mind.id, r.mindAssessmentId)).status, 'completed');
      snapshots.push(r.mindAssessmentId);
    }
    await sdk.simulate({ mindId: mind.id, selectedSimulationModel: 'mind-reasoner-pro', scenario: { message: 'Who do you go running with?' } });
    for (const x of received.slice(before)) assert.deepEqual(leaks(x.raw), [], `${x.schemaName} request`);
    const numbers = await Promise.all(snapshots.map(async (id) => /My friend \[person (\d+)\] runs with me/.exec(JSON.stringify(await sdk.snapshots.get(mind.id, id)))?.[1]));
    assert.ok(numbers[0]);
    assert.equal(numbers[0], numbers[1]);

    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const tables = (await client.query<{ table_name: string }>("select table_name from information_schema.tables where table_schema = 'public'")).rows.map((r) => r.table_name);
      for (const table of tables) {
        const rows = await client.query<{ row: string }>(`select t::text as row from "${table}" t`);
        assert.deepEqual(leaks(rows.rows.map((r) => r.row).join('\n')), [], `table ${table}`);
      }
      const people = await client.query<{ hash: string }>('select hash from redaction_people where mind_id = $1', [mind.id]);
      assert.ok(people.rows.length >= 2, 'the third parties are numbered');
    } finally {
      await client.end();
    }
  });
});

describe("a new mind's default redaction", () => {
  const defaultOf = async (env: Record<string, string>) => {
    const srv = await startService({ ...env, RUN_WORKER: 'false' });
    try {
      return (await srv.sdk().minds.create('Sam Okafor')).mind.redaction;
    } finally {
      await srv.close();
    }
  };

  it('outbound with a provider off loopback; off with one on loopback; REDACTION wins', async () => {
    assert.equal(await defaultOf({ LLM_PROVIDER: 'openai', LLM_MODEL: 'gpt-4o-mini', LLM_API_KEY: 'k' }), 'outbound');
    assert.equal(await defaultOf(llmEnv()), 'off');
    assert.equal(await defaultOf({ ...llmEnv(), REDACTION: 'stored' }), 'stored');
  });
});
