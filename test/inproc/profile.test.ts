import assert from 'node:assert/strict';
import { test } from 'node:test';
import { behaviourKind } from '../../src/memory/text/readings.ts';
import { buildMemoryBank } from '../../src/memory/build.ts';
import { rougeL, scoreAnswer, tokenF1 } from '../../src/memory/fidelity.ts';
import { buildProfile, qaPairsOf } from '../../src/memory/profile.ts';
import { mergeProfiles } from '../../src/memory/profile-merge.ts';
import { readSentence } from '../../src/memory/profile-topics.ts';
import type { SnapshotProfileV1 } from '../../src/memory/profile-types.ts';
import { profileBrief } from '../../src/engines/llm-prompt.ts';
import { fidelityCheck } from '../../src/engines/fidelity-check.ts';
import { longInterview, sampleInterview } from '../../testkit/fixtures.ts';
import { testEncoder, testSearcher } from '../../testkit/minds.ts';
import { embedForStorage, passagesOf } from '../../src/memory/build/passages.ts';
import type { Memory } from '../../src/memory/types.ts';

const bankOf = (turns: Array<{ speaker: string; text: string }>) => buildMemoryBank({ utterances: turns, mindName: 'Sam Okafor' }).memories;

test('stated behaviours by kind', () => {
  assert.equal(behaviourKind('I always start with a long run.'), 'always');
  assert.equal(behaviourKind('I never check email before I run.'), 'never');
  assert.equal(behaviourKind('We usually ship on Tuesdays.'), 'usually');
  assert.equal(behaviourKind("I'd make the same choice again."), 'would');
  assert.equal(behaviourKind("I don't take meetings after five."), 'never');
  assert.equal(behaviourKind('The weather was nice.'), null);
});

test('the profile is deterministic, and its parts come from the memories', () => {
  const memories = bankOf(sampleInterview());
  const a = buildProfile(memories);
  assert.deepEqual(buildProfile(memories), a);
  const texts = new Set(memories.map((m) => m.text));
  for (const t of a.topics) for (const s of t.stances) assert.ok(texts.has(s.text));
  for (const b of a.behaviours) assert.equal(memories[b.ref.seq]?.text, b.ref.text);
  assert.ok(a.topics.some((t) => t.key === 'morning'), a.topics.map((t) => t.key).join(','));
  assert.equal(a.qa.length, 8);
  assert.equal(a.style.sentences, memories.length);
});

test('Q→A pairs: consecutive sentences under one question', () => {
  const pairs = qaPairsOf(bankOf(sampleInterview()));
  assert.equal(pairs[0]?.firstSeq, 0);
  for (const [i, p] of pairs.entries()) {
    assert.ok(p.lastSeq >= p.firstSeq);
    if (i > 0) assert.equal(p.firstSeq, (pairs[i - 1]?.lastSeq ?? 0) + 1);
  }
});

test('merging snapshot profiles adds mentions and tags evidence with the snapshot', () => {
  const p = buildProfile(bankOf(sampleInterview()));
  const merged = mergeProfiles([
    { snapshotId: 'a', profile: p },
    { snapshotId: 'b', profile: p },
  ]);
  const morning = merged.topics.find((t) => t.key === 'morning');
  assert.equal(morning?.mentions, 2 * (p.topics.find((t) => t.key === 'morning')?.mentions ?? 0));
  assert.equal(morning?.stances[0]?.snapshotId, 'a');
  for (const s of morning?.stances ?? []) assert.ok(['a', 'b'].includes(s.snapshotId));
  assert.equal(merged.qaPairCount, 16);
  assert.equal(merged.style.words, 2 * p.style.words);
});

/** A designer interviewed about design, metrics, remote work and open source, speaking as people do ("I'm", "it's", "don't"). */
function designInterview(): Array<{ speaker: string; text: string }> {
  const qa: Array<[string, string]> = [
    ["You've led design at three companies. What do you care about most in mobile-first design? I'm curious about your design system too.",
      "I'm obsessed with mobile-first design, honestly. I'm convinced it forces you to cut everything that doesn't matter. When I'm starting a product, I sketch the smallest screen first. Mobile-first design also keeps the design system small, and it's easier to keep a small design system consistent."],
    ['How do you know that a design works?',
      "I look at metrics, but I don't worship them. I'm careful with metrics that reward clicks, because they're easy to game. The metrics I trust are retention and support tickets. Our design system has its own metrics too: how many teams adopt each component."],
    ['Do you work remotely these days?',
      "Remote work suits me. I'm happier with remote work than I ever was in an office, and it's made our design system documentation better because everything has to be written down. I don't miss the commute at all."],
    ['And open source? You seem to spend your weekends on it.',
      "Open source taught me everything I know. I'm a maintainer of two open source libraries and I answer issues on Sunday mornings. It's how I learned to write for strangers. I think companies should fund the open source they use, and their teams should give time back."],
  ];
  return qa.flatMap(([q, a]) => [
    { speaker: 'Dana Reyes', text: q },
    { speaker: 'Sam Okafor', text: a },
  ]);
}

const NOT_SUBJECTS = ["i'm", 'im', 'i', 'it', "it's", 'you', "don't", 'dont', "they're", 'they', 'we', 'thing', 'lot', 'way', 'wanna', 'gonna'];

test('pronouns and contractions are never topic candidates, whatever the tags say', () => {
  // wink-nlp leaves "I'm" whole and tags it PROPN, and tags "gonna" NOUN.
  for (const text of ["I'm sure it's fine, don't you think?", "Im gonna say yeah, you know, it's a lot of things.", 'I’m not. They’re the ones who wanna know.']) {
    assert.deepEqual(readSentence(text).candidates, [], text);
  }
  const keys = readSentence('Our teams ship mobile-first design with a design system and metrics.').candidates.map((c) => c.key);
  for (const k of ['team', 'mobile-first design', 'design system', 'metric', 'design']) assert.ok(keys.includes(k), `${k} in ${keys.join(', ')}`);
});

test('topics are the subjects of a realistic interview: noun phrases, with passages of the person\'s own words', () => {
  const turns = designInterview();
  const memories = bankOf(turns);
  const p = buildProfile(memories);
  assert.equal(p.version, 2);
  const keys = p.topics.map((t) => t.key);
  for (const k of ['mobile-first design', 'design system', 'metric', 'remote work', 'open source']) assert.ok(keys.includes(k), `${k} in ${keys.join(', ')}`);
  assert.equal(p.topics.find((t) => t.key === 'metric')?.label, 'metrics');
  for (const t of p.topics) {
    for (const bad of NOT_SUBJECTS) assert.ok(!t.key.split(' ').includes(bad) && t.label.toLowerCase() !== bad, `${t.label} is not a subject`);
  }
  // A recurring phrase is preferred to its head noun: "design" alone only where it is not "design system"/"mobile-first design".
  assert.ok(!keys.includes('source') && !keys.includes('work'), keys.join(', '));

  const questions = turns.filter((t) => t.speaker === 'Dana Reyes').map((t) => t.text);
  const answers = turns.filter((t) => t.speaker === 'Sam Okafor').map((t) => t.text);
  for (const t of p.topics) {
    assert.ok(t.passages.length >= 1 && t.passages.length <= 3, `${t.label}: ${t.passages.length} passages`);
    for (const ps of t.passages) {
      const run = memories.filter((m) => m.seq >= ps.firstSeq && m.seq <= ps.lastSeq);
      assert.equal(run.length, ps.lastSeq - ps.firstSeq + 1);
      assert.equal(ps.text, run.map((m) => m.text).join(' '), 'a passage is the consecutive sentences it names');
      assert.equal(new Set(run.map((m) => m.question)).size, 1, 'all of one answer');
      assert.ok(answers.some((a) => a.includes(ps.text)), `contiguous text of one answer: ${ps.text}`);
      for (const q of questions) assert.ok(!ps.text.includes(q.slice(0, 25)), "never the interviewer's words");
      assert.equal(ps.start, run[0]?.start ?? null);
      assert.ok(ps.text.split(' ').length <= 80 || run.length === 1);
    }
    const covered = t.passages.flatMap((ps) => memories.filter((m) => m.seq >= ps.firstSeq && m.seq <= ps.lastSeq));
    assert.ok(covered.some((m) => readSentence(m.text).candidates.some((c) => c.key === t.key)), `${t.label}: a passage mentions it`);
  }
  assert.match(profileBrief(mergeProfiles([{ snapshotId: 'a', profile: p }])), /- mobile-first design \(\d+, \w+\): "[^"]*mobile-first design/i);
});

test('merging snapshots merges topics by key and keeps each passage with its snapshot', () => {
  const turns = designInterview();
  const a = buildProfile(bankOf(turns));
  const b = buildProfile(bankOf([...turns.slice(6, 8), ...turns.slice(0, 2)])); // open source, then mobile-first design
  const merged = mergeProfiles([
    { snapshotId: 'a', profile: a },
    { snapshotId: 'b', profile: b },
  ]);
  const source = merged.topics.find((t) => t.key === 'open source');
  const mentions = (p: typeof a) => p.topics.find((t) => t.key === 'open source')?.mentions ?? 0;
  assert.ok(mentions(b) > 0);
  assert.equal(source?.mentions, mentions(a) + mentions(b));
  assert.deepEqual(new Set(source?.passages.map((ps) => ps.snapshotId)), new Set(['a', 'b']), 'passages of both snapshots');
  for (const [id, p] of [['a', a], ['b', b]] as const) {
    for (const ps of source?.passages.filter((x) => x.snapshotId === id) ?? []) {
      assert.ok(p.topics.some((t) => t.passages.some((x) => x.firstSeq === ps.firstSeq && x.text === ps.text)), 'kept as its snapshot had it');
    }
  }
  const metrics = merged.topics.find((t) => t.key === 'metric');
  assert.ok(metrics && metrics.passages.length > 0 && metrics.passages.every((ps) => ps.snapshotId === 'a'));
  assert.equal(new Set(merged.topics.map((t) => t.key)).size, merged.topics.length);
});

test('a version-1 stored profile still merges: its junk topics dropped, missing passages empty', () => {
  const ref = { seq: 3, text: 'I love working with my teams.', start: 12.5, end: 14, page: null };
  const topic = (key: string, label: string, mentions: number) => ({ key, label, mentions, sentiment: 0.2, positive: 1, negative: 0, stances: [ref] });
  const v1: SnapshotProfileV1 = {
    version: 1,
    topics: [topic("i'm", "i'm", 12), topic('team', 'teams', 4), topic('wanna', 'wanna', 9), topic('metric', 'metrics', 2)],
    keyphrases: [{ phrase: 'design system', count: 2 }],
    behaviours: [{ kind: 'always', topic: 'team', ref }],
    style: { words: 40, sentences: 4, avgSentenceWords: 10, signaturePhrases: [], fillers: [], hedges: [] },
    qa: [{ question: 'Teams?', firstSeq: 0, lastSeq: 3 }],
  };
  const stored = JSON.parse(JSON.stringify(v1)) as SnapshotProfileV1; // as read back from the database
  const v2 = buildProfile(bankOf(designInterview()));
  const merged = mergeProfiles([
    { snapshotId: 'old', profile: stored },
    { snapshotId: 'new', profile: v2 },
  ]);
  const keys = merged.topics.map((t) => t.key);
  assert.ok(!keys.includes("i'm") && !keys.includes('wanna'), keys.join(', '));
  const team = merged.topics.find((t) => t.key === 'team');
  assert.equal(team?.label, 'teams');
  assert.ok(team?.stances.some((s) => s.snapshotId === 'old' && s.seq === 3));
  assert.ok(team?.passages.every((ps) => ps.snapshotId === 'new'), 'the old snapshot has no passages');
  const metrics = merged.topics.find((t) => t.key === 'metric');
  assert.equal(metrics?.mentions, 2 + (v2.topics.find((t) => t.key === 'metric')?.mentions ?? 0), 'old and new keys meet');
  assert.equal(merged.behaviours[0]?.evidence.snapshotId, 'old');
  assert.equal(merged.qaPairCount, 1 + v2.qa.length);
  assert.deepEqual(mergeProfiles([{ snapshotId: 'old', profile: stored }]).topics.find((t) => t.key === 'team')?.passages, []);
});

test('token F1 and ROUGE-L', () => {
  assert.equal(tokenF1(['a', 'b'], ['a', 'b']), 1);
  assert.equal(tokenF1(['a', 'b'], ['c']), 0);
  assert.equal(tokenF1(['a', 'a', 'b'], ['a', 'c']), 0.4); // overlap 1: p 1/3, r 1/2
  assert.equal(rougeL(['a', 'b', 'c', 'd'], ['a', 'c', 'd']), (2 * 0.75 * 1) / 1.75); // LCS 3
  assert.deepEqual(scoreAnswer('', 'anything'), { tokenF1: 0, rougeL: 0 });
});

test('fidelity self-check: null with few Q/A pairs, scores in [0, 1] with many, the same on a second run', async () => {
  const searcher = testSearcher();
  const check = async (memories: Memory[]) => {
    const { spans, texts } = passagesOf(memories);
    const { encoder, vectors } = await embedForStorage(await testEncoder(), texts);
    return fidelityCheck(memories, { encoder, spans, vectors }, searcher);
  };
  assert.equal(await check(bankOf(sampleInterview().slice(0, 10))), null);
  const long = bankOf(longInterview(2000));
  const f = await check(long);
  assert.ok(f && f.pairs >= 8 && f.heldOut > 0);
  for (const k of ['tokenF1', 'rougeL', 'baselineF1', 'contentF1', 'baselineContentF1'] as const) assert.ok(f[k] >= 0 && f[k] <= 1);
  assert.deepEqual(await check(long), f);
});
