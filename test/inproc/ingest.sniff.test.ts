import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTranscript, sniffFileKind } from '../../src/ingest/index.ts';
import { zipEntries } from '../../src/ingest/sniff.ts';
import { IngestError } from '../../src/ingest/transcript.ts';
import { makeDocx, makePdf, sampleInterview, teamsVtt } from '../support/fixtures.ts';

/** Deterministic bytes for fuzzing (LCG), so failures reproduce. */
function randomBytes(seed: number, length: number): Buffer {
  const out = Buffer.alloc(length);
  let state = seed >>> 0;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out[i] = state >>> 24;
  }
  return out;
}

const b = (text: string) => Buffer.from(text, 'utf8');

/** Rename every occurrence of a (same-length) file name in a zip's headers. */
function renameZipEntry(zip: Buffer, from: string, to: string): Buffer {
  assert.equal(from.length, to.length);
  const out = Buffer.from(zip);
  for (let at = out.indexOf(from); at >= 0; at = out.indexOf(from, at + 1)) out.write(to, at, 'latin1');
  return out;
}

describe('sniffFileKind', () => {
  it('recognises PDF by its header, tolerating up to 1024 bytes of leading junk', () => {
    assert.equal(sniffFileKind(b('%PDF-1.7\n%âãÏÓ\n')), 'pdf');
    assert.equal(sniffFileKind(Buffer.concat([Buffer.alloc(1024, 0x20), b('%PDF-1.4')])), 'pdf');
    assert.equal(sniffFileKind(Buffer.concat([Buffer.alloc(1025, 0x20), b('%PDF-1.4')])), null);
    assert.equal(sniffFileKind(b('%PDF')), null);
  });

  it('recognises WEBVTT with optional BOM followed by space, tab, newline or end of file', () => {
    for (const text of ['WEBVTT', 'WEBVTT\n', 'WEBVTT\r\n', 'WEBVTT\r', 'WEBVTT - Title', 'WEBVTT\tx', '\uFEFFWEBVTT\n\n']) {
      assert.equal(sniffFileKind(b(text)), 'vtt', JSON.stringify(text));
    }
    for (const text of ['WEBVTTX', 'webvtt\n', 'WEBVT', ' WEBVTT', '\uFEFF', '1\n00:00:01.000 --> 00:00:02.000\nhi']) {
      assert.equal(sniffFileKind(b(text)), null, JSON.stringify(text));
    }
  });

  it('recognises DOCX from the zip central directory, whatever the declared type', async () => {
    const docx = await makeDocx(sampleInterview());
    assert.equal(sniffFileKind(docx), 'docx');
    assert.ok(zipEntries(docx)?.some((e) => e.name === 'word/document.xml'));
    // A trailing zip comment moves the end-of-central-directory record.
    const withComment = Buffer.from(docx);
    withComment.writeUInt16LE(5, withComment.length - 2);
    assert.equal(sniffFileKind(Buffer.concat([withComment, b('hello')])), 'docx');
  });

  it('rejects a zip without word/document.xml (e.g. another OOXML or plain archive)', async () => {
    const docx = await makeDocx(sampleInterview());
    const renamed = renameZipEntry(docx, 'word/document.xml', 'word/documenX.xml');
    assert.equal(sniffFileKind(renamed), null);
    assert.equal(sniffFileKind(b('PK\x03\x04 not really a zip')), null);
    assert.equal(sniffFileKind(b('PK\x05\x06' + '\0'.repeat(18))), null);
  });

  it('never throws on truncated or corrupted zips', async () => {
    const docx = await makeDocx(sampleInterview());
    for (let cut = 0; cut <= docx.length; cut += 37) {
      const kind = sniffFileKind(docx.subarray(0, cut));
      assert.ok(kind === null || kind === 'docx');
    }
    for (let seed = 1; seed <= 200; seed++) {
      const damaged = Buffer.from(docx);
      const noise = randomBytes(seed, 24);
      noise.copy(damaged, (seed * 97) % (docx.length - 24));
      const kind = sniffFileKind(damaged);
      assert.ok(kind === null || kind === 'docx');
    }
  });

  it('never throws on random bytes, with or without a plausible magic prefix', () => {
    const prefixes = ['', 'PK\x03\x04', '%PDF-', 'WEBVTT\n', '\uFEFF'];
    for (let seed = 1; seed <= 2000; seed++) {
      const prefix = b(prefixes[seed % prefixes.length] ?? '');
      const bytes = Buffer.concat([prefix, randomBytes(seed, seed % 300)]);
      const kind = sniffFileKind(bytes);
      assert.ok(kind === null || ['vtt', 'docx', 'pdf'].includes(kind));
    }
    assert.equal(sniffFileKind(Buffer.alloc(0)), null);
  });

  it('agrees with the generated fixtures', async () => {
    const turns = sampleInterview();
    assert.equal(sniffFileKind(b(teamsVtt(turns))), 'vtt');
    assert.equal(sniffFileKind(await makePdf(turns)), 'pdf');
  });
});

describe('parseTranscript dispatch', () => {
  it('rejects unknown bytes as unsupported_file_type', async () => {
    for (const bytes of [Buffer.alloc(0), b('hello world'), b('{"json": true}'), randomBytes(7, 4096)]) {
      await assert.rejects(parseTranscript(bytes), (err: unknown) => {
        assert.ok(err instanceof IngestError);
        assert.equal(err.code, 'unsupported_file_type');
        assert.match(err.message, /not a VTT, DOCX or PDF/);
        return true;
      });
    }
  });

  it('rejects random payloads behind each magic prefix with an IngestError, never anything else', { timeout: 60_000 }, async () => {
    const prefixes = ['WEBVTT\n\n', '%PDF-1.4\n', 'PK\x03\x04'];
    for (let seed = 1; seed <= 60; seed++) {
      const bytes = Buffer.concat([b(prefixes[seed % 3] ?? ''), randomBytes(seed, 50 + seed * 40)]);
      try {
        const transcript = await parseTranscript(bytes);
        assert.ok(transcript.utterances.every((u) => u.text.trim() !== ''));
      } catch (err) {
        assert.ok(err instanceof IngestError, `seed ${seed}: ${String(err)}`);
      }
    }
  });
});
