/** `npm run eval` on two tiny generated interviews in the Changelog Markdown format. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { parseTurns } from '../eval/interviews.ts';
import { paraphrase } from '../eval/paraphrase.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);

const TOPICS = ['coffee', 'running', 'hiring', 'open source', 'remote work', 'burnout', 'startups', 'mentoring', 'testing', 'meetings', 'books', 'travel'];

/** An interview: the host asks twice about each topic, the guest answers in two or three sentences. */
function interview(host: string, guest: string, flavour: string): string {
  const paragraphs = [`**${host}:** \\[00:00:05.10\\] Welcome to the show, ${guest}.`, `**${guest}:** Thanks for having me, it is great to be here.`];
  TOPICS.forEach((topic, i) => {
    paragraphs.push(`**${host}:** \\[00:0${i % 10}:1${i % 10}\\] So, you know, when you think about ${topic}, what matters most to you?`);
    paragraphs.push(
      `**${guest}:** For me ${topic} is about ${flavour}. I always try to keep ${topic} simple, because ${flavour} beats cleverness every time. ` +
        `I learned that the hard way with ${topic} at my first job, and I would tell anyone starting out to focus on ${flavour} before anything else.`,
    );
    paragraphs.push(`**${host}:** And how did you get into ${topic}?`);
    paragraphs.push(
      `**${guest}:** A friend dragged me into ${topic} years ago. I was sceptical at first, but ${topic} stuck with me because ` +
        `it rewarded ${flavour}, and today ${topic} is a part of every week for me.`,
    );
    if (i === 5) paragraphs.push('**Break:** \\[00:20:00.00\\]');
  });
  return `${paragraphs.join('\n\n')}\n`;
}

test('the Markdown reader and the paraphrase', () => {
  const turns = parseTurns(interview('Hal Host', 'Gia Guest', 'patience'));
  assert.equal(turns[0]?.speaker, 'Hal Host');
  assert.ok(!turns.some((t) => t.speaker === 'Break' || t.text.includes('\\[')));
  assert.equal(paraphrase('So, you know, when you think about coffee, what matters most to you?'), 'What matters most to you when you believe about coffee?');
});

test('npm run eval: a directory argument, --limit, all three formats, a results table', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-eval-'));
  fs.writeFileSync(path.join(dir, 'show-1.md'), interview('Hal Host', 'Gia Guest', 'patience and clear writing'));
  fs.writeFileSync(path.join(dir, 'show-2.md'), interview('Hal Host', 'Ode Other', 'speed and bold experiments'));
  fs.writeFileSync(path.join(dir, 'show-3.md'), interview('Hal Host', 'Not Read', 'anything'));
  const out = path.join(dir, 'EVAL.md');
  await run(process.execPath, ['--import', 'tsx', 'eval/run.ts', dir, '--limit', '2', '--per', '3', '--out', out], { cwd: ROOT, timeout: 90_000 });
  const report = fs.readFileSync(out, 'utf8');
  assert.match(report, /Transcripts: 2 from/);
  for (const format of ['vtt', 'docx', 'pdf']) assert.match(report, new RegExp(`^\\| ${format} \\| 6 \\|`, 'm'));
  assert.match(report, /^\| Gia Guest \(show-1\.md\) \| 9 \|/m);
  assert.match(report, /^\| Ode Other \(show-2\.md\) \| 9 \|/m);
  assert.doesNotMatch(report, /Not Read/);
  const all = /^\| \*\*all\*\* \| 18 \| (\d+) \| ([\d.]+) \|/m.exec(report);
  assert.ok(all, 'an overall row');
  assert.ok(Number(all[1]) < 9, `the engine answers most held-out questions (don't know: ${all[1]})`);
  assert.ok(Number(all[2]) > 0.3, `the engine answers from the guest's own words (F1 ${all[2]})`);
  fs.rmSync(dir, { recursive: true, force: true });
});
