/**
 * Typed answers of the offline engine (panels) on real interviews: minds built from transcripts of
 * ../shared/data/interviews/changelog (next to the repository, as `npm run eval` reads them; the
 * suite is skipped without that folder), each question type answered from what the guest said,
 * no_evidence for what they never talk about, options never invented, deterministic.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { GroundedEngine } from '../../src/engines/grounded.ts';
import type { Question, TypedAnswer } from '../../src/engines/questions.ts';
import { MindMemory } from '../../src/memory/mind-memory.ts';
import { statedNumbers } from '../../src/memory/numbers.ts';
import { clausesOf, negationCount } from '../../src/memory/stance.ts';
import { yesNoAnchors } from '../../src/engines/grounded-yes-no.ts';
import { embeddedMind, testSearcher } from '../../testkit/minds.ts';
import { sampleInterview } from '../../testkit/fixtures.ts';
import { interviewsDir, readInterviews } from '../../eval/interviews.ts';
import { contradiction } from '../../eval/panels/contradiction.ts';

const DIR = interviewsDir();
const present = fs.existsSync(path.join(DIR, 'away-from-keyboard-5.md')) && fs.existsSync(path.join(DIR, 'away-from-keyboard-8.md'));

function mindOf(file: string): Promise<MindMemory> {
  const interview = readInterviews(DIR).find((i) => i.file === file);
  if (!interview) throw new Error(`no ${file}`);
  return embeddedMind(interview.turns, interview.guest, file, interview.guest);
}

const engine = new GroundedEngine(testSearcher());
const ask = (mind: MindMemory, question: Question): Promise<TypedAnswer> => engine.answerQuestion({ mindName: 'x', memory: mind, question });

const L5 = { min: 1, max: 5, labels: ['not at all', 'a little', 'somewhat', 'quite a lot', 'very much'] };
const OFF_TOPIC: Question[] = [
  { id: 'football', text: 'Which football team do you support?', type: 'single', options: ['Arsenal', 'Chelsea', 'Liverpool', 'Real Madrid'] },
  { id: 'opera', text: 'Who is your favourite opera composer?', type: 'single', options: ['Verdi', 'Puccini', 'Wagner'] },
  { id: 'chess', text: 'Which chess opening do you play most?', type: 'single', options: ['Sicilian Defence', "Queen's Gambit", 'Ruy Lopez'] },
  { id: 'cats', text: 'How many cats do you own?', type: 'number' },
  { id: 'cuisine', text: 'Which of these cuisines do you cook at home?', type: 'multiple', options: ['Thai', 'Mexican', 'Ethiopian', 'Korean'] },
];

function assertNoEvidence(a: TypedAnswer, what: string): void {
  assert.equal(a.status, 'no_evidence', `${what}: ${JSON.stringify(a.choices)} ${a.value}`);
  assert.deepEqual([a.choices, a.value, a.evidence], [[], null, []], what);
  assert.ok(a.saying.length > 0, what);
}

/** The words of a saying are the person's: each sentence of it is (tidied) one of their memories. */
function ownWords(mind: MindMemory, a: TypedAnswer): void {
  const all = mind.memories.map((m) => m.text.toLowerCase()).join(' ');
  for (const e of a.evidence) assert.ok(all.includes(e.text.split(' ').slice(0, 6).join(' ').toLowerCase()), 'evidence is their text');
  assert.ok(a.saying.length > 0);
}

describe('typed answers from a real interview', { skip: present ? false : `no transcripts at ${DIR}` }, () => {
  let justin: MindMemory;
  let eryn: MindMemory;
  before(async () => {
    [justin, eryn] = await Promise.all([mindOf('away-from-keyboard-5.md'), mindOf('away-from-keyboard-8.md')]);
  });

  it('single: the option their words support (Justin Dorfman: "I have bipolar 1 disorder")', async () => {
    const q: Question = { id: 'q', text: 'Which condition do you live with?', type: 'single', options: ['diabetes', 'bipolar disorder', 'asthma'] };
    const a = await ask(justin, q);
    assert.equal(a.status, 'answered');
    assert.deepEqual(a.choices, ['bipolar disorder']);
    assert.equal(a.value, null);
    assert.ok(a.confidence > 0 && a.confidence <= 1);
    assert.match(a.evidence.map((e) => e.text).join(' '), /bipolar/);
    ownWords(justin, a);
  });

  it('multiple: every option supported, none invented ("I love single malt scotch and Rusty Nails and craft beers")', async () => {
    const q: Question = { id: 'q', text: 'Which drinks did you love?', type: 'multiple', options: ['single malt scotch', 'craft beers', 'red wine', 'soda'] };
    const a = await ask(justin, q);
    assert.equal(a.status, 'answered');
    assert.deepEqual(a.choices, ['single malt scotch', 'craft beers']);
  });

  it('number: a number they state, in words ("I\'ve been sober for four years")', async () => {
    const a = await ask(justin, { id: 'q', text: 'How many years have you been sober?', type: 'number' });
    assert.deepEqual([a.status, a.value], ['answered', 4]);
    assert.match(a.saying, /sober/);
    // Out of the bounds given, the stated number is no answer.
    assertNoEvidence(await ask(justin, { id: 'q', text: 'How many years have you been sober?', type: 'number', scale: { min: 10, max: 50 } }), 'bounds');
  });

  it('likert: the stance of their words on the scale (Eryn O\'Neil on primary source research: "I love it")', async () => {
    const a = await ask(eryn, { id: 'q', text: 'How much do you love primary source research?', type: 'likert', scale: L5 });
    assert.equal(a.status, 'answered');
    assert.ok(a.value !== null && a.value >= 4, `value ${a.value}`);
    // The same stance on a scale whose labels run the other way lands at the other end.
    const reversed = await ask(eryn, { id: 'q', text: 'How much do you love primary source research?', type: 'likert', scale: { ...L5, labels: [...L5.labels].reverse() } });
    assert.ok(reversed.value !== null && reversed.value <= 2, `reversed ${reversed.value}`);
  });

  it('single on a city, and open: their own words', async () => {
    const city = await ask(eryn, { id: 'q', text: 'Which city do you love, having grown up there?', type: 'single', options: ['Boston', 'Chicago', 'New York'] });
    assert.deepEqual(city.choices, ['Chicago']);
    const open = await ask(justin, { id: 'q', text: 'Why did you stop drinking?', type: 'open' });
    assert.equal(open.status, 'answered');
    assert.deepEqual([open.choices, open.value], [[], null]);
    ownWords(justin, open);
  });

  it('no_evidence for subjects they never talk about, on every question type', async () => {
    for (const mind of [justin, eryn]) {
      for (const q of OFF_TOPIC) assertNoEvidence(await ask(mind, q), `${mind.key}: ${q.text}`);
      assertNoEvidence(await ask(mind, { id: 'q', text: 'How much do you enjoy playing the bagpipes?', type: 'likert', scale: L5 }), 'bagpipes');
    }
  });

  it('choices are always options of the question, verbatim; values on the scale; deterministic', async () => {
    const questions: Question[] = [
      ...OFF_TOPIC,
      { id: 'a', text: 'How do you feel about going to the hospital?', type: 'single', options: ['Relieved', 'Scared', 'Indifferent'] },
      { id: 'b', text: 'What do you drink now?', type: 'multiple', options: ['Water', 'Coffee', 'Beer', 'Tea'] },
      { id: 'c', text: 'Where do you live now?', type: 'single', options: ['a small town', 'a big city'] },
      { id: 'd', text: 'How much do you like your town?', type: 'likert', scale: { min: 0, max: 10 } },
    ];
    for (const mind of [justin, eryn]) {
      for (const q of questions) {
        const a = await ask(mind, q);
        for (const c of a.choices) assert.ok(q.options?.includes(c), `${c} is an option of ${q.text}`);
        if (q.type === 'single' && a.status === 'answered') assert.equal(a.choices.length, 1);
        if (q.type === 'likert' && a.value !== null) assert.ok(Number.isInteger(a.value) && a.value >= (q.scale?.min ?? 0) && a.value <= (q.scale?.max ?? 0));
        assert.deepEqual(await ask(mind, q), a, 'same question, same answer');
      }
    }
  });
});

describe('typed answers agree with the passage they quote (docs/examples/interview.vtt, Sam Okafor)', () => {
  let sam: MindMemory;
  const yesNo = (text: string): Question => ({ id: 'q', text, type: 'single', options: ['Yes', 'No'] });
  before(async () => {
    sam = await embeddedMind(sampleInterview(), 'Sam Okafor');
  });

  it('yes: a negation in another clause of the sentence is not a no ("I don\'t care much about which university…, and two of the best engineers I\'ve worked with were self-taught")', async () => {
    const q = yesNo('Would you hire a self-taught engineer?');
    const a = await ask(sam, q);
    assert.deepEqual([a.status, a.choices], ['answered', ['Yes']]);
    assert.match(a.saying, /self-taught/);
    assert.equal(contradiction(q, a), 'agrees');
    // The same passage quoted for a "No" is what the evaluation's checker counts as a contradiction.
    assert.equal(contradiction(q, { ...a, choices: ['No'] }), 'contradicts');
  });

  it('no: a negation in the clause that says the subject ("I never take meetings after five"), and one against the question\'s own ("…without a test")', async () => {
    for (const text of ['Do you take meetings after five?', 'Do you drink decaf?', 'Do you merge pull requests without a test?']) {
      const a = await ask(sam, yesNo(text));
      assert.deepEqual([a.status, a.choices], ['answered', ['No']], text);
      assert.notEqual(contradiction(yesNo(text), a), 'contradicts', text);
    }
    const again = await ask(sam, yesNo('Would you make the same choice again and join a startup?'));
    assert.deepEqual(again.choices, ['Yes']);
  });

  it('likert: the clause about the subject, and a quote on the side of the answer ("I think pod machines are a waste of good coffee")', async () => {
    const q: Question = { id: 'q', text: 'How much do you like pod coffee machines?', type: 'likert', scale: L5 };
    const a = await ask(sam, q);
    assert.equal(a.status, 'answered');
    assert.ok(a.value !== null && a.value <= 2, `value ${a.value}`);
    assert.match(a.saying, /pod machines are a waste/);
    assert.notEqual(contradiction(q, a), 'contradicts');
  });

  it('reading a sentence: clauses, negations, anchors', () => {
    assert.deepEqual(clausesOf("I don't care much about which university someone went to, and two of the best engineers I've worked with were self-taught."), [
      "I don't care much about which university someone went to",
      "two of the best engineers I've worked with were self-taught.",
    ]);
    assert.deepEqual(clausesOf('I never, ever check email before my run.'), ['I never, ever check email before my run.']);
    assert.deepEqual(
      ['I never merge a pull request without a test.', 'Remote, without question.', "No doubt, I don't."].map(negationCount),
      [2, 0, 1],
    );
    assert.deepEqual(yesNoAnchors('Would you hire a self-taught engineer for your team?'), ['Yes, I would hire a self-taught engineer for my team.', 'No, I would not hire a self-taught engineer for my team.']);
  });
});

describe('stated numbers', () => {
  it('digits, words, scales and units', async () => {
    const found = statedNumbers('It took two years, twenty-five people, $2 million, 10k users, 9,000 people and 17% of salary; one of them left.');
    assert.deepEqual(
      found.map((n) => [n.value, n.after[0] ?? '', n.money]),
      [
        [2, 'years', false],
        [25, 'people', false],
        [2_000_000, '', true],
        [10_000, 'users', false],
        [9000, 'people', false],
        [17, 'percent', false],
      ],
    );
  });
});
