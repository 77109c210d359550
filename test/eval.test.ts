/** `npm run eval` on two tiny generated interviews in the Changelog Markdown format, with a generated scenario suite. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { interviewsDir, parseTurns, readInterviews } from '../eval/interviews.ts';
import { loadQuestions, problems } from '../eval/panels/questions.ts';
import { withSection, sectionOf, SECTION } from '../eval/panels/report.ts';
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

/** A scenario file in the eval/scenarios JSON format for one of the interviews above. */
function scenarios(file: string, person: string, prefix: string, passage = 'I always try to keep testing simple'): string {
  return JSON.stringify({
    file,
    person,
    onTopic: [
      { id: `${prefix}-01`, scenario: 'Our QA lead wants a huge test matrix before every release. How would you approach testing?', passages: [passage] },
      { id: `${prefix}-02`, scenario: 'A colleague asks how you ended up going for a run every week. What got you into running?', passages: ['A friend dragged me into running years ago'] },
    ],
    offTopic: [{ id: `${prefix}-x1`, scenario: 'Our village council wants a new tram line to the harbour. Would you vote for it?' }],
  });
}

function fixtures(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-eval-'));
  fs.writeFileSync(path.join(dir, 'show-1.md'), interview('Hal Host', 'Gia Guest', 'patience and clear writing'));
  fs.writeFileSync(path.join(dir, 'show-2.md'), interview('Hal Host', 'Ode Other', 'speed and bold experiments'));
  fs.writeFileSync(path.join(dir, 'show-3.md'), interview('Hal Host', 'Not Read', 'anything'));
  fs.mkdirSync(path.join(dir, 'scenarios'));
  fs.writeFileSync(path.join(dir, 'scenarios', 'show-1.json'), scenarios('show-1.md', 'Gia Guest', 's1'));
  fs.writeFileSync(path.join(dir, 'scenarios', 'show-2.json'), scenarios('show-2.md', 'Ode Other', 's2'));
  return dir;
}

test('the panel questions: every held-out quote is in its transcript, every expected answer allowed', { skip: !fs.existsSync(interviewsDir()) && 'no interviews next to the repository' }, () => {
  const { onTopic, offTopic } = loadQuestions();
  assert.ok(onTopic.length >= 40 && offTopic.length >= 5);
  assert.equal(new Set(onTopic.map((q) => q.id)).size, onTopic.length, 'ids are unique');
  const byFile = new Map(readInterviews(interviewsDir()).map((i) => [i.file, i]));
  assert.deepEqual(onTopic.flatMap((q) => problems(q, byFile)), []);
  for (const type of ['single', 'multiple', 'likert', 'number']) assert.ok(onTopic.some((q) => q.type === type), type);
  // A wrong expected answer or a quote from elsewhere is caught.
  const first = onTopic[0];
  assert.ok(first);
  assert.equal(problems({ ...first, quote: 'words nobody said on the show' }, byFile).length, 1);
  assert.equal(problems({ ...first, type: 'single', options: ['a', 'b'], expected: 'c' }, byFile).length, 1);
});

test("the panels section of EVAL.md is replaced in place and survives the fidelity report's rewrite", () => {
  const report = '# Fidelity evaluation\n\n## Targets\n\nt\n\n## Method\n\nm\n';
  const once = withSection(report, `${SECTION}\n\nfirst\n`);
  assert.equal(sectionOf(once), `${SECTION}\n\nfirst\n`);
  const twice = withSection(once, `${SECTION}\n\nsecond\n`);
  assert.equal(twice.split(SECTION).length, 2);
  assert.match(twice, /second/);
  assert.doesNotMatch(twice, /first/);
  const inMiddle = withSection(report.replace('## Method', `${SECTION}\n\nold\n\n## Method`), `${SECTION}\n\nnew\n`);
  assert.match(inMiddle, /## Targets[\s\S]*new[\s\S]*## Method\n\nm/);
});

test('npm run eval: held-out answers with baselines and discrimination, the scenario suite, all three formats', async () => {
  const dir = fixtures();
  const out = path.join(dir, 'EVAL.md');
  // --no-corpus: the leave-people-out run on ../shared/data/corpus is eval/corpus.ts's, not this fixture's.
  const args = ['--conditions=mindsim-source', 'eval/run.ts', dir, '--limit', '2', '--per', '3', '--scenarios', path.join(dir, 'scenarios'), '--out', out, '--no-corpus'];
  await run(process.execPath, args, { cwd: ROOT, timeout: 120_000 });
  const report = fs.readFileSync(out, 'utf8');
  assert.match(report, /Transcripts: 2 from/);
  assert.match(report, /^## Targets$/m);
  assert.match(report, /^\| held-out content F1 ≥ the typical baseline and discrimination ≥ 0\.75, every format \|.*\| \*\*(not )?met\*\* \|$/m);
  const head = /^\| \| answers \| "don't know" \| engine cF1 \| engine disc \| typical cF1 \| typical disc \| BM25 cF1 \| BM25 disc \| random cF1 \| random disc \| other-person cF1 \| other-person disc \| oracle cF1 \| oracle disc \|$/m;
  assert.match(report, head, 'the held-out table with content F1 and discrimination for the engine and the five baselines');
  for (const format of ['vtt', 'docx', 'pdf']) assert.match(report, new RegExp(`^\\| ${format} \\| 6 \\|`, 'm'));
  assert.match(report, /^\| Gia Guest \(show-1\.md\) \| 9 \|/m);
  assert.match(report, /^\| Ode Other \(show-2\.md\) \| 9 \|/m);
  assert.doesNotMatch(report, /Not Read/);
  // A fixed answer discriminates at exactly 0.5: the typical baseline's column.
  const all = /^\| \*\*all\*\* \| 18 \| (\d+) \| \*\*([\d.]+)\*\* \| \*\*([\d.]+)\*\* \| [\d.]+ \| ([\d.]+) \|/m.exec(report);
  assert.ok(all, 'an overall held-out row');
  assert.equal(all[4], '0.500');
  assert.ok(Number(all[1]) < 9, `the engine answers most held-out questions (don't know: ${all[1]})`);
  const words = /^\| \*\*all\*\* \| ([\d.]+) \| [\d.]+ \| [\d.–]+ \| [\d.]+ \| [\d.]+ \|$/m.exec(report);
  assert.ok(words && Number(words[1]) > 0.3, `the engine answers from the guest's own words (token F1 ${words?.[1]})`);
  assert.match(report, /^\| \| on-topic \| answered \| right passage \| off-topic \| off-topic declined \| AUROC \|$/m);
  for (const format of ['vtt', 'docx', 'pdf']) assert.match(report, new RegExp(`^\\| ${format} \\| 4 \\| [\\d.]+% \\| [\\d.]+% \\| 2 \\| [\\d.]+% \\| [\\d.]+ \\|$`, 'm'));
  assert.match(report, /^\| Gia Guest \(show-1\.md\) \| 6 \| [\d.]+% \|/m);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('npm run eval: a scenario passage that is not in the transcript fails the run', async () => {
  const dir = fixtures();
  fs.writeFileSync(path.join(dir, 'scenarios', 'show-2.json'), scenarios('show-2.md', 'Ode Other', 's2', 'I never said this sentence at all'));
  const args = ['--conditions=mindsim-source', 'eval/run.ts', dir, '--no-heldout', '--scenarios', path.join(dir, 'scenarios'), '--out', path.join(dir, 'EVAL.md'), '--no-corpus'];
  await assert.rejects(run(process.execPath, args, { cwd: ROOT, timeout: 60_000 }), (err: { code?: number; stderr?: string }) => {
    assert.equal(err.code, 1);
    assert.match(err.stderr ?? '', /show-2\.json: s2-01: passage "I never said this sentence at all" is not in any turn of Ode Other in show-2\.md/);
    return true;
  });
  assert.ok(!fs.existsSync(path.join(dir, 'EVAL.md')), 'no report');
  fs.rmSync(dir, { recursive: true, force: true });
});
