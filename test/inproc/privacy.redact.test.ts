/**
 * The redaction stage's detectors (src/privacy), each with the look-alikes it must leave alone,
 * and how placeholders are numbered within a mind (the same third party, the same number, across
 * batches; only keyed hashes given to the numbering), the counts, and a transcript's timings kept
 * in step when values are replaced.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findAddresses } from '../../src/privacy/address.ts';
import { findBirthDates } from '../../src/privacy/birth-date.ts';
import { findCards, luhnValid } from '../../src/privacy/card.ts';
import { detectBatch } from '../../src/privacy/detect.ts';
import { findEmails } from '../../src/privacy/email.ts';
import { findIbans } from '../../src/privacy/iban.ts';
import { countPlaceholders, type Span } from '../../src/privacy/kinds.ts';
import { defaultRedaction, onLoopback } from '../../src/privacy/mode.ts';
import { findPeople, speakerWords } from '../../src/privacy/people.ts';
import { findPhones } from '../../src/privacy/phone.ts';
import { Redactor, personHash, redactWithKnownNumbers } from '../../src/privacy/redactor.ts';
import { redactUtterances } from '../../src/privacy/transcript.ts';
import { findPersonalUrls } from '../../src/privacy/url.ts';

const values = (spans: Span[]) => spans.map((s) => s.value);

describe('detectors', () => {
  it('e-mail addresses, not handles or versions', () => {
    assert.deepEqual(values(findEmails('Write to jane.doe@example.co.uk or j_doe+news@mail.acme-corp.com.')), ['jane.doe@example.co.uk', 'j_doe+news@mail.acme-corp.com']);
    assert.deepEqual(values(findEmails('Follow @jane_doe, read v2.1@3, or jane at example dot com.')), []);
  });

  it('phone numbers of several countries, not years, prices, versions, quantities or card numbers', () => {
    const text = 'Call (415) 555-0132, 212-867-5309, +44 20 7946 0958, 020 7946 0958, +49 30 901820 or 07911 455482.';
    assert.deepEqual(values(findPhones(text)).sort(), ['(415) 555-0132', '+44 20 7946 0958', '+49 30 901820', '020 7946 0958', '07911 455482', '212-867-5309'].sort());
    const lookalikes = 'We shipped 2.14.1 for $19.99 in 2019, sold 1,200,000 units, order 100234, from 1999 to 2004, at 3:30 pm, port 8080.';
    assert.deepEqual(findPhones(lookalikes), []);
  });

  it('card numbers pass Luhn with an issuer prefix; a 16-digit id that fails Luhn, or has no network, is not one', () => {
    assert.equal(luhnValid('4111111111111111'), true);
    assert.equal(luhnValid('4111111111111112'), false);
    assert.deepEqual(values(findCards('Card 4111 1111 1111 1111, Amex 3782 822463 10005, MC 5555-5555-5555-4444 and 6011000990139424.')), [
      '4111 1111 1111 1111',
      '3782 822463 10005',
      '5555-5555-5555-4444',
      '6011000990139424',
    ]);
    assert.deepEqual(findCards('Ticket 4111 1111 1111 1112, id 1234 5678 9012 3452, ISBN 978-3-16-148410-0, 2.14.1.'), []);
  });

  it('IBANs pass the country format and mod-97, grouped or not; the next word is never taken in', () => {
    assert.deepEqual(values(findIbans('IBAN GB82 WEST 1234 5698 7654 32 and DE89370400440532013000 then FR14 2004 1010 0505 0001 3M02 606 ok')), [
      'GB82 WEST 1234 5698 7654 32',
      'DE89370400440532013000',
      'FR14 2004 1010 0505 0001 3M02 606',
    ]);
    assert.deepEqual(findIbans('GB82 WEST 1234 5698 7654 33 (a wrong check), DE00 1234, US12 3456 7890 1234'), []);
  });

  it('postal addresses with their town and code; not distances or product lines', () => {
    assert.deepEqual(values(findAddresses('We lived at 221B Baker Street, London NW1 6XE for years.')), ['221B Baker Street, London NW1 6XE']);
    assert.deepEqual(values(findAddresses('Send it to 1600 Pennsylvania Ave NW, Washington, DC 20500 please.')), ['1600 Pennsylvania Ave NW, Washington, DC 20500']);
    assert.deepEqual(values(findAddresses('Apt: 42 Maple Avenue, Apt 4B, Portland, OR 97201. And then')), ['42 Maple Avenue, Apt 4B, Portland, OR 97201']);
    assert.deepEqual(values(findAddresses('Das Büro war in der Hauptstraße 5, 10115 Berlin.')), ['Hauptstraße 5, 10115 Berlin']);
    assert.deepEqual(values(findAddresses('Write to P.O. Box 1234 and wait.')), ['P.O. Box 1234']);
    assert.deepEqual(findAddresses('I ran 5 miles down the road, bought 3 Apple Watch straps, and took Route 66 for 20 minutes.'), []);
  });

  it('URLs that name a person; product, document and site URLs stay', () => {
    assert.deepEqual(values(findPersonalUrls('See linkedin.com/in/maria-lopez-123, https://github.com/mlopez and https://medium.com/@maria.lopez.')), [
      'linkedin.com/in/maria-lopez-123',
      'https://github.com/mlopez',
      'https://medium.com/@maria.lopez',
    ]);
    assert.deepEqual(values(findPersonalUrls('Her page: https://acme.com/people/maria-lopez/ is up.')), ['https://acme.com/people/maria-lopez/']);
    assert.deepEqual(findPersonalUrls('Read https://github.com/features, https://nodejs.org/en/docs, example.com/pricing and https://www.npmjs.com/package/compromise.'), []);
  });

  it('dates of birth in a birth context only (the date replaced, not the words); other dates and years stay', () => {
    assert.deepEqual(values(findBirthDates('I was born on March 3, 1985, in Leeds. My birthday is the 3rd of May. DOB: 1990-07-14.')), ['March 3, 1985', 'the 3rd of May', '1990-07-14']);
    assert.deepEqual(values(findBirthDates('My date of birth is 03/14/1985.')), ['03/14/1985']);
    assert.deepEqual(findBirthDates('On March 3, 1985 we shipped it. I was born in 1985. Version 3.1 came out on 2020-01-02.'), []);
  });

  it("third parties' names; not the speakers, titles, relations, products or companies", () => {
    const speakers = speakerWords(['Sam Okafor', 'Dana Reyes']);
    const text = "I talked to John Smith, and my sister Maria agreed. Dr. Priya Raman said Warren Buffett's letters help. Thanks, Dana. Sam Okafor here.";
    assert.deepEqual(values(findPeople(text, speakers)), ['John Smith', 'Maria', 'Priya Raman', 'Warren Buffett']);
    assert.deepEqual(findPeople('We shipped version 2.14.1 for $19.99 with the iPhone 15, Visual Studio Code, Kubernetes and Microsoft Teams.', speakers), []);
    assert.deepEqual(findPeople('The grant was paid in May. The buck stops here. Will you mark it?', speakers), []);
    // A name compromise does not know, said the way people talk about someone.
    assert.deepEqual(values(findPeople('Honestly, Kwabena and I argued about it. My colleague Ngozi wrote the spec.', speakers)), ['Kwabena', 'Ngozi']);
  });
});

describe('real speech (issue 30): people told from things, role addresses and organisations kept', () => {
  const speakers = speakerWords(['Gregory Richardson', 'Kevin Ball', 'Michael Okafor']);
  const people = (text: string) => values(detectBatch([text], speakers)[0] ?? []);

  it('products, projects, companies and places are no one, unless said as a person', () => {
    assert.deepEqual(people('We moved the Jenkins jobs to Grafana, then ran Kubernetes on Hetzner. The Cilium CLI helps.'), []);
    assert.deepEqual(people("That's in Austin. I lived down in Houston before moving to Berlin."), []);
    assert.deepEqual(people('I drained my Roth IRA, and maybe Raycast is better than Alfred folks are.'), []);
    assert.deepEqual(people('We will have someone from Blue Sky Infrastructure, and Stack Overflow is declining.'), []);
    assert.deepEqual(people('My colleague Jenkins told me to rewrite it.'), ['Jenkins']);
  });

  it('a common word at a sentence start, or a word in capitals, is no name', () => {
    assert.deepEqual(people("Because we're sending traffic through it. Although it works. Don't even think about it. That's the TUI on the NAS."), []);
    assert.deepEqual(people('Because Priya and I both wanted it.'), ['Priya']);
  });

  it("the speakers' short names, nicknames and handles are theirs", () => {
    assert.deepEqual(people('When Greg talks about it, Kball agrees, and Mike wrote it down.'), []);
    assert.deepEqual(people('When Greg talks about it, Tomasz agrees.'), ['Tomasz']);
    assert.deepEqual(people('I told Tomasz Novak about it, and Greg agreed.'), ['Tomasz Novak']);
  });

  it('names in lists, pairs of unknown names, and the way people talk about someone', () => {
    assert.deepEqual(people('This is part of like Axel, Christian, Jorge, and some other folks from the team.'), ['Axel', 'Christian', 'Jorge']);
    assert.deepEqual(people('They took over a bunch of popular Sindre Sorhus packages, and Gergely Orosz wrote about it.'), ['Sindre Sorhus', 'Gergely Orosz']);
    assert.deepEqual(people('When I first met Baron, I was still the only DBA.'), ['Baron']);
  });

  it("public figures are no third party's, nor a word standing for one in the batch", () => {
    const [a = [], b = []] = detectBatch(['Linus chose the GNU license, and Jeff Bezos agrees.', 'Linus Torvalds said so, and my friend Ana Costa too.'], speakers);
    assert.deepEqual([values(a), values(b)], [[], ['Ana Costa']]);
    // Learned from the corpus (names many shows say), compromise's famous people, a surname standing for one alone; a private person is still replaced.
    const [c = []] = detectBatch(['Richard Stallman, Bill Gates and Carmack said so, and my colleague Tomasz Novak agreed.'], speakers);
    assert.deepEqual(values(c), ['Tomasz Novak']);
  });

  it('a single word the batch says as a thing elsewhere is no person there; a person said so is', () => {
    const things = detectBatch(['Then Restic and I went through it.', 'We keep a Restic repo; restic prune is slow.'], speakers);
    assert.deepEqual(things.map(values), [[], []]);
    const person = detectBatch(['Then Kenji and I went through it.', 'We keep a Kenji repo, and Kenji told me it was slow.'], speakers);
    assert.deepEqual(person.map(values), [['Kenji'], ['Kenji']]);
  });

  it('role, team and organisation addresses and pages are not personal; a person\'s are', () => {
    const mails = 'Write to editors@changelog.com, hello@acme.io, info@example.org, support@x.com, bigtent@grafana.com, or to adam@changelog.com and MikeMcQuaid@mastodon.social.';
    assert.deepEqual(values(findEmails(mails)), ['adam@changelog.com', 'MikeMcQuaid@mastodon.social']);
    // A name with digits, an initial and a surname, a surname that reads as common words: a person's.
    assert.deepEqual(values(findEmails('diego77@mail.com, areyes@acme.com, haddad.diego@web.de, shipit@changelog.com')), ['diego77@mail.com', 'areyes@acme.com', 'haddad.diego@web.de']);
    const urls = 'See github.com/mozilla/sops, github.com/hashicorp/vault, github.com/quicksilver/quicksilver, youtube.com/@squaredev, github.com/thechangelog, and github.com/matryer/is or twitter.com/marcosnils.';
    assert.deepEqual(values(findPersonalUrls(urls)), ['github.com/matryer/is', 'twitter.com/marcosnils']);
  });

  it('addresses in the European orders; quantities that look like a street line are not addresses', () => {
    assert.deepEqual(values(findAddresses('It was at 40 Lindenstraße, 10969 Berlin, then at 12 rue de Rivoli, 75001 Paris, and Via Roma 10, 00184 Roma.')), [
      '40 Lindenstraße, 10969 Berlin',
      '12 rue de Rivoli, 75001 Paris',
      'Via Roma 10, 00184 Roma',
    ]);
    assert.deepEqual(findAddresses('I have 12 TB per drive, a 14 terabyte drive, a 20 degree walk, we made 50 episodes. Not close. Go via HTTP 1.1.'), []);
  });

  it("business lines, versions and ids are not a person's phone number", () => {
    assert.deepEqual(findPhones('Call 1-888-974-2454 or 1-800-555-0199, run demo 2024.06.2021, see tweet 1456789012345678901 and version 4155550132.'), []);
    assert.deepEqual(findPhones('See twitter.com/jack/status/4155550132 and https://example.com/call/2125550123.'), []);
    assert.deepEqual(values(findPhones('My cell is (415) 555-0132.')), ['(415) 555-0132']);
  });
});

describe('redaction of a batch', () => {
  it('a name found once is found everywhere in the batch, a surname alone is the same person', () => {
    const found = detectBatch(['My friend Maria Lopez helped.', 'Maria said no.', 'Lopez was right.'], new Set());
    const keys = found.map((spans) => spans.map((s) => s.personKey));
    assert.deepEqual(keys, [['maria lopez'], ['maria lopez'], ['maria lopez']]);
  });

  it('numbers third parties per mind: the same person keeps their number across calls, the numbering sees only keyed hashes', async () => {
    const asked: string[][] = [];
    const numbers = new Map<string, number>();
    const numbering = {
      numbers: async (hashes: readonly string[]) => {
        asked.push([...hashes]);
        for (const h of hashes) if (!numbers.has(h)) numbers.set(h, numbers.size + 1);
        return new Map(hashes.map((h) => [h, numbers.get(h) ?? 0]));
      },
    };
    const r = new Redactor({ speakers: ['Sam Okafor'], key: 'k'.repeat(32), numbering });
    const first = await r.redact(['I met John Smith at 221B Baker Street, London NW1 6XE.', 'Email him at john.smith@example.com; Sam Okafor agreed.']);
    assert.deepEqual(first.texts, ['I met [person 1] at [address].', 'Email him at [email]; Sam Okafor agreed.']);
    const second = await r.redact(['My colleague Maria Lopez met John Smith.']);
    assert.deepEqual(second.texts, ['My colleague [person 2] met [person 1].']);
    assert.deepEqual(first.counts, { person: 1, address: 1, email: 1 });
    for (const hashes of asked) for (const h of hashes) assert.doesNotMatch(h, /john|smith|maria|lopez/i);
    assert.equal(asked[0]?.[0], personHash('k'.repeat(32), 'john smith'));
  });

  it('in an analysis thread: known numbers are kept, new ones follow the highest and are returned to store', () => {
    const key = 'k'.repeat(32);
    const known: Array<[string, number]> = [[personHash(key, 'john smith'), 4]];
    const r = redactWithKnownNumbers(['John Smith and my friend Ana Costa came.'], { speakers: [], key, known });
    assert.deepEqual(r.texts, ['[person 4] and my friend [person 5] came.']);
    assert.deepEqual(r.assigned, [[personHash(key, 'ana costa'), 5]]);
  });

  it('stored mode replaces utterances and keeps their timed pieces in step; outbound only counts', () => {
    const key = 'k'.repeat(32);
    const utterance = { speaker: 'Sam Okafor', text: 'Call me at +44 20 7946 0958. Then we talk.', spans: [{ at: 0, start: 1 }, { at: 29, start: 5 }] };
    const stored = redactUtterances([utterance], { mode: 'stored', key, known: [] }, ['Sam Okafor']);
    assert.equal(stored.utterances[0]?.text, 'Call me at [phone]. Then we talk.');
    assert.equal(stored.utterances[0]?.text.slice(stored.utterances[0]?.spans?.[1]?.at ?? 0), 'Then we talk.');
    assert.deepEqual(stored.counts, { phone: 1 });
    const outbound = redactUtterances([utterance], { mode: 'outbound', key, known: [] }, ['Sam Okafor']);
    assert.equal(outbound.utterances[0]?.text, utterance.text);
    assert.deepEqual(outbound.counts, { phone: 1 });
  });

  it('placeholders already in a text are not redacted again, and are counted by kind', () => {
    const [spans] = detectBatch(['[person 2] wrote to [email] from [address].'], new Set());
    assert.deepEqual(spans, []);
    assert.deepEqual(countPlaceholders('[person 2] wrote to [email], [email] and [date of birth].'), { person: 1, email: 2, dob: 1 });
  });
});

describe('the default mode', () => {
  it('outbound with an LLM provider off loopback; off without one or on loopback; REDACTION wins', () => {
    assert.equal(defaultRedaction(undefined, null), 'off');
    assert.equal(defaultRedaction(undefined, { baseUrl: undefined }), 'outbound');
    assert.equal(defaultRedaction(undefined, { baseUrl: 'https://api.example.com/v1' }), 'outbound');
    assert.equal(defaultRedaction(undefined, { baseUrl: 'http://127.0.0.1:11434/v1' }), 'off');
    assert.equal(defaultRedaction(undefined, { baseUrl: 'http://localhost:11434/v1' }), 'off');
    assert.equal(defaultRedaction(undefined, { baseUrl: 'http://[::1]:8000/v1' }), 'off');
    assert.equal(defaultRedaction('stored', null), 'stored');
    assert.equal(defaultRedaction('off', { baseUrl: 'https://api.example.com' }), 'off');
    assert.equal(onLoopback('http://127.8.9.10/'), true);
    assert.equal(onLoopback('http://10.0.0.1/'), false);
  });
});
