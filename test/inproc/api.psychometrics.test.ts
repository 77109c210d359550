/**
 * Psychometrics and topic analysis, per snapshot and per mind: measured linguistic markers
 * without an LLM (their counts checked against a transcript written for them), and with an LLM
 * (the testkit's local server speaking the OpenAI chat-completions protocol) Big Five estimates and the expert
 * reflections' judgements, each with the statements it rests on. Both prefixes, two accounts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { client, type Client } from '../../testkit/http.ts';
import { blobOf, failure, waitFor, type TestSdk } from '../../testkit/sdk.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { sampleInterview, teamsVtt, type Turn } from '../../testkit/fixtures.ts';
import { FULL_CONSENT } from '../../testkit/consent.ts';
import { startLlmStandIn, type LlmStandIn } from '../../testkit/llm-provider.ts';

const DANA = 'Dana Reyes';
const SAM = 'Sam Okafor';
/** Written for its counts: certainty 2 (definitely, always), hedges 3 (maybe, I think, probably), I 5, we 1, 1 question in 7 sentences. */
const MARKED: Turn[] = [
  { speaker: DANA, text: 'How do you feel about the new project?' },
  { speaker: SAM, text: 'I definitely love the new project. We built it together and I am proud of it.' },
  { speaker: DANA, text: 'Will it ship on time?' },
  { speaker: SAM, text: 'Maybe it will ship on time. I think the deadline is probably too tight. Why do managers always promise so much?' },
  { speaker: DANA, text: 'What would you change?' },
  { speaker: SAM, text: 'I would hire two more engineers. Honestly the team is exhausted and I hate seeing that.' },
];
const SENTENCES = [
  'I definitely love the new project.',
  'We built it together and I am proud of it.',
  'Maybe it will ship on time.',
  'I think the deadline is probably too tight.',
  'Why do managers always promise so much?',
  'I would hire two more engineers.',
  'Honestly the team is exhausted and I hate seeing that.',
];
const wordsIn = (turns: Turn[]) => turns.reduce((n, t) => n + (t.text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? []).length, 0);
const ZERO = '00000000-0000-4000-8000-000000000000';

let srv: Service;
let sdk: TestSdk;
let api: Client;
let ms: Client;

before(async () => {
  srv = await startService();
  sdk = srv.sdk();
  api = client(srv.api, srv.apiKey);
  ms = client(`${srv.baseUrl}/api/mindsim`, srv.apiKey);
});
after(() => srv?.close());

async function snapshotOf(s: TestSdk, mindId: string, turns: Turn[]): Promise<string> {
  const r = await s.snapshots.create(mindId, { file: blobOf(teamsVtt(turns)), fileName: 't.vtt' });
  assert.equal((await waitFor(s, mindId, r.mindAssessmentId)).status, 'completed');
  return r.mindAssessmentId;
}

const markerOf = (p: { linguisticMarkers: Array<{ key: string }> }, key: string) => {
  const m = p.linguisticMarkers.find((x) => x.key === key);
  assert.ok(m, key);
  return m as (typeof p.linguisticMarkers)[number] & { value: number | null; words: number; details: Record<string, number>; method: string; examples: Array<{ text: string; seq: number; snapshotId: string }> };
};

describe('psychometrics without a language model: linguistic markers', () => {
  it("measures the person's own words, says how, on how many words, with examples; no personality score", async () => {
    const { mind } = await sdk.minds.create(SAM);
    const id = await snapshotOf(sdk, mind.id, MARKED);
    const p = await sdk.snapshots.psychometrics(mind.id, id);
    assert.deepEqual([p.mindId, p.snapshotIds], [mind.id, [id]]);
    assert.match(p.note, /not personality scores/);
    assert.deepEqual(p.linguisticMarkers.map((m) => m.key), ['certainty', 'sentiment', 'first_person_focus', 'question_rate', 'talkativeness']);
    for (const m of p.linguisticMarkers) {
      assert.equal(m.kind, 'linguistic_markers');
      assert.ok(m.method.length > 20 && m.scale.length > 5);
      assert.ok(m.words > 0);
      assert.ok(m.examples.length > 0, `${m.key} has examples`);
      for (const e of m.examples) {
        assert.equal(e.snapshotId, id);
        assert.ok(SENTENCES.some((s) => s.startsWith(e.text.slice(0, 25))) || e.text.startsWith('I '), `an example is the person's: ${e.text}`);
      }
    }
    const personWords = wordsIn(MARKED.filter((t) => t.speaker === SAM));
    const certainty = markerOf(p, 'certainty');
    assert.deepEqual([certainty.value, certainty.details.certainty, certainty.details.hedges, certainty.words], [0.4, 2, 3, personWords]);
    const focus = markerOf(p, 'first_person_focus');
    assert.deepEqual([focus.value, focus.details.singular, focus.details.plural], [0.833, 5, 1]);
    const questions = markerOf(p, 'question_rate');
    assert.deepEqual([questions.value, questions.details.questions, questions.details.sentences], [0.143, 1, 7]);
    assert.equal(questions.examples[0]?.text, 'Why do managers always promise so much?');
    const talk = markerOf(p, 'talkativeness');
    assert.deepEqual([talk.details.personWords, talk.details.allWords, talk.details.personTurns], [personWords, wordsIn(MARKED), 3]);
    assert.equal(talk.value, Math.round((personWords / wordsIn(MARKED)) * 1000) / 1000);
    assert.equal(talk.details.meanTurnWords, Math.round((personWords / 3) * 1000) / 1000);
    const sentiment = markerOf(p, 'sentiment');
    assert.ok(sentiment.value !== null && sentiment.value >= -1 && sentiment.value <= 1);
    assert.ok((sentiment.details.positiveSentences ?? 0) >= 1);
    assert.deepEqual([p.bigFive, p.expertJudgements], [[], []]);
    assert.deepEqual(p.gaps, [{ snapshotId: id, part: 'llm_estimates', reason: 'No language model was configured when the snapshot was processed.' }]);
    assert.doesNotMatch(JSON.stringify(p), /"openness"|"extraversion"/);

    // The mind's markers sum the counts of its linked completed snapshots.
    const second = await snapshotOf(sdk, mind.id, MARKED);
    const whole = (await ms.get(`/minds/${mind.id}/psychometrics`)).body;
    assert.deepEqual(whole.snapshotIds, [id, second]);
    const both = markerOf(whole, 'certainty');
    assert.deepEqual([both.value, both.details.certainty, both.details.hedges, both.words], [0.4, 4, 6, 2 * personWords]);
    assert.equal(markerOf(whole, 'question_rate').details.sentences, 14);
    await sdk.snapshots.unlink(mind.id, second);
    assert.equal(markerOf(await sdk.minds.psychometrics(mind.id), 'certainty').details.certainty, 2, 'an unlinked snapshot is left out');

    const d = await sdk.snapshots.get(mind.id, id);
    assert.equal(d.psychometricCount, 5);
    assert.deepEqual(d.psychometrics, p);
  });

  it('answers 409 before a snapshot is completed (or when it failed), 404 for unknown or foreign ids, 400 for bad ids', async () => {
    const { mind } = await sdk.minds.create(SAM);
    for (const path of [`/minds/${mind.id}/psychometrics`, `/minds/${mind.id}/topics`]) {
      const r = await api.get(path);
      assert.deepEqual([r.status, r.body.code], [409, 'SNAPSHOT_NOT_READY'], path);
    }
    const bad = await sdk.snapshots.create(mind.id, { file: blobOf('WEBVTT\n\n'), fileName: 'empty.vtt' });
    assert.equal((await waitFor(sdk, mind.id, bad.mindAssessmentId)).status, 'failed');
    for (const c of [api, ms]) {
      for (const part of ['psychometrics', 'topics']) {
        const r = await c.get(`/minds/${mind.id}/snapshots/${bad.mindAssessmentId}/${part}`);
        assert.deepEqual([r.status, r.body.code, r.body.details?.status], [409, 'SNAPSHOT_NOT_READY', 'failed']);
        assert.equal((await c.get(`/minds/${mind.id}/snapshots/${ZERO}/${part}`)).status, 404);
        assert.equal((await c.get(`/minds/${ZERO}/snapshots/${bad.mindAssessmentId}/${part}`)).status, 404);
        assert.equal((await c.get(`/minds/${mind.id}/snapshots/nope/${part}`)).status, 400);
        assert.equal((await c.get(`/minds/${ZERO}/${part}`)).status, 404);
      }
    }
  });
});

describe('topic analysis', () => {
  it('gives the topics of a snapshot and of the mind, each with its evidence', async () => {
    const { mind } = await sdk.minds.create(SAM);
    const talk = await snapshotOf(sdk, mind.id, sampleInterview());
    const marked = await snapshotOf(sdk, mind.id, MARKED);
    const one = await sdk.snapshots.topics(mind.id, talk);
    assert.deepEqual([one.mindId, one.snapshotIds, one.count], [mind.id, [talk], one.topics.length]);
    assert.ok(one.count > 0);
    for (const t of one.topics) {
      assert.ok(t.mentions >= 2 && t.stances.length > 0);
      for (const e of [...t.stances, ...t.passages]) assert.equal(e.snapshotId, talk);
    }
    assert.ok(one.topics.some((t) => /librar|morning|startup/i.test(t.label)), JSON.stringify(one.topics.map((t) => t.label)));
    const whole = (await ms.get(`/minds/${mind.id}/topics`)).body;
    const profile = await sdk.minds.profile(mind.id);
    assert.deepEqual(whole, { mindId: mind.id, snapshotIds: [talk, marked], count: profile.topics.length, topics: profile.topics });
    assert.equal((await sdk.snapshots.get(mind.id, talk)).keyTopicCount, one.count);
    assert.deepEqual((await ms.get(`/minds/${mind.id}/snapshots/${talk}/topics`)).body, one);
  });

  it("another account gets 404 for this account's psychometrics and topics, on both prefixes", async () => {
    const { mind } = await sdk.minds.create(SAM);
    const id = await snapshotOf(sdk, mind.id, MARKED);
    const b = await srv.admin.createAccount('psychometrics-b@example.com', 'pro');
    const theirs = (await srv.sdk(b.apiKey).minds.create('Theirs')).mind.id;
    for (const c of [client(srv.api, b.apiKey), client(`${srv.baseUrl}/api/mindsim`, b.apiKey)]) {
      for (const path of [
        `/minds/${mind.id}/psychometrics`,
        `/minds/${mind.id}/topics`,
        `/minds/${mind.id}/snapshots/${id}/psychometrics`,
        `/minds/${mind.id}/snapshots/${id}/topics`,
        `/minds/${theirs}/snapshots/${id}/psychometrics`,
        `/minds/${theirs}/snapshots/${id}/topics`,
      ]) {
        const r = await c.get(path);
        assert.equal(r.status, 404, path);
        assert.doesNotMatch(JSON.stringify(r.body), /definitely|project/);
      }
    }
  });
});

describe('psychometrics with a language model: labelled LLM estimates with their statements', () => {
  type Mode = 'ok' | 'fail-psychometrics';
  let mode: Mode = 'ok';
  let provider: LlmStandIn;
  let llm: Service;
  const REFLECTIONS = {
    psychologist: 'Values autonomy and craft.',
    behaviouralEconomist: 'Weighs the team’s time over promises.',
    politicalScientist: 'Sceptical of management.',
    demographer: 'A mid-career engineer.',
  };
  const trait = (score: number, statements: number[]) => ({ score, rationale: `Rationale at ${score}.`, statements });
  const ESTIMATES = {
    openness: trait(0.8, [1, 2, 99]),
    conscientiousness: trait(1.7, [4]),
    extraversion: trait(0.4, []),
    agreeableness: trait(0.6, [2, 2]),
    neuroticism: trait(-3, [7]),
    judgements: [
      { expert: 'psychologist', statements: [3] },
      { expert: 'Demographer', statements: [6, 0] },
    ],
  };

  before(async () => {
    provider = await startLlmStandIn((r) =>
      r.schemaName === 'psychometrics' && mode === 'fail-psychometrics' ? { status: 500 } : { json: r.schemaName === 'reflections' ? REFLECTIONS : ESTIMATES },
    );
    llm = await startService(provider.env());
  });
  after(async () => {
    await llm?.close();
    await provider.close();
  });

  it('adds Big Five estimates and the experts’ judgements, each citing the statements sent (others dropped)', async () => {
    const s = llm.sdk();
    const { mind } = await s.minds.create({ name: SAM, consent: FULL_CONSENT });
    const id = await snapshotOf(s, mind.id, MARKED);
    const sent = provider.requests.find((r) => r.schemaName === 'psychometrics');
    assert.ok(sent, 'a psychometrics request was sent');
    assert.match(sent.user, /\[M1\] I definitely love the new project\./);
    assert.match(sent.user, /\[psychologist\] Values autonomy and craft\./);

    const p = await s.snapshots.psychometrics(mind.id, id);
    assert.equal(p.linguisticMarkers.length, 5, 'the measured markers stay');
    assert.deepEqual(p.bigFive.map((b) => [b.kind, b.trait, b.score]), [
      ['llm_estimate', 'openness', 0.8],
      ['llm_estimate', 'conscientiousness', 1],
      ['llm_estimate', 'extraversion', 0.4],
      ['llm_estimate', 'agreeableness', 0.6],
      ['llm_estimate', 'neuroticism', 0],
    ]);
    const openness = p.bigFive[0];
    assert.deepEqual(openness?.evidence.map((e) => [e.snapshotId, e.text]), [[id, SENTENCES[0]], [id, SENTENCES[1]]], 'statement 99 does not exist: dropped');
    assert.equal(openness?.rationale, 'Rationale at 0.8.');
    assert.equal(openness?.model, 'openai-compatible:test-model');
    assert.match(openness?.method ?? '', /not a validated test/);
    assert.deepEqual(p.bigFive[3]?.evidence.map((e) => e.text), [SENTENCES[1]], 'a statement cited twice counts once');
    assert.deepEqual(p.expertJudgements.map((j) => [j.kind, j.expert, j.text, j.evidence.map((e) => e.text)]), [
      ['llm_estimate', 'psychologist', REFLECTIONS.psychologist, [SENTENCES[2]]],
      ['llm_estimate', 'behavioural economist', REFLECTIONS.behaviouralEconomist, []],
      ['llm_estimate', 'political scientist', REFLECTIONS.politicalScientist, []],
      ['llm_estimate', 'demographer', REFLECTIONS.demographer, [SENTENCES[5]]],
    ]);
    assert.deepEqual(p.gaps, []);
    const d = await s.snapshots.get(mind.id, id, { includeTranscript: false });
    assert.equal(d.psychometricCount, 10);
    const behaviours = (await s.minds.profile(mind.id)).behaviours.length;
    assert.equal(d.findingCount, behaviours + 4);
    assert.equal(d.transcripts, null);

    const whole = (await client(`${llm.baseUrl}/api/mindsim`, llm.apiKey).get(`/minds/${mind.id}/psychometrics`)).body;
    assert.deepEqual(whole.bigFive[0].perSnapshot, [{ snapshotId: id, score: 0.8, rationale: 'Rationale at 0.8.' }]);
  });

  it('a failing estimate leaves the snapshot completed with its markers, and says why in gaps', async () => {
    mode = 'fail-psychometrics';
    try {
      const s = llm.sdk();
      const { mind } = await s.minds.create({ name: SAM, consent: FULL_CONSENT });
      const id = await snapshotOf(s, mind.id, MARKED);
      const p = await s.snapshots.psychometrics(mind.id, id);
      assert.equal(p.linguisticMarkers.length, 5);
      assert.deepEqual([p.bigFive, p.expertJudgements], [[], []]);
      assert.equal(p.gaps.length, 1);
      assert.match(p.gaps[0]?.reason ?? '', /^The language model failed: /);
      assert.equal((await s.snapshots.get(mind.id, id)).psychometricCount, 5);
      assert.equal((await failure(s.snapshots.psychometrics(mind.id, ZERO))).status, 404);
    } finally {
      mode = 'ok';
    }
  });
});
