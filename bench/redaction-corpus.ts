/**
 * The redaction benchmark's corpus (bench/redaction.ts): interview passages made of real
 * sentences from ../shared/data/corpus (read from beside the repository, never copied into it)
 * as carriers, with personal data of every kind planted at known places, and look-alikes that are
 * not personal data (versions, prices, years, quantities, product names, dates outside a birth
 * context, site URLs that name no one, Luhn-invalid 16-digit numbers). Seeded: the same seed makes
 * the same corpus. Two sets never share a carrier show or a third party's name: the development
 * set (its own shows, the names at even positions of the lists) and the report set (the other
 * shows, the odd positions); half the report set's values sit in phrasings the development set
 * never has (REPORT_ONLY).
 */
import fs from 'node:fs';
import path from 'node:path';
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import type { RedactionKind } from '../src/privacy/kinds.ts';
import { seededRandom } from '../src/memory/seeded-random.ts';

export interface Planted {
  start: number;
  end: number;
  kind: RedactionKind;
}

export interface Passage {
  text: string;
  planted: Planted[];
}

/** An interview: its speakers (never third parties) and its passages, redacted as one batch. */
export interface Interview {
  speakers: string[];
  passages: Passage[];
}

type Rng = () => number;
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const digits = (r: Rng, n: number) => Array.from({ length: n }, () => String(int(r, 0, 9))).join('');
const half = <T>(xs: readonly T[], set: 'dev' | 'report') => xs.filter((_, i) => i % 2 === (set === 'dev' ? 0 : 1));

const GIVEN = [
  'Maria', 'James', 'Priya', 'Kwame', 'Sofia', 'Liam', 'Aisha', 'Mateo', 'Chloe', 'Hiroshi', 'Fatima', 'Lukas', 'Grace', 'Diego', 'Amara',
  'Noah', 'Elena', 'Rahul', 'Ingrid', 'Oliver', 'Mei', 'Samuel', 'Zainab', 'Thomas', 'Lucia', 'Arjun', 'Hannah', 'Tomasz', 'Nadia', 'Daniel',
  'Yusuf', 'Claire', 'Emeka', 'Sarah', 'Andrei', 'Rebecca', 'Kenji', 'Isabel', 'Michael', 'Leila', 'Patrick', 'Ana', 'Viktor', 'Emily',
];
const FAMILY = [
  'Garcia', 'Okonkwo', 'Sharma', 'Müller', 'Rossi', 'Nguyen', 'Kowalski', 'Haddad', 'Johnson', 'Tanaka', 'Andersen', 'Silva', 'Mensah',
  'Fischer', 'Kaplan', 'Oyelaran', 'Lindqvist', 'Moreau', 'Petrov', 'Chen', 'Walsh', 'Ibrahim', 'Novak', 'Brennan', 'Suzuki', 'Romero',
  "O'Connor", 'Adeyemi', 'Schmidt', 'Bianchi', 'Kumar', 'Larsen', 'Dubois', 'Reyes', 'Morgan', 'Hoffmann', 'Mwangi', 'Costa', 'Yilmaz', 'Evans',
];
/** The interviewed person and the interviewer: named in the passages, never third parties. */
const SPEAKERS = [
  ['Sam Okafor', 'Rachel Lindgren'], ['Dana Whitfield', 'Marcus Bell'], ['Ravi Menon', 'Julia Hartmann'], ['Ines Carvalho', 'Peter Doyle'],
  ['Tobias Reinholt', 'Naomi Park'], ['Lena Virtanen', 'George Addo'],
];
const STREETS = ['Maple', 'Oak', 'Elm', 'Baker', 'Highland', 'Sunset', 'Cedar', 'Lincoln', 'Church', 'Mill', 'Lake', 'Willow', 'Chestnut', 'Prospect', 'Forest', 'Harbor', 'Hawthorne', 'Victoria', 'Station', 'Queens'];
const US_TYPES = ['Street', 'Avenue', 'Road', 'Drive', 'Lane', 'Boulevard', 'Court', 'St.', 'Ave', 'Rd', 'Place', 'Way'];
const UK_TYPES = ['Road', 'Street', 'Lane', 'Close', 'Crescent', 'Gardens', 'Terrace', 'Grove'];
const US_CITIES: Array<[string, string, string]> = [['Springfield', 'IL', '627'], ['Portland', 'OR', '972'], ['Austin', 'TX', '787'], ['Denver', 'CO', '802'], ['Columbus', 'OH', '432'], ['Madison', 'WI', '537'], ['Raleigh', 'NC', '276'], ['Boise', 'ID', '837']];
const UK_TOWNS: Array<[string, string]> = [['London', 'SW1A'], ['Leeds', 'LS1'], ['Bristol', 'BS8'], ['Manchester', 'M14'], ['Cardiff', 'CF10'], ['Oxford', 'OX2'], ['Brighton', 'BN1'], ['York', 'YO10']];
const DE_TOWNS: Array<[string, string]> = [['Berlin', '10115'], ['Hamburg', '20095'], ['München', '80331'], ['Köln', '50667'], ['Leipzig', '04109']];
const DE_STREETS = ['Hauptstraße', 'Goethestraße', 'Bahnhofstraße', 'Lindenweg', 'Schillerstraße', 'Marktplatz', 'Rosengasse'];
const DOMAINS = ['gmail.com', 'outlook.com', 'yahoo.co.uk', 'proton.me', 'acme-corp.com', 'university.edu', 'web.de', 'fastmail.fm', 'example.org'];
const US_AREAS = ['212', '415', '617', '312', '206', '512', '303', '404', '702', '919', '646', '213'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const slug = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').replace(/[^A-Za-z]/g, '').toLowerCase();

function email(r: Rng, first: string, last: string): string {
  const f = slug(first);
  const l = slug(last);
  const local = pick(r, [`${f}.${l}`, `${f[0]}${l}`, `${f}_${l}${int(r, 1, 99)}`, `${f}${int(r, 70, 99)}`, `${l}.${f}`]);
  return `${local}@${pick(r, DOMAINS)}`;
}

function phone(r: Rng): string {
  const exchange = () => `${int(r, 2, 9)}${int(r, 0, 9)}${int(r, 0, 9)}`.replace(/^(\d)11$/, '$12$1').replace(/^555$/, '556');
  const us = () => {
    const a = pick(r, US_AREAS);
    const e = exchange();
    const n = digits(r, 4);
    return pick(r, [`(${a}) ${e}-${n}`, `${a}-${e}-${n}`, `${a}.${e}.${n}`, `+1 ${a} ${e} ${n}`, `+1-${a}-${e}-${n}`]);
  };
  const uk = () => pick(r, [`+44 20 7${digits(r, 3)} ${digits(r, 4)}`, `020 7${digits(r, 3)} ${digits(r, 4)}`, `07${pick(r, ['700', '911', '812', '456'])} ${digits(r, 6)}`, `+44 7${pick(r, ['700', '911', '812'])} ${digits(r, 6)}`]);
  const intl = () => pick(r, [`+49 30 ${digits(r, 8)}`, `+33 1 ${digits(r, 2)} ${digits(r, 2)} ${digits(r, 2)} ${digits(r, 2)}`, `+91 98${digits(r, 3)} ${digits(r, 5)}`, `+61 2 ${digits(r, 4)} ${digits(r, 4)}`]);
  return pick(r, [us, us, uk, intl])();
}

function luhnDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

function card(r: Rng): string {
  const [prefix, length] = pick(r, [['4', 16], ['4', 16], [String(int(r, 51, 55)), 16], [String(int(r, 2221, 2720)), 16], [pick(r, ['34', '37']), 15], ['6011', 16]] as Array<[string, number]>);
  const body = prefix + digits(r, length - prefix.length - 1);
  const number = body + luhnDigit(body);
  const sep = pick(r, [' ', '-', '']);
  if (length === 15) return [number.slice(0, 4), number.slice(4, 10), number.slice(10)].join(sep);
  return (number.match(/.{1,4}/g) ?? []).join(sep);
}

function iban(r: Rng): string {
  const letters = () => Array.from({ length: 4 }, () => String.fromCharCode(65 + int(r, 0, 25))).join('');
  const [country, bban] = pick(r, [
    ['GB', () => letters() + digits(r, 14)],
    ['DE', () => digits(r, 18)],
    ['NL', () => letters() + digits(r, 10)],
    ['IE', () => letters() + digits(r, 14)],
    ['AT', () => digits(r, 16)],
    ['CH', () => digits(r, 17)],
  ] as Array<[string, () => string]>);
  const b = bban();
  const numeric = (b + country + '00').replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rem = 0;
  for (const ch of numeric) rem = (rem * 10 + Number(ch)) % 97;
  const compact = `${country}${String(98 - rem).padStart(2, '0')}${b}`;
  if (!isValidIBAN(electronicFormatIBAN(compact) ?? '')) throw new Error(`generated an invalid IBAN ${compact}`);
  return r() < 0.6 ? (compact.match(/.{1,4}/g) ?? []).join(' ') : compact;
}

function address(r: Rng): string {
  const kind = int(r, 0, 5);
  if (kind <= 2) {
    const [city, st, zip] = pick(r, US_CITIES);
    const street = `${int(r, 1, 9899)} ${pick(r, STREETS)} ${pick(r, US_TYPES)}`;
    const unit = r() < 0.3 ? `, ${pick(r, ['Apt', 'Suite', 'Unit'])} ${int(r, 1, 40)}${pick(r, ['', 'B', 'C'])}` : '';
    return kind === 2 ? `${street}${unit}` : `${street}${unit}, ${city}, ${st} ${zip}${digits(r, 2)}`;
  }
  if (kind <= 4) {
    const [town, out] = pick(r, UK_TOWNS);
    const code = `${out} ${int(r, 1, 9)}${pick(r, ['AA', 'XE', 'QT', 'HB', 'NW'])}`;
    return `${int(r, 1, 240)} ${pick(r, STREETS)} ${pick(r, UK_TYPES)}, ${town}${kind === 3 ? ` ${code}` : ''}`;
  }
  const [town, zip] = pick(r, DE_TOWNS);
  return `${pick(r, DE_STREETS)} ${int(r, 1, 120)}, ${zip} ${town}`;
}

function personalUrl(r: Rng, first: string, last: string): string {
  const f = slug(first);
  const l = slug(last);
  return pick(r, [
    `linkedin.com/in/${f}-${l}-${digits(r, 3)}`,
    `https://www.linkedin.com/in/${f}${l}/`,
    `https://twitter.com/${f}_${l}`,
    `x.com/${f}${l}${int(r, 1, 99)}`,
    `github.com/${f}${l[0]}`,
    `https://medium.com/@${f}.${l}`,
    `https://www.instagram.com/${f}.${l}/`,
    `https://acme-corp.com/people/${f}-${l}`,
    `https://blog.example.org/author/${f}${l}`,
  ]);
}

function birthDate(r: Rng): string {
  const y = int(r, 1940, 2004);
  const m = int(r, 1, 12);
  const d = int(r, 1, 28);
  const month = MONTHS[m - 1] as string;
  const nth = d === 1 || d === 21 ? 'st' : d === 2 || d === 22 ? 'nd' : d === 3 || d === 23 ? 'rd' : 'th';
  const pad = (n: number) => String(n).padStart(2, '0');
  return pick(r, [`${month} ${d}, ${y}`, `${d} ${month} ${y}`, `${pad(m)}/${pad(d)}/${y}`, `${y}-${pad(m)}-${pad(d)}`, `the ${d}${nth} of ${month}, ${y}`, `${month} ${d}${nth}`]);
}

/** A template: text with {slots}; each slot names a kind (planted) or a look-alike. */
const PLANT: Record<RedactionKind, readonly string[]> = {
  email: ['You can reach me at {email} if you want the slides.', 'I wrote to {email} and never heard back.', 'Her work address was {email}, so that is where the contract went.'],
  phone: ['My number is {phone}, call any time after six.', 'He gave me his cell, {phone}, and said to text first.', 'The office line was {phone} back then.'],
  card: ['I read my card number out loud, {card}, on a support call, which was a mistake.', 'The charge went to {card} and nobody noticed for months.'],
  iban: ['The grant was paid into {iban} every quarter.', 'I sent the deposit to {iban}, the account the landlord gave me.'],
  address: ['We lived at {address} for about six years.', 'Mail it to {address} and I will pass it on.', 'The first office was at {address}, above a bakery.'],
  url: ['My profile is at {url} if anyone wants to connect.', 'She posts everything on {url} these days.', 'You can find him at {url}.'],
  dob: ['I was born on {dob}, right before the move.', 'My birthday is {dob}, so the launch party doubled as one.', 'The form asked for my date of birth, {dob}, twice.', 'DOB: {dob}, that is what the badge said.'],
  person: ['My colleague {full} taught me most of what I know about this.', 'I worked with {full} on the first version.', '{first} told me to stop worrying about scale.', 'My friend {full} was the one who pushed me to apply.', 'I called {first} right after the meeting.', 'Honestly, {first} and I argued about that for a week.'],
};
/**
 * Templates only the report set uses (written before the report set was first run, never looked at
 * for tuning): other phrasings, so the report does not only measure the contexts the development
 * set had.
 */
const REPORT_ONLY: Record<RedactionKind, readonly string[]> = {
  email: ['Anyway, the invite came from {email} on a Sunday.', 'so we just cc {email} on everything.'],
  phone: ['If it breaks, ring {phone} and ask for the night shift.', 'The recruiter kept calling from {phone} for weeks.'],
  card: ['Somebody charged {card} twice at a gas station.', 'the receipt literally printed {card} in full'],
  iban: ['Payments go to {iban}; that has not changed.', 'He asked for an IBAN and I pasted {iban} into the chat.'],
  address: ['The package ended up at {address} instead.', 'We rented a tiny place, {address}, with no heating.'],
  url: ['Everything he writes ends up on {url} eventually.', 'Look her up, {url}, she is great.'],
  dob: ['My date of birth is {dob} if you need it for the booking.', 'I was born {dob}, in a snowstorm apparently.'],
  person: ['Then {full} joined the team and everything changed.', 'It was {first} who found the bug, not me.', 'We hired {full} as our first engineer.', 'Ask {first}, she knows the history better.'],
};
const LOOKALIKES = [
  'We upgraded to version {ver} last spring and nothing broke.',
  'The plan costs {price} a month, which felt like a lot at the time.',
  'Back in {year} we had maybe {count} users.',
  'We ran everything on {product}, and it held up fine.',
  'On {month} {day} we shipped the rewrite, a week late.',
  'The release notes for {ver} mention the fix.',
  'It was about {big} downloads in the first year.',
  'The docs at {siteurl} explain it better than I can.',
  'The ticket id was {fakecard}, I still remember it.',
  'From {year} to {year2} I barely wrote any code.',
  'Our office was on the {floor} floor and we had {count} desks.',
  'I switched to {product} around {year}.',
  'The meetup was at 7 pm, room {room}, and maybe {count} people came.',
  'We walked about {count} miles down the road to get there.',
];
const PRODUCTS = ['Visual Studio Code', 'Kubernetes', 'PostgreSQL 16', 'the iPhone 15', 'Windows 11', 'Python 3.12', 'Node 22', 'Apple Watch', 'Google Docs', 'Amazon Web Services', 'Slack', 'Microsoft Teams', 'a Tesla Model 3', 'React Native', 'Ruby on Rails'];
const SITE_URLS = ['https://nodejs.org/en/docs', 'github.com/features/actions', 'https://www.npmjs.com/package/compromise', 'https://docs.python.org/3/library/os.html', 'example.com/pricing', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'https://en.wikipedia.org/wiki/Unix', 'twitter.com/explore'];

function fillLookalike(r: Rng, template: string): string {
  const fakeCard = () => {
    const body = '4' + digits(r, 14);
    const good = luhnDigit(body);
    return `${body}${(Number(good) + int(r, 1, 9)) % 10}`.match(/.{4}/g)?.join(' ') ?? '';
  };
  const year = int(r, 1995, 2024);
  return template
    .replace('{ver}', `${int(r, 1, 20)}.${int(r, 0, 30)}.${int(r, 0, 12)}`)
    .replace('{price}', pick(r, [`$${int(r, 5, 99)}.99`, `€${int(r, 10, 500)}`, `£${int(r, 3, 40)}.50`]))
    .replace('{year2}', String(year + int(r, 1, 6)))
    .replace('{year}', String(year))
    .replace('{count}', String(int(r, 2, 5000)))
    .replace('{count}', String(int(r, 2, 400)))
    .replace('{product}', pick(r, PRODUCTS))
    .replace('{month}', pick(r, MONTHS))
    .replace('{day}', String(int(r, 1, 28)))
    .replace('{big}', `${int(r, 1, 999)},${digits(r, 3)},${digits(r, 3)}`)
    .replace('{siteurl}', pick(r, SITE_URLS))
    .replace('{fakecard}', fakeCard())
    .replace('{floor}', pick(r, ['3rd', '12th', '2nd']))
    .replace('{room}', String(int(r, 100, 499)));
}

/** Common first words of a sentence: a carrier starting otherwise (maybe with a name) is left out. */
const STARTERS = new Set(
  ("i and but so the it that we you they this there what if when because yeah well now then just like oh right okay ok maybe actually also or my our your he she " +
    "in on at for to with as of not no yes all some even which how why where who do does did is are was were can could would should will one those these a an " +
    "every any most once sometimes really honestly basically it's that's there's i'm i've i'd we're you're they're don't didn't isn't").split(' '),
);

/** Real sentences from the corpus with nothing of the kinds in them: no digits, no @, no URL, no capital but the first word and "I". */
export function carrierSentences(corpusDir: string, set: 'dev' | 'report', max = 6000): string[] {
  const shows = half(fs.readdirSync(corpusDir).filter((d) => fs.statSync(path.join(corpusDir, d)).isDirectory()).sort(), set);
  const out: string[] = [];
  for (const show of shows) {
    for (const file of fs.readdirSync(path.join(corpusDir, show)).sort()) {
      const text = fs.readFileSync(path.join(corpusDir, show, file), 'utf8');
      for (const para of text.split('\n')) {
        const body = para.replace(/^\*\*[^*]+:\*\*\s*/, '').replace(/\\\[[^\]]*\\\]/g, ' ');
        for (const s of body.split(/(?<=[.!?])\s+/)) {
          const t = s.trim();
          const words = t.split(/\s+/);
          if (words.length < 6 || words.length > 30) continue;
          if (/[\d@/\\*_[\]()#]|https?:|www\./.test(t)) continue;
          if (words.slice(1).some((w) => /^[^A-Za-z]*[A-Z]/.test(w) && !/^I('|’|$)/.test(w))) continue;
          if (!STARTERS.has((words[0] ?? '').replace(/[^A-Za-z']/g, '').toLowerCase())) continue;
          out.push(t);
          if (out.length >= max) return out;
        }
      }
      if (out.length >= max) break;
    }
  }
  return out;
}

/** `count` passages in interviews of `perInterview`: each 2 carrier sentences, 1-3 planted values, 1-2 look-alikes, shuffled. */
export function generate(seed: number, set: 'dev' | 'report', carriers: readonly string[], count: number, perInterview = 10): Interview[] {
  const r = seededRandom(seed);
  const given = half(GIVEN, set);
  const family = half(FAMILY, set);
  const kinds = Object.keys(PLANT) as RedactionKind[];
  const interviews: Interview[] = [];
  let made = 0;
  while (made < count) {
    const speakers = pick(r, SPEAKERS);
    const cast = Array.from({ length: 4 }, () => [pick(r, given), pick(r, family)] as [string, string]);
    const passages: Passage[] = [];
    for (let i = 0; i < perInterview && made < count; i++, made++) {
      const pieces: Array<{ text: string; planted: Planted[] }> = [];
      pieces.push({ text: pick(r, carriers), planted: [] }, { text: pick(r, carriers), planted: [] });
      const n = int(r, 1, 3);
      for (let k = 0; k < n; k++) {
        const kind = kinds[(made * 3 + k) % kinds.length] as RedactionKind;
        const [first, last] = pick(r, cast);
        const template = pick(r, set === 'report' && r() < 0.5 ? REPORT_ONLY[kind] : PLANT[kind]);
        const value =
          kind === 'email' ? email(r, first, last)
          : kind === 'phone' ? phone(r)
          : kind === 'card' ? card(r)
          : kind === 'iban' ? iban(r)
          : kind === 'address' ? address(r)
          : kind === 'url' ? personalUrl(r, first, last)
          : kind === 'dob' ? birthDate(r)
          : template.includes('{full}') ? `${first} ${last}` : first;
        const slot = /\{(email|phone|card|iban|address|url|dob|full|first)\}/.exec(template);
        if (!slot) continue;
        const text = template.slice(0, slot.index) + value + template.slice(slot.index + slot[0].length);
        pieces.push({ text, planted: [{ start: slot.index, end: slot.index + value.length, kind }] });
      }
      for (let k = int(r, 1, 2); k > 0; k--) pieces.push({ text: fillLookalike(r, pick(r, LOOKALIKES)), planted: [] });
      if (r() < 0.3) pieces.push({ text: pick(r, [`As ${speakers[1]} said earlier, it depends.`, `I'm ${speakers[0]}, and I have been doing this a while.`, `Thanks, ${speakers[1]?.split(' ')[0]}.`]), planted: [] });
      for (let k = pieces.length - 1; k > 0; k--) {
        const j = int(r, 0, k);
        [pieces[k], pieces[j]] = [pieces[j] as (typeof pieces)[number], pieces[k] as (typeof pieces)[number]];
      }
      let text = '';
      const planted: Planted[] = [];
      for (const p of pieces) {
        if (text) text += ' ';
        for (const pl of p.planted) planted.push({ ...pl, start: pl.start + text.length, end: pl.end + text.length });
        text += p.text;
      }
      passages.push({ text, planted });
    }
    interviews.push({ speakers: [...speakers], passages });
  }
  return interviews;
}

/** A value of a kind as this corpus makes them, and the third parties' names of a set (for bench/redaction-real-planted.ts). */
export function plantedValue(r: Rng, kind: Exclude<RedactionKind, 'person'>, first: string, last: string): string {
  const make: Record<Exclude<RedactionKind, 'person'>, () => string> = {
    email: () => email(r, first, last),
    phone: () => phone(r),
    card: () => card(r),
    iban: () => iban(r),
    address: () => address(r),
    url: () => personalUrl(r, first, last),
    dob: () => birthDate(r),
  };
  return make[kind]();
}
export const thirdParties = (set: 'dev' | 'report'): { given: string[]; family: string[] } => ({ given: half(GIVEN, set), family: half(FAMILY, set) });
