import assert from 'node:assert/strict';
import { test } from 'node:test';
import { behaviourKind } from '../src/memory/behaviours.ts';
import { buildMemoryBank } from '../src/memory/build.ts';
import { rougeL, scoreAnswer, tokenF1 } from '../src/memory/fidelity.ts';
import { buildProfile, qaPairsOf } from '../src/memory/profile.ts';
import { mergeProfiles } from '../src/memory/profile-merge.ts';
import { fidelityCheck } from '../src/engines/fidelity-check.ts';
import { longInterview, sampleInterview } from './support/fixtures.ts';

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

test('token F1 and ROUGE-L', () => {
  assert.equal(tokenF1(['a', 'b'], ['a', 'b']), 1);
  assert.equal(tokenF1(['a', 'b'], ['c']), 0);
  assert.equal(tokenF1(['a', 'a', 'b'], ['a', 'c']), 0.4); // overlap 1: p 1/3, r 1/2
  assert.equal(rougeL(['a', 'b', 'c', 'd'], ['a', 'c', 'd']), (2 * 0.75 * 1) / 1.75); // LCS 3
  assert.deepEqual(scoreAnswer('', 'anything'), { tokenF1: 0, rougeL: 0 });
});

test('fidelity self-check: null with few Q/A pairs, scores in [0, 1] with many', () => {
  assert.equal(fidelityCheck(bankOf(sampleInterview().slice(0, 10))), null);
  const f = fidelityCheck(bankOf(longInterview(3000)));
  assert.ok(f && f.pairs >= 8 && f.heldOut > 0);
  for (const k of ['tokenF1', 'rougeL', 'baselineF1'] as const) assert.ok(f[k] >= 0 && f[k] <= 1);
  assert.deepEqual(fidelityCheck(bankOf(longInterview(3000))), f);
});
