import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTranscript } from '../../src/ingest/index.ts';
import { MAX_RUN_CHARS, MAX_TRANSCRIPT_TOKENS, MAX_WORD_CHARS, TextGate } from '../../src/ingest/limits.ts';
import { sniffFileKind, vttEncoding } from '../../src/ingest/sniff.ts';
import { IngestError } from '../../src/ingest/transcript.ts';
import { sampleInterview, teamsVtt } from '../../testkit/fixtures.ts';

const utf16 = (text: string, bigEndian: boolean) => {
  const le = Buffer.from(text, 'utf16le');
  return bigEndian ? le.swap16() : le;
};

describe('TextGate.readable: what reaches the NLP', () => {
  const gate = () => new TextGate('vtt');

  it('leaves ordinary text alone, drops control characters (NUL included) but keeps tabs and line breaks', () => {
    const text = 'I always run first.\tThen coffee, two cups — never decaf! 👩‍👩‍👧 café';
    assert.equal(gate().readable(text), text);
    assert.equal(gate().readable('ru\u0000n\u0007 fast\r\n'), 'run fast\r\n');
  });

  it('breaks a long run after its punctuation, cuts what is still too long, skips what is not words', () => {
    assert.equal(gate().readable(`${'word,'.repeat(20)}end`), `${'word, '.repeat(20)}end`);
    const cut = gate().readable('a'.repeat(MAX_WORD_CHARS * 2 + 5)).split(' ');
    assert.deepEqual(cut.map((p) => p.length), [MAX_WORD_CHARS, MAX_WORD_CHARS, 5]);
    const g = gate();
    assert.equal(g.readable(`before ${'x'.repeat(MAX_RUN_CHARS + 1)} after`), 'before  after');
    assert.equal(g.skippedRuns, 1);
    assert.equal(g.longestSkipped, MAX_RUN_CHARS + 1);
  });

  it('never cuts a letter from its combining marks, nor a surrogate pair', () => {
    const zalgo = 'e\u0301\u0302\u0303'.repeat(40); // 160 code units, no spaces
    for (const piece of gate().readable(zalgo).split(' ')) {
      assert.ok(piece.length <= MAX_WORD_CHARS);
      assert.match(piece, /^e/);
    }
    for (const piece of gate().readable('😀'.repeat(100)).split(' ')) assert.ok(piece.length % 2 === 0 && !piece.includes('\ufffd'));
  });

  it('survives a run of millions of characters (no regular-expression stack overflow)', () => {
    const g = gate();
    assert.equal(g.readable('z'.repeat(20_000_000)), '');
    assert.equal(g.longestSkipped, 20_000_000);
  });

  it('counts words and punctuation against the budget and stops at once past it', () => {
    const g = new TextGate('docx', 10);
    g.count('One, two three.'); // 5
    assert.throws(() => g.count('four five six seven eight nine'), (err: unknown) => err instanceof IngestError && err.code === 'transcript_too_long');
    assert.equal(new TextGate('vtt').remaining, MAX_TRANSCRIPT_TOKENS);
  });
});

describe('VTT encodings', () => {
  it('recognises UTF-16 (either byte order, with or without a BOM) and UTF-8 with a BOM', () => {
    assert.equal(vttEncoding(utf16('\ufeffWEBVTT\n', false)), 'utf-16le');
    assert.equal(vttEncoding(utf16('\ufeffWEBVTT\n', true)), 'utf-16be');
    assert.equal(vttEncoding(utf16('WEBVTT\n', false)), 'utf-16le');
    assert.equal(vttEncoding(utf16('WEBVTT', true)), 'utf-16be');
    assert.equal(vttEncoding(Buffer.from('\ufeffWEBVTT\n')), 'utf-8');
    assert.equal(vttEncoding(utf16('WEBVTTX', false)), null);
    assert.equal(sniffFileKind(utf16('\ufeffWEBVTT\r\n', false)), 'vtt');
  });

  it('reads a UTF-16 file as the same transcript as its UTF-8 original', async () => {
    const vtt = teamsVtt(sampleInterview());
    const expected = (await parseTranscript(Buffer.from(vtt))).utterances;
    assert.deepEqual((await parseTranscript(utf16(`\ufeff${vtt}`, false))).utterances, expected);
    assert.deepEqual((await parseTranscript(utf16(`\ufeff${vtt}`, true))).utterances, expected);
  });
});
