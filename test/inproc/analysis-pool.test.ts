import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { AnalysisPool } from '../../src/jobs/analysis-pool.ts';
import { makePdf, sampleInterview, teamsVtt } from '../../testkit/fixtures.ts';

const pool = new AnalysisPool({ threads: 1, timeoutMs: 60_000, maxMemoryMb: 512 });
after(() => pool.close());

const bytes = (b: Buffer | string) => new Uint8Array(Buffer.from(b));

describe('analysis in a worker thread', () => {
  it('builds the memory bank of the person from a transcript', async () => {
    const r = await pool.analyse({ bytes: bytes(teamsVtt(sampleInterview())), mindName: 'Sam Okafor', speaker: null });
    assert.equal(r.ok, true);
    if (!r.ok) return;
    assert.equal(r.format, 'vtt');
    assert.equal(r.person, 'Sam Okafor');
    assert.ok(r.memories.length > 10);
    assert.ok(r.memories.every((m) => m.speaker === 'Sam Okafor'));
  });

  it('reports unreadable files as a permanent failure with a reason', async () => {
    const r = await pool.analyse({ bytes: bytes('%PDF-1.7\nthis is not a pdf body at all'), mindName: 'x', speaker: null });
    assert.deepEqual(r.ok, false);
    if (r.ok) return;
    assert.equal(r.code, 'corrupt_file');
    const none = await pool.analyse({ bytes: bytes('hello'), mindName: 'x', speaker: null });
    assert.equal(none.ok ? '' : none.code, 'unsupported_file_type');
  });

  it('a speaker that says nothing ends empty_transcript', async () => {
    const r = await pool.analyse({ bytes: bytes(teamsVtt(sampleInterview())), mindName: 'x', speaker: 'Nobody Here' });
    assert.equal(r.ok ? '' : r.code, 'empty_transcript');
  });

  it('stops a thread stuck past the time limit or over the memory limit, and keeps serving', async () => {
    const threadErrors: unknown[] = [];
    const runaway = (timeoutMs: number) =>
      new AnalysisPool(
        { threads: 1, timeoutMs, maxMemoryMb: 32, moduleUrl: new URL('../support/runaway-analysis.ts', import.meta.url).href },
        (err) => threadErrors.push(err),
      );
    const task = (mindName: string) => ({ bytes: bytes('WEBVTT'), mindName, speaker: null });
    const hurried = runaway(1500);
    const patient = runaway(60_000);
    try {
      const spun = await hurried.analyse(task('spin'));
      assert.equal(spun.ok ? '' : spun.code, 'processing_timeout');
      const hogged = await patient.analyse(task('hog'));
      assert.equal(hogged.ok ? '' : hogged.code, 'file_too_complex');
      const fine = await patient.analyse(task('fine'));
      assert.equal(fine.ok ? '' : fine.code, 'answered');
    } finally {
      await Promise.all([hurried.close(), patient.close()]);
    }
  });

  it('reads PDFs in the thread (the PDF library never loads in the API thread)', async () => {
    const pdf = await pool.analyse({ bytes: new Uint8Array(await makePdf(sampleInterview(), { qa: true })), mindName: 'Sam Okafor', speaker: null });
    assert.equal(pdf.ok, true);
    assert.equal(pdf.ok && pdf.format, 'pdf');
  });
});
