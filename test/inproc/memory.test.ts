import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Utterance } from '../../src/ingest/transcript.ts';
import type { StoredMemory } from '../../src/memory/types.ts';
import { splitSentences, isFiller } from '../../src/memory/sentences.ts';
import { choosePerson } from '../../src/memory/speakers.ts';
import { buildMemoryBank, questionContext } from '../../src/memory/build.ts';
import { Bm25Index } from '../../src/memory/bm25.ts';

const qa: Utterance[] = [
  { speaker: 'Q', text: 'Thanks for joining. How do you approach testing?', start: 0, end: 4 },
  { speaker: 'A', text: 'Yeah. I always write the tests before the code. It keeps me honest.', start: 4, end: 10 },
  { speaker: 'Q', text: 'Mm-hmm.', start: 10, end: 11 },
  { speaker: 'A', text: 'And I never merge without a review from a teammate.', start: 11, end: 15 },
  { speaker: 'Q', text: 'What about deadlines? Do they change that?', start: 15, end: 18 },
  { speaker: 'A', text: 'No. Deadlines never justify skipping tests in my book.', start: 18, end: 22 },
];

test('splitSentences drops pure fillers and keeps the content', () => {
  assert.deepEqual(splitSentences('Yeah. Mm-hmm. I always test my code before shipping. Right.'), [
    'I always test my code before shipping.',
  ]);
  assert.deepEqual(splitSentences('Yeah.'), []);
  assert.deepEqual(splitSentences('   '), []);
  assert.equal(isFiller('Mm-hmm, right.'), true);
  assert.equal(isFiller('Yeah, I think so.'), false);
});

test('splitSentences attaches short fragments to a neighbour', () => {
  assert.deepEqual(splitSentences('No. I never deploy on Fridays. It is risky.'), [
    'No. I never deploy on Fridays.',
    'It is risky.',
  ]);
  assert.deepEqual(splitSentences('I love hiking in the hills. So much.'), ['I love hiking in the hills. So much.']);
  assert.deepEqual(splitSentences('Not really.'), ['Not really.']);
  assert.deepEqual(splitSentences('No.'), []);
});

test('splitSentences cuts overlong unpunctuated runs into chunks', () => {
  const run = Array.from({ length: 150 }, (_, i) => `word${i}`).join(' ');
  const pieces = splitSentences(run);
  assert.ok(pieces.length >= 3);
  for (const p of pieces) assert.ok(p.split(' ').length <= 60);
  assert.equal(pieces.join(' '), run);
});

test('choosePerson: answer-side role labels win over interviewer labels', () => {
  assert.equal(choosePerson(qa, 'Somebody Else'), 'A');
  const roles: Utterance[] = [
    { speaker: 'Interviewer', text: 'Tell me about your work at length, please, I want to hear everything about it.' },
    { speaker: 'Respondent', text: 'I build bridges.' },
  ];
  assert.equal(choosePerson(roles, 'Somebody'), 'Respondent');
});

test('choosePerson: without role labels, the one who answers wins', () => {
  const talk: Utterance[] = [
    { speaker: 'Tim', text: 'So what do you do all day?' },
    { speaker: 'Jo', text: 'Mostly I write, and then I record podcasts in the afternoon, and I walk the dog.' },
    { speaker: 'Tim', text: 'Why podcasts?' },
    { speaker: 'Jo', text: 'Because talking to people about technology is the most fun part of my job.' },
  ];
  assert.equal(choosePerson(talk, 'Someone'), 'Jo');
});

test('choosePerson: the mind name matches a label by full name or a name token', () => {
  const talk: Utterance[] = [
    { speaker: 'Tim Smith', text: 'Welcome to the show. How is your day going so far, would you say?' },
    { speaker: 'Jason Snell', text: 'Fine.' },
  ];
  assert.equal(choosePerson(talk, 'Jason Snell'), 'Jason Snell');
  assert.equal(choosePerson(talk, 'jason'), 'Jason Snell');
  assert.equal(choosePerson(talk, 'Dr. Snell'), 'Jason Snell');
  assert.equal(choosePerson(talk, 'Tim Smith'), 'Tim Smith'); // the name beats the answering heuristic
});

test('choosePerson: an explicit speaker wins, matched case/whitespace-insensitively', () => {
  assert.equal(choosePerson(qa, 'A', '  q '), 'Q');
  const talk: Utterance[] = [
    { speaker: 'Tim Smith', text: 'Hello?' },
    { speaker: 'Jason Snell', text: 'Hi there, thanks for having me.' },
  ];
  assert.equal(choosePerson(talk, 'Tim Smith', 'jason   SNELL'), 'Jason Snell');
  assert.equal(choosePerson(talk, 'Tim Smith', 'Jason'), 'Jason Snell');
  // No label matches: kept as given, so it yields no memories instead of someone else's words.
  assert.equal(choosePerson(talk, 'Tim Smith', 'Nobody Here'), 'Nobody Here');
  assert.deepEqual(buildMemoryBank({ utterances: talk, mindName: 'Tim Smith', speaker: 'Nobody Here' }).memories, []);
});

test('unlabelled monologue: person is null and all the text is theirs', () => {
  const mono: Utterance[] = [
    { speaker: null, text: 'I grew up by the sea. Every summer I sailed with my father.', page: 1 },
    { speaker: null, text: 'Later I moved to the city to study engineering.', page: 2 },
  ];
  assert.equal(choosePerson(mono, 'Ann', 'Ann'), null);
  const bank = buildMemoryBank({ utterances: mono, mindName: 'Ann' });
  assert.equal(bank.person, null);
  assert.deepEqual(
    bank.memories.map((m) => [m.seq, m.text, m.page, m.question, m.speaker]),
    [
      [0, 'I grew up by the sea.', 1, null, null],
      [1, 'Every summer I sailed with my father.', 1, null, null],
      [2, 'Later I moved to the city to study engineering.', 2, null, null],
    ],
  );
});

test("buildMemoryBank: the interviewer's words are never memories", () => {
  const bank = buildMemoryBank({ utterances: qa, mindName: 'Somebody' });
  assert.equal(bank.person, 'A');
  const interviewer = qa.filter((u) => u.speaker === 'Q').map((u) => u.text);
  for (const m of bank.memories) {
    assert.equal(m.speaker, 'A');
    for (const q of interviewer) for (const s of splitSentences(q)) assert.ok(!m.text.includes(s), m.text);
  }
  assert.deepEqual(
    bank.memories.map((m) => m.seq),
    bank.memories.map((_, i) => i),
  );
});

test('buildMemoryBank: each memory carries the question it answered and its timing', () => {
  const bank = buildMemoryBank({ utterances: qa, mindName: 'Somebody' });
  const byText = new Map(bank.memories.map((m) => [m.text, m]));
  const first = byText.get('I always write the tests before the code.');
  assert.equal(first?.question, 'Thanks for joining. How do you approach testing?');
  assert.deepEqual([first?.start, first?.end, first?.page], [4, 10, null]);
  // A backchannel ("Mm-hmm.") does not replace the question being answered.
  assert.equal(byText.get('And I never merge without a review from a teammate.')?.question, first?.question);
  assert.equal(
    byText.get('No. Deadlines never justify skipping tests in my book.')?.question,
    'What about deadlines? Do they change that?',
  );
  assert.deepEqual(buildMemoryBank({ utterances: qa, mindName: 'Somebody' }), bank); // deterministic
});

test('buildMemoryBank: unlabelled paragraphs continue the previous speaker', () => {
  const doc: Utterance[] = [
    { speaker: null, text: 'Transcript of an interview recorded in May.' },
    { speaker: 'Interviewer', text: 'Where did you grow up?' },
    { speaker: 'Maria Lopez', text: 'I grew up in Seville with my two brothers.' },
    { speaker: null, text: 'We moved to Madrid when I was twelve years old.' },
  ];
  const bank = buildMemoryBank({ utterances: doc, mindName: 'Maria' });
  assert.deepEqual(
    bank.memories.map((m) => [m.text, m.speaker, m.question]),
    [
      ['I grew up in Seville with my two brothers.', 'Maria Lopez', 'Where did you grow up?'],
      ['We moved to Madrid when I was twelve years old.', 'Maria Lopez', 'Where did you grow up?'],
    ],
  );
});

test('questionContext keeps the tail of a long turn, ending at its last question', () => {
  const preamble = 'That is a fascinating story about the early days of the company and everything that happened. '.repeat(5);
  const q = questionContext(`${preamble}How did you decide to leave? Take your time.`);
  assert.ok(q !== null && q.length <= 300);
  assert.ok(q.endsWith('How did you decide to leave?'));
  assert.equal(questionContext('Mm-hmm. Right.'), null);
});

function stored(texts: Array<[string, string | null]>, snapshotId = 's1'): StoredMemory[] {
  return texts.map(([text, question], seq) => ({ seq, text, question, speaker: 'A', start: null, end: null, page: null, snapshotId }));
}

test('Bm25Index: ranks by relevance, uses the question field, scores in [0, 1]', () => {
  const index = Bm25Index.build(
    stored([
      ['I always write the tests before the code.', 'How do you approach testing?'],
      ['My dog loves long walks in the park.', 'Any pets?'],
      ['Absolutely, every single time.', 'Do you review every pull request?'],
    ]),
  );
  const [top] = index.search('writing tests', 3);
  assert.equal(top?.memory.text, 'I always write the tests before the code.');
  assert.ok(top !== undefined && top.score > 0.5 && top.score <= 1);
  assert.equal(index.search('pull request review', 3)[0]?.memory.seq, 2); // found through its question
  assert.deepEqual(index.search('quantum chromodynamics', 3), []);
  assert.deepEqual(index.search('tests', 0), []);
});

test('Bm25Index: ties order by snapshotId then seq; works with one memory', () => {
  const same = 'I enjoy sailing on the lake.';
  const index = Bm25Index.build([...stored([[same, null], [same, null]], 'b'), ...stored([[same, null]], 'a')]);
  const hits = index.search('sailing', 5);
  assert.deepEqual(
    hits.map((h) => [h.memory.snapshotId, h.memory.seq]),
    [['a', 0], ['b', 0], ['b', 1]],
  );
  assert.equal(Bm25Index.build(stored([[same, null]])).search('lake', 1).length, 1);
});
