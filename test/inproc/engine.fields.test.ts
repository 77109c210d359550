/**
 * The offline engine's four fields as a reader sees them (issue 29): a saying in whole sentences and
 * never a greeting, fields that do not repeat each other, the person's words quoted as they said them,
 * and a talk (one speaker, no questions) answered like an interview.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GroundedEngine, UNKNOWN_SAYING } from '../../src/engines/grounded.ts';
import type { SimulationResult } from '../../src/engines/types.ts';
import type { MindMemory } from '../../src/memory/mind-memory.ts';
import { sayingText } from '../../src/engines/grounded-analysis.ts';
import { composeAnswer } from '../../src/memory/answer/compose.ts';
import { tidy } from '../../src/memory/text/tidy.ts';
import { isGreeting } from '../../src/memory/text/readings.ts';
import { reported } from '../../src/memory/text/reported.ts';
import { embeddedMind, testSearcher } from '../../testkit/minds.ts';
import { checkAnswer, cutSaying, FIELDS, outsideQuotes, sharedShare, SHARED_SHARE } from '../../eval/reader-check.ts';

const searcher = testSearcher();
const engine = new GroundedEngine(searcher);
const ask = (mind: MindMemory, mindName: string, scenario: string) => engine.simulate({ mindName, memory: mind, scenario });

/** A sentence of more than sixty words with commas: the memory build cuts it into pieces at a comma. */
const LONG =
  'If you finished everything on your list by four in the afternoon, and you are sitting there wondering whether you should open ' +
  'the laptop again and start on tomorrow, because the backlog never really ends and there is always one more thing that somebody ' +
  'would like from you, and you feel that little pull of guilt about leaving early, should you try and squeeze in a couple more hours, ' +
  'or should you close the laptop and go outside while it is still light?';

const saron = await embeddedMind(
  [
    { speaker: 'Host', text: 'What do you tell people who feel guilty about stopping work early?' },
    { speaker: 'Saron Yitbarek', text: `People ask me this all the time. ${LONG} Go watch a movie, you've earned it. Tomorrow will still be there.` },
    { speaker: 'Host', text: 'How do you plan a conference?' },
    {
      speaker: 'Saron Yitbarek',
      text:
        "We always book the venue first, because nothing else can be fixed until the date is fixed. I think a conference has to be " +
        "affordable, or it doesn't reach the people it is for. We made the tickets cheap and I'm really proud of that.",
    },
    { speaker: 'Host', text: 'And how do you handle burnout?' },
    {
      speaker: 'Saron Yitbarek',
      text:
        'I burned out badly two years ago, and it was awful. I stopped answering email after six, and I take every Friday afternoon off now. ' +
        'Rest is part of the work, because a tired team ships worse code.',
    },
  ],
  'Saron Yitbarek',
);

/** The fields' quoted spans ("…"). */
const quotedSpans = (text: string): string[] => [...text.matchAll(/"([^"]+)"/g)].map((m) => m[1] ?? '');

/** Quotation marks and apostrophes aside (a quote inside a quote is put in single ones), lower-cased. */
const plain = (text: string): string => text.toLowerCase().replace(/["'“”‘’]/g, '');

/** Whether a quote is the person's words: each of its sentences, tidied, is in their memories' texts (the case of a first letter aside). */
function isTheirs(mind: MindMemory, quote: string): boolean {
  const all = plain(mind.memories.map((m) => m.text).join(' '));
  return quote.split(/(?<=[.!?…])\s+/).every((s) => all.includes(plain(s).replace(/[.…]$/, '')));
}

function assertReadsWell(result: SimulationResult, mind: MindMemory, what: string): void {
  const a = result.analysis;
  assert.notEqual(a.saying, UNKNOWN_SAYING, `${what}: answered`);
  assert.equal(cutSaying(a.saying), null, `${what}: saying cut inside a sentence: ${a.saying}`);
  for (const [i, f] of FIELDS.entries()) {
    for (const g of FIELDS.slice(i + 1)) assert.ok(sharedShare(a[f], a[g]) < SHARED_SHARE, `${what}: ${f} repeats ${g}: ${a[f]} | ${a[g]}`);
  }
  assert.deepEqual(checkAnswer(a, [], result.evidence.map((e) => e.text)).filler, [], `${what}: filler`);
  for (const f of ['thinking', 'feeling', 'acting'] as const) {
    for (const q of quotedSpans(a[f])) assert.ok(isTheirs(mind, q), `${what}: ${f} quotes words they did not say: ${q}`);
    // Outside the quotes, the engine speaks of them in the third person.
    assert.doesNotMatch(outsideQuotes(a[f]), /\b(?:I|me|my|I'm)\b/, `${what}: ${f}: ${a[f]}`);
  }
}

test('saying runs from a sentence start to a sentence end: a long sentence cut into pieces is quoted whole', async () => {
  const r = await ask(saron, 'Saron Yitbarek', 'You finished all your work at 4 PM today. Do you squeeze in a couple more hours or stop for the day?');
  assertReadsWell(r, saron, 'the 4 PM scenario');
  // Which of her passages leads is the ranking's choice; wherever the one that answers it is quoted
  // (the saying or the evidence), its long sentence is whole and its answer follows.
  const quoted = [r.analysis.saying, ...r.evidence.map((e) => e.text)].find((t) => /squeeze in a couple more hours/.test(t));
  assert.ok(quoted, 'the passage that answers it is quoted');
  assert.match(quoted, /squeeze in a couple more hours, or should you close the laptop/);
  assert.match(quoted, /Go watch a movie, you've earned it\./);
  assert.doesNotMatch(r.analysis.saying, /,\s*[.!?]/);
  // The evidence quotes whole sentences too.
  for (const e of r.evidence) assert.match(e.text, /[.!?]["”']?$/, e.text);
});

test('a sentence the person left off mid-clause trails off, never ",."', () => {
  assert.equal(tidy('should you try and squeeze in a couple more hours,'), 'Should you try and squeeze in a couple more hours…');
  assert.equal(tidy('so we stopped there'), 'We stopped there.');
  assert.equal(cutSaying('Should you try and squeeze in a couple more hours,.'), 'a clause cut off (",." inside or at the end)');
  assert.equal(cutSaying('It ends on the.'), 'ends on "the"');
  assert.equal(cutSaying("Something we're proud of."), null);
});

test('saying is never a greeting or a self-introduction, unless one is asked for', async () => {
  const luke = await embeddedMind(
    [
      { speaker: 'Host', text: 'Welcome to the show! Who are you and what do you do?' },
      { speaker: 'Luke Wroblewski', text: "Hi, I'm Luke Wroblewski, and I design banking apps for older customers. Thanks for having me." },
      { speaker: 'Host', text: 'What do older customers need from a bank?' },
      {
        speaker: 'Luke Wroblewski',
        text:
          'Older customers want fewer steps and bigger buttons, because every extra screen loses some of them. We always test with ' +
          'people over seventy before we ship, and they tell us things no dashboard ever will.',
      },
    ],
    'Luke Wroblewski',
  );
  assert.ok(isGreeting("Hi, I'm Luke Wroblewski, and I design banking apps for older customers."));
  assert.ok(isGreeting('Thanks for having me.'));
  assert.ok(isGreeting('Thank you all for coming.'));
  assert.ok(!isGreeting("I'm really excited about it."));
  const banking = await ask(luke, 'Luke Wroblewski', 'Our bank is redesigning its app and our elderly customers keep calling the branch for help. What would you change first?');
  assertReadsWell(banking, luke, 'the banking scenario');
  assert.doesNotMatch(banking.analysis.saying, /\bHi\b|I'm Luke Wroblewski|Thanks for having me/);
  // Asked to introduce themselves, the introduction is the answer (composed past the decline: the mind is two answers long).
  const intro = composeAnswer(luke, await searcher.search(luke, 'Introduce yourself: who are you and what do you do?'), 0);
  assert.ok(!intro.declined);
  assert.match(sayingText(luke, intro.saying), /I'm Luke Wroblewski/);
});

test('no field repeats another, and each quotes the person as they said it', async () => {
  for (const scenario of [
    'We are planning a conference next spring. What should we sort out first, the venue or the tickets?',
    'My team keeps working late every night and two of them look exhausted. What would you do?',
    'You finished all your work at 4 PM today. Do you squeeze in a couple more hours or stop for the day?',
  ]) {
    const r = await ask(saron, 'Saron Yitbarek', scenario);
    assertReadsWell(r, saron, scenario);
    assert.match(r.analysis.feeling, /^(?:Positive|Uneasy|Mixed|Matter-of-fact)\b/);
    assert.doesNotMatch(r.analysis.thinking, /in terms of/);
  }
});

test('a view is reported in the third person only where that keeps it grammatical', () => {
  assert.equal(reported('I think it speaks to our model.'), 'They think it speaks to their model.');
  assert.equal(reported("So I actually am interested in history, and I've read a lot."), "They actually are interested in history, and they've read a lot.");
  assert.equal(reported("It's always good to have multiple streams."), "They hold that it's always good to have multiple streams.");
  assert.equal(reported('Oh my goodness, I need to rest.'), null);
  assert.equal(reported('Amazon wants to sell you things because that is the business.'), null);
  assert.equal(reported('I told myself "I\'m never going back."'), null);
});

test('a talk (one speaker, no questions) answers a scenario from another walk of life', async () => {
  const talk = await embeddedMind(
    [
      {
        speaker: 'Priya Raman',
        text:
          'Thank you all for coming. Today I want to talk about what happens when things break. Every outage I have lived through ' +
          'taught me the same lesson: the first ten minutes decide everything.',
      },
      {
        speaker: 'Priya Raman',
        text:
          'When the system goes down, we always name one incident lead before anyone touches a server, because five people fixing ' +
          'the same thing make it worse. The lead talks to customers and the others fix.',
      },
      {
        speaker: 'Priya Raman',
        text:
          'I used to hide outages from our customers, and it cost us their trust. Now we post an update every fifteen minutes, ' +
          'even when there is nothing new, because silence feels like nobody is working on it.',
      },
      {
        speaker: 'Priya Raman',
        text:
          'After every outage we hold a review without blame. I think blame teaches people to hide mistakes, and hidden mistakes ' +
          'come back as bigger outages.',
      },
      { speaker: 'Priya Raman', text: 'My garden is where I go to think. Tomatoes are forgiving, servers are not.' },
    ],
    'Priya Raman',
  );
  assert.ok(talk.memories.every((m) => m.question === null), 'a talk has no interviewer questions');
  const r = await ask(talk, 'Priya Raman', 'The card machines at my restaurant went down during the Saturday dinner rush. How should my staff handle it?');
  assertReadsWell(r, talk, 'the restaurant outage');
  assert.ok(r.evidence.length >= 2, `more than one passage of the talk as evidence: ${r.evidence.length}`);
  assert.doesNotMatch(r.analysis.saying, /Thank you all for coming/);
  for (const f of ['thinking', 'feeling', 'acting'] as const) assert.ok(r.analysis[f].length > 0);
  assert.match(`${r.analysis.thinking} ${r.analysis.acting}`, /"/, 'their words quoted');
});
