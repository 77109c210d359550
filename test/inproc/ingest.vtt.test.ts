import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTranscript } from '../../src/ingest/index.ts';
import { IngestError, type Utterance } from '../../src/ingest/transcript.ts';
import { parseVtt } from '../../src/ingest/vtt.ts';
import { longInterview, monologueVtt, parenVtt, sampleInterview, teamsVtt, zoomVtt, type Turn } from '../support/fixtures.ts';
import { norm, said } from '../support/ingest.ts';
import { vttParseWork } from '../support/parser-work.ts';


async function parse(text: string): Promise<Utterance[]> {
  return (await parseTranscript(Buffer.from(text, 'utf8'))).utterances;
}

function assertRoundTrip(utterances: Utterance[], turns: Turn[]): void {
  assert.deepEqual(
    utterances.map((u) => [u.speaker, norm(u.text)]),
    turns.map((t) => [t.speaker, norm(t.text)]),
  );
}

describe('parseVtt: fixtures round-trip (cues of ≤20 words merged into turns)', () => {
  const turns = sampleInterview();
  for (const [name, write] of [['Teams', teamsVtt], ['Zoom', zoomVtt], ['(Name) lines', parenVtt]] as const) {
    it(name, async () => {
      const text = write(turns);
      assert.ok(text.split('-->').length - 1 > turns.length, 'long turns are split over several cues');
      const utterances = await parse(text);
      assertRoundTrip(utterances, turns);
      for (const [i, u] of utterances.entries()) {
        assert.equal(typeof u.start, 'number');
        assert.ok((u.end ?? 0) > (u.start ?? 0));
        if (i > 0) assert.ok((u.start ?? 0) >= (utterances[i - 1]?.end ?? 0));
      }
      assert.equal(utterances[0]?.start, 0);
    });
  }

  it('monologue: no speakers, one paragraph per pause-separated text', async () => {
    const texts = ['I always start the day with a run.', 'Coffee comes second, and never decaf.', longInterview(60)[1]?.text ?? ''];
    const utterances = await parse(monologueVtt(texts));
    assert.deepEqual(said(utterances), texts.map((t) => [null, norm(t)]));
  });
});

describe('parseVtt: syntax variants', () => {
  it('handles BOM, CRLF and CR line endings, header text, NOTE/STYLE/REGION blocks and cue settings', () => {
    const body = [
      '\uFEFFWEBVTT - Weekly sync',
      'Kind: captions',
      'Language: en',
      '',
      'REGION',
      'id:fred width:40%',
      '',
      'STYLE',
      '::cue { color: yellow }',
      '',
      'NOTE This is a comment',
      'that spans lines -- not a cue',
      '',
      'intro',
      '00:00:01.000 --> 00:00:04.000 align:start position:10% line:0',
      '<v Dana Reyes>Welcome back.</v>',
      '',
      'NOTE',
      '',
      '00:04.500 --> 00:06.000 region:fred',
      '<v Sam Okafor>Thanks.</v>',
    ];
    for (const eol of ['\n', '\r\n', '\r']) {
      const utterances = parseVtt(body.join(eol));
      assert.deepEqual(utterances, [
        { speaker: 'Dana Reyes', text: 'Welcome back.', start: 1, end: 4 },
        { speaker: 'Sam Okafor', text: 'Thanks.', start: 4.5, end: 6 },
      ]);
    }
  });

  it('Teams voice tags: classes, missing </v>, several voices in one cue, multi-line payloads', () => {
    const vtt = `WEBVTT

1/0-0
00:00:00.000 --> 00:00:02.000
<v.loud Dana Reyes>Can you hear me?

1/1-0
00:00:02.000 --> 00:00:05.000
<v Sam Okafor>Yes, loud
and clear.</v>

2/0-0
00:00:05.000 --> 00:00:06.000
<v Dana Reyes>Great.</v><v Sam Okafor>Go ahead.</v>
`;
    assert.deepEqual(said(parseVtt(vtt)), [
      ['Dana Reyes', 'Can you hear me?'],
      ['Sam Okafor', 'Yes, loud and clear.'],
      ['Dana Reyes', 'Great.'],
      ['Sam Okafor', 'Go ahead.'],
    ]);
  });

  it('strips formatting and timestamp tags and decodes entities', () => {
    const vtt = `WEBVTT

00:00:00.000 --> 00:00:03.000
<v Sam Okafor><c.yellow>R&amp;D</c> is <i>not</i> <b>optional</b> &lt;ever&gt;&nbsp;&#39;ok&#39; &#x2014; <00:00:01.500>right&hellip; &bogus; a < b</v>
`;
    assert.deepEqual(said(parseVtt(vtt)), [['Sam Okafor', "R&D is not optional <ever> 'ok' — right… &bogus; a < b"]]);
  });

  it('Zoom "Name: text" without misfiring on colons in ordinary sentences', () => {
    const vtt = `WEBVTT

1
00:00:00.000 --> 00:00:03.000
Dana Reyes: What matters most?

2
00:00:03.000 --> 00:00:06.000
Sam Okafor: Here's the thing: I never hire for pedigree.

3
00:00:06.000 --> 00:00:08.000
Note: this part was inaudible. My point: talent is everywhere.

4
00:00:08.000 --> 00:00:09.000
The ratio was 3:1 in our favour.
`;
    assert.deepEqual(said(parseVtt(vtt)), [
      ['Dana Reyes', 'What matters most?'],
      ['Sam Okafor', "Here's the thing: I never hire for pedigree. Note: this part was inaudible. My point: talent is everywhere. The ratio was 3:1 in our favour."],
    ]);
  });

  it('Zoom display names that are not name-shaped are trusted when they label most cues', () => {
    const vtt = [
      'WEBVTT', '',
      '1', '00:00:00.000 --> 00:00:02.000', 'dana r.: Ready when you are.', '',
      '2', '00:00:02.000 --> 00:00:04.000', 'sam_okafor: Ready.', '',
      '3', '00:00:04.000 --> 00:00:06.000', 'dana r.: First question then.', '',
      '4', '00:00:06.000 --> 00:00:08.000', 'sam_okafor: go on: ask.', '',
      '5', '00:00:08.000 --> 00:00:09.000', 'and another thing: nothing.',
    ].join('\n');
    assert.deepEqual(said(parseVtt(vtt)), [
      ['dana r.', 'Ready when you are.'],
      ['sam_okafor', 'Ready.'],
      ['dana r.', 'First question then.'],
      ['sam_okafor', 'go on: ask. and another thing: nothing.'],
    ]);
  });

  it('"(Name)" lines set the speaker for following cues, in a cue or as a block of their own', () => {
    const vtt = `WEBVTT

(Dana Reyes)

00:00:00.000 --> 00:00:02.000
How did it start?

00:00:02.000 --> 00:00:04.000
(Sam Okafor)
By accident.

00:00:04.000 --> 00:00:05.000
(laughs) Truly.

00:00:05.000 --> 00:00:06.000
(Music)
`;
    assert.deepEqual(said(parseVtt(vtt)), [
      ['Dana Reyes', 'How did it start?'],
      ['Sam Okafor', 'By accident. (laughs) Truly. (Music)'],
    ]);
  });

  it("merges consecutive cues of one speaker: start of the first, end of the last, each cue's times in spans", () => {
    const vtt = `WEBVTT

00:00:01.000 --> 00:00:02.000
<v Sam Okafor>One

00:00:02.000 --> 00:00:03.500
<v Sam Okafor>two

00:00:04.000 --> 00:00:05.000
<v Dana Reyes>three
`;
    assert.deepEqual(parseVtt(vtt), [
      {
        speaker: 'Sam Okafor',
        text: 'One two',
        start: 1,
        end: 3.5,
        spans: [
          { at: 0, start: 1, end: 2 },
          { at: 4, start: 2, end: 3.5 },
        ],
      },
      { speaker: 'Dana Reyes', text: 'three', start: 4, end: 5 },
    ]);
  });

  it('reads hours, mm:ss timings, comma decimals, and cues not separated by blank lines', () => {
    const vtt = `WEBVTT
1
01:02:03.250 --> 01:02:04.000
First.
2
01:02:04,000 --> 01:02:06,000
Second.
00:00.000 --> 00:01.000
Third.`;
    const utterances = parseVtt(vtt);
    assert.deepEqual(said(utterances), [[null, 'First. Second. Third.']]);
    assert.equal(utterances[0]?.start, 3723.25);
    assert.equal(utterances[0]?.end, 3726);
  });

  it('skips cues with malformed timings and blocks that are not cues', () => {
    const vtt = 'WEBVTT\n\n00:00:xx --> 00:00:01.000\nlost\n\njust some text\nwithout timing\n\n00:00:01.000 --> 00:00:02.000\nkept\n';
    assert.deepEqual(said(parseVtt(vtt)), [[null, 'kept']]);
  });
});

describe('VTT hostile and empty input', () => {
  it('header-only, NOTE-only and tag-only files are empty transcripts', async () => {
    for (const text of ['WEBVTT', 'WEBVTT\n\nNOTE nothing here\n', 'WEBVTT\n\n00:00.000 --> 00:01.000\n<v Sam><i></i></v>\n']) {
      await assert.rejects(parse(text), (err: unknown) => err instanceof IngestError && err.code === 'empty_transcript');
    }
  });

  it('survives binary garbage and invalid UTF-8 after the header', async () => {
    const garbage = Buffer.concat([Buffer.from('WEBVTT\n\n00:00.000 --> 00:01.000\n'), Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0x28, 0x41])]);
    const transcript = await parseTranscript(garbage);
    assert.equal(transcript.utterances.length, 1);
  });

  // Speed is bench/parsers.ts's (BENCHMARKS.md); here the parser's work is counted, the same on every machine.
  it('is linear: four times the transcript is at most five times the work (counted, Zoom and Teams)', { timeout: 60_000 }, async (t) => {
    for (const style of ['zoom', 'teams'] as const) {
      const [small, large] = await vttParseWork(style, [25_000, 100_000]);
      assert.ok(small && large);
      assert.deepEqual([small.utterances, large.utterances], [small.turns, large.turns], 'every turn read');
      assert.ok(large.bytes >= 3.9 * small.bytes, `${large.bytes} B is four times ${small.bytes} B`);
      t.diagnostic(`${style}: ${small.work} → ${large.work} (×${(large.work / small.work).toFixed(2)})`);
      // Linear is ×4 (a little less: Zoom labels are learnt from the first cues only); quadratic would be ×16.
      assert.ok(large.work <= 5 * small.work, `${style}: ${small.work} executions for ${small.bytes} B, ${large.work} for ${large.bytes} B`);
    }
  });

  it('reads a 20 MB Zoom transcript whole', { timeout: 120_000 }, () => {
    const turns = longInterview(2_500_000);
    const vtt = zoomVtt(turns);
    assert.ok(vtt.length > 20_000_000);
    const utterances = parseVtt(vtt);
    assert.equal(utterances.length, turns.length);
    assert.equal(norm(utterances.at(-1)?.text ?? ''), norm(turns.at(-1)?.text ?? ''));
  });
});
