/**
 * The sentence encoder: its weights load from node_modules with the network refused, its vectors
 * are deterministic and unit length, and its tokenizer splits text into the vocabulary's pieces.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { test } from 'node:test';
import { SentencePieceTokenizer } from '../../src/memory/encoder/sentencepiece.ts';
import { ThreadedEncoder } from '../../src/memory/encoder/threaded-encoder.ts';
import { UseLiteEncoder, USE_LITE } from '../../src/memory/encoder/use-lite.ts';
import { dot, quantise, dequantise } from '../../src/memory/vector-math.ts';

test('the encoder loads from node_modules and embeds with every outbound connection refused', async () => {
  const attempts: string[] = [];
  const refuse = (what: string) => () => {
    attempts.push(what);
    throw new Error(`outbound ${what} refused by the test`);
  };
  const saved = { connect: net.Socket.prototype.connect, fetch: globalThis.fetch, http: http.request, https: https.request };
  net.Socket.prototype.connect = refuse('socket') as unknown as typeof net.Socket.prototype.connect;
  globalThis.fetch = refuse('fetch') as unknown as typeof fetch;
  http.request = refuse('http') as unknown as typeof http.request;
  https.request = refuse('https') as unknown as typeof https.request;
  try {
    const encoder = await UseLiteEncoder.load();
    const [v] = await encoder.embed(['Which ice hockey team will win the championship this year?']);
    assert.equal(v?.length, USE_LITE.dimensions);
  } finally {
    net.Socket.prototype.connect = saved.connect;
    globalThis.fetch = saved.fetch;
    http.request = saved.http;
    https.request = saved.https;
  }
  assert.deepEqual(attempts, [], 'no outbound request while loading or embedding');
});

test('embeddings are deterministic, unit length, and independent of the batch they are in', async () => {
  const encoder = await UseLiteEncoder.load();
  const a = 'We hire for curiosity and clear writing.';
  const b = 'How do I change the oil on a diesel tractor?';
  const [a1, b1] = await encoder.embed([a, b]);
  const [b2, c2, a2] = await encoder.embed([b, 'A third, unrelated sentence about gardening in spring.', a]);
  assert.deepEqual(a1, a2);
  assert.deepEqual(b1, b2);
  for (const v of [a1!, b1!, c2!]) assert.ok(Math.abs(dot(v, v) - 1) < 1e-5);
  // Related texts are nearer than unrelated ones.
  const [hiring, tractor] = await encoder.embed(['What do you look for when you recruit engineers?', 'My tractor engine will not start in the cold.']);
  assert.ok(dot(a1!, hiring!) > dot(a1!, tractor!));
});

test('stored (int8) vectors keep their cosines within 1%', async () => {
  const encoder = await UseLiteEncoder.load();
  const vs = await encoder.embed(['Remote work suits me.', 'I work from home most days.', 'Bake the bread at 220 degrees.']);
  const q = quantise(vs, USE_LITE.dimensions);
  assert.equal(q.data.byteLength / vs.length + 4, USE_LITE.dimensions + 4, 'a passage costs its dimensions in bytes plus a scale');
  for (let i = 0; i < vs.length; i++) for (let j = 0; j < vs.length; j++) assert.ok(Math.abs(dot(dequantise(q, i), vs[j]!) - dot(vs[i]!, vs[j]!)) < 0.01);
});

test('the tokenizer takes the most probable split into the vocabulary\'s pieces, unknown characters as one piece', () => {
  const vocab: Array<[string, number]> = [['<unk>', 0], ['<s>', 0], ['</s>', 0], ['x1', 0], ['x2', 0], ['x3', 0], ['▁the', -1], ['▁', -2], ['t', -3], ['h', -3], ['e', -3], ['▁a', -2], ['re', -2], ['a', -3], ['r', -3]];
  const t = new SentencePieceTokenizer(vocab);
  assert.deepEqual(t.encode('the'), [6]);
  assert.deepEqual(t.encode('the are'), [6, 11, 12]);
  assert.deepEqual(t.encode('the ☃☃'), [6, 7, 0], 'a run of unknown characters is one unknown piece');
});

test('in threads of its own (QUERY_ENCODER_THREADS) the encoder gives the same vectors, in the order given, texts of any length mixed', async () => {
  const texts = ['How do you deal with burnout?', 'Coffee.', 'We moved the whole team to a four-day week after the launch, and it changed how people planned their work and their weekends.', 'Coffee.'];
  const inline = await (await UseLiteEncoder.load()).embed(texts);
  const threaded = await ThreadedEncoder.start(2);
  try {
    const [together, alone] = await Promise.all([threaded.embed(texts), Promise.all(texts.map(async (t) => (await threaded.embed([t]))[0] as Float32Array))]);
    for (const [i, v] of inline.entries()) {
      assert.equal(together[i]?.length, USE_LITE.dimensions);
      assert.ok(dot(v, together[i] as Float32Array) > 0.99999, `text ${i} batched`);
      assert.ok(dot(v, alone[i] as Float32Array) > 0.99999, `text ${i} alone`);
    }
  } finally {
    await threaded.close();
  }
});
