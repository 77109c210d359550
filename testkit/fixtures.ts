/**
 * Transcript fixtures shared by tests and benchmarks: an interview as turns, a deterministic long
 * interview generator, and writers for every input format the service ingests (Teams/Zoom/paren VTT,
 * transcription-tool DOCX, multi-page PDF with running headers and page-number footers).
 */
import { Document, Packer, Paragraph, Tab, TextRun } from 'docx';
import PDFDocument from 'pdfkit';
import { seededRandom } from '../src/memory/seeded-random.ts';

export interface Turn {
  speaker: string;
  text: string;
  /** Seconds from the start of the recording. */
  start?: number;
}

const DANA = 'Dana Reyes';
const SAM = 'Sam Okafor';

export function sampleInterview(): Turn[] {
  const qa: Array<[string, string]> = [
    ['Thanks for making time, Sam. How do you usually start your working day?',
      "I always start with a long run before breakfast, usually about eight kilometres along the river. I never check email before I've run, because the inbox sets someone else's agenda for my morning."],
    ['Do you prefer working remotely or in an office?',
      "Remote, without question. I've worked from home since 2019 and I'm far more productive there. Here's the thing: offices are built for visibility, not for focus. I do go in once a week to see the team, and I love that day, but five days a week would drain me."],
    ['What about coffee? I hear you have strong opinions.',
      'I drink exactly two cups a day, both before noon, and I grind the beans myself. I never drink decaf and I think pod machines are a waste of good coffee and a lot of plastic.'],
    ['When you hire engineers, what do you look for first?',
      "Curiosity and the ability to write clearly. I don't care much about which university someone went to, and two of the best engineers I've worked with were self-taught. I always ask candidates to explain a bug they were proud of fixing, because how they tell that story says more than any whiteboard puzzle."],
    ['Speaking of open source, why do you spend so much time on it?',
      "Because I learned almost everything from other people's code for free, and contributing back feels like paying rent. I maintain a small parsing library and I answer issues every Sunday morning. I never merge a pull request without a test. Companies should pay the maintainers they depend on; R&D budgets are huge, yet the libraries underneath them are run by volunteers."],
    ['How do you deal with burnout?',
      'I protect my evenings and I never take meetings after five. When I feel burnout coming I cut my commitments quickly instead of pushing through. Running helps more than anything else I have tried.'],
    ['What was the hardest decision of your career so far?',
      "Leaving a stable job at a bank to join a four-person startup in 2016. My parents thought I was mad. The startup failed after two years, but I'd make the same choice again because I learned more there than in the five years before."],
    ['Last question. What advice would you give your younger self?',
      "Ask for help sooner. I wasted years trying to look like I knew everything. I always tell new hires now that saying I don't know is a sign of strength, not weakness."],
  ];
  return qa.flatMap(([q, a]) => [
    { speaker: DANA, text: q },
    { speaker: SAM, text: a },
  ]);
}

const bank = (s: string) => s.split('|');
const BANK = {
  topic: bank('remote work|hiring|open source|running|coffee|code review|mentoring|startups|product design|testing|deadlines|team rituals|public speaking|documentation|on-call rotations|budgets|travel|cooking|reading|sleep|meetings|feedback|pair programming|side projects|salary negotiation|career changes|technical debt|customer support|leadership|burnout|music|family|learning languages|city life|cycling|writing|investing|volunteering|gardening|chess'),
  noun: bank('team|project|manager|deadline|roadmap|prototype|library|database|meeting|schedule|budget|customer|release|interview|notebook|habit|routine|workshop|conference|garden|kitchen|bicycle|marathon|playlist|novel|spreadsheet|laptop|office|startup|contract|mentor|colleague|weekend|morning|evening|holiday|apartment|neighbourhood|river|mountain|festival|podcast|newsletter|journal|garage|studio|classroom|hospital|market|recipe|sketch|strategy|question|answer|mistake|lesson|promise|decision|argument|experiment|feature|bug|server|network|pipeline|dashboard|report|proposal|invoice|ticket|backlog|review|design|draft|plan|goal|risk|tradeoff|standard'),
  adj: bank('careful|honest|slow|quick|boring|exciting|messy|tidy|small|huge|cheap|expensive|quiet|noisy|simple|complicated|fragile|sturdy|useful|pointless|fair|unfair|healthy|exhausting|rewarding|stressful|calm|chaotic|practical|ambitious|modest|generous|strict|relaxed|predictable|surprising|reliable|clumsy|elegant|awkward|friendly|distant|local|remote|early|late|modern|old-fashioned|serious|playful|thoughtful|careless|patient|impatient|clear|vague|steady|risky|safe|obvious'),
  verb: bank('build:built|write:wrote|review:reviewed|plan:planned|test:tested|ship:shipped|design:designed|measure:measured|cook:cooked|read:read|run:ran|fix:fixed|teach:taught|learn:learned|hire:hired|manage:managed|question:questioned|rewrite:rewrote|document:documented|refactor:refactored|share:shared|protect:protected|cancel:cancelled|schedule:scheduled|sketch:sketched|organise:organised|explain:explained|simplify:simplified|estimate:estimated|discuss:discussed|track:tracked|avoid:avoided|change:changed|choose:chose|keep:kept|start:started|finish:finished|drop:dropped|defend:defended|rethink:rethought|celebrate:celebrated|postpone:postponed|automate:automated|delegate:delegated|repair:repaired|visit:visited|join:joined|leave:left|borrow:borrowed|save:saved'),
  place: bank('a bank|a small startup|a hospital|a university|a design agency|a logistics company|a newspaper|a games studio|a bakery|a charity|a consultancy|a school|a car factory|an airline|a record label|a bookshop|a shipping firm|a city council|a research lab|a bicycle shop'),
  when: bank('every morning|on Fridays|before lunch|after dinner|once a week|every quarter|at the end of each sprint|during the holidays|on long flights|late at night|on Sunday mornings|twice a month|before every release|in the first week|whenever I can|every single day|at least once a year|after a bad week|on the train|in winter'),
  reason: bank('it keeps me honest|nobody else will do it|it saves time later|the team expects it|it makes mistakes visible|I learned the hard way|it is cheaper in the long run|customers notice the difference|it forces me to slow down|it builds trust|I get bored otherwise|my first manager insisted on it|it gives me energy|it keeps the scope small|the alternative is worse|it is more fun that way|it helps new people|I hate surprises|it makes the work feel finished|it protects my evenings'),
  opener: bank('Honestly|To be fair|In my experience|Looking back|If I am honest|For what it is worth|Frankly|Most of the time|These days|Over the years|Oddly enough|In practice|Generally|On balance|Truthfully'),
  adverb: bank('always|usually|often|sometimes|rarely|never|almost always|hardly ever'),
  who: bank('my sister|my old manager|a friend from university|my grandmother|a colleague in Berlin|my first mentor|a customer|my partner|a former student|my neighbour|an investor|my brother|a recruiter|my coach|a designer I worked with'),
};

function pick<T>(list: readonly T[], rand: () => number): T {
  return list[Math.floor(rand() * list.length)] as T;
}

function answerSentence(rand: () => number): string {
  const [verb = 'build', past = 'built'] = pick(BANK.verb, rand).split(':');
  const noun = pick(BANK.noun, rand);
  const adj = pick(BANK.adj, rand);
  switch (Math.floor(rand() * 6)) {
    case 0: return `I ${pick(BANK.adverb, rand)} ${verb} the ${noun} ${pick(BANK.when, rand)}, because ${pick(BANK.reason, rand)}.`;
    case 1: return `${pick(BANK.opener, rand)}, I think a ${adj} ${noun} is better than a ${pick(BANK.adj, rand)} one.`;
    case 2: return `When I worked at ${pick(BANK.place, rand)}, we ${past} every ${noun} ${pick(BANK.when, rand)}.`;
    case 3: return `${capitalise(pick(BANK.who, rand))} once told me to ${verb} the ${noun} early, and I still do.`;
    case 4: return `I never ${verb} a ${noun} in a hurry, since ${pick(BANK.reason, rand)}.`;
    default: return `${pick(BANK.opener, rand)}, ${pick(BANK.topic, rand)} feels ${adj} to me, but I ${past} my mind about it twice.`;
  }
}

function question(rand: () => number): string {
  const topic = pick(BANK.topic, rand);
  const [verb = 'build'] = pick(BANK.verb, rand).split(':');
  switch (Math.floor(rand() * 5)) {
    case 0: return `What do you think about ${topic}?`;
    case 1: return `How has ${topic} changed the way you ${verb} a ${pick(BANK.noun, rand)}?`;
    case 2: return `Why do you ${verb} the ${pick(BANK.noun, rand)} ${pick(BANK.when, rand)}?`;
    case 3: return `Can you tell me about a time when ${topic} felt ${pick(BANK.adj, rand)}?`;
    default: return `Would you ever ${verb} a ${pick(BANK.noun, rand)} again, knowing what you know now?`;
  }
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const wordCount = (s: string) => s.split(/\s+/).filter(Boolean).length;

/**
 * A deterministic Dana/Sam interview of about `words` words (always the same for the same
 * arguments); another `seed` gives another interview of the same size (another person's words).
 */
export function longInterview(words: number, seed = 20240607): Turn[] {
  const rand = seededRandom(seed);
  const turns: Turn[] = [];
  let total = 0;
  while (total < words) {
    const q = question(rand);
    const sentences: string[] = [];
    for (let n = 2 + Math.floor(rand() * 7); n > 0; n--) sentences.push(answerSentence(rand));
    const a = sentences.join(' ');
    turns.push({ speaker: DANA, text: q }, { speaker: SAM, text: a });
    total += wordCount(q) + wordCount(a);
  }
  return turns;
}

// ---------------------------------------------------------------- VTT writers

const SECONDS_PER_WORD = 0.4;
const TURN_GAP = 0.6;

function clock(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

const escapeVtt = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

interface Cue { turn: number; first: boolean; start: number; end: number; text: string }

/** Split each turn into cues of at most 20 words with consecutive timings. */
function cues(turns: readonly Turn[], gap = TURN_GAP): Cue[] {
  const out: Cue[] = [];
  let at = 0;
  turns.forEach((turn, index) => {
    at = turn.start ?? at;
    const ws = turn.text.split(/\s+/).filter(Boolean);
    for (let i = 0; i < ws.length; i += 20) {
      const chunk = ws.slice(i, i + 20);
      const end = at + chunk.length * SECONDS_PER_WORD;
      out.push({ turn: index, first: i === 0, start: at, end, text: escapeVtt(chunk.join(' ')) });
      at = end;
    }
    at += gap;
  });
  return out;
}

const timing = (cue: Cue) => `${clock(cue.start)} --> ${clock(cue.end)}`;
const speakerOf = (turns: readonly Turn[], cue: Cue) => turns[cue.turn]?.speaker ?? '';

/** Microsoft Teams style: GUID-ish cue ids and `<v Name>text</v>` voice spans. */
export function teamsVtt(turns: Turn[]): string {
  const body = cues(turns).map(
    (c, i) => `5d1c0e3b-8f7a-4c2e-9b1d-${String(c.turn).padStart(12, '0')}/${i}-0\n${timing(c)}\n<v ${speakerOf(turns, c)}>${c.text}</v>`,
  );
  return `WEBVTT\n\n${body.join('\n\n')}\n`;
}

/** Zoom style: numbered cues, each `Name: text`. */
export function zoomVtt(turns: Turn[]): string {
  const body = cues(turns).map((c, i) => `${i + 1}\n${timing(c)}\n${speakerOf(turns, c)}: ${c.text}`);
  return `WEBVTT\n\n${body.join('\n\n')}\n`;
}

/** A `(Name)` line opens each turn's first cue; the turn's later cues carry no speaker. */
export function parenVtt(turns: Turn[]): string {
  const body = cues(turns).map((c) => `${timing(c)}\n${c.first ? `(${speakerOf(turns, c)})\n` : ''}${c.text}`);
  return `WEBVTT\n\n${body.join('\n\n')}\n`;
}

/** No speakers at all; a 4 s pause separates the texts (one paragraph each). */
export function monologueVtt(texts: string[]): string {
  const body = cues(texts.map((text) => ({ speaker: '', text })), 4).map((c) => `${timing(c)}\n${c.text}`);
  return `WEBVTT\n\n${body.join('\n\n')}\n`;
}

/** Start time of each turn as the VTT writers lay them out (so DOCX headers agree with VTT cues). */
function turnStarts(turns: readonly Turn[]): number[] {
  const starts: number[] = [];
  for (const cue of cues(turns)) if (cue.first) starts[cue.turn] = cue.start;
  return turns.map((t, i) => t.start ?? starts[i] ?? 0);
}

// ---------------------------------------------------------------- DOCX and PDF writers

/** Otter-style export: a "Name  00:01:07" paragraph, then the paragraph spoken. */
export async function makeDocx(turns: Turn[]): Promise<Buffer> {
  const starts = turnStarts(turns);
  const hms = (s: number) => clock(s).slice(0, 8);
  const children = turns.flatMap((turn, i) => [
    new Paragraph({ children: [new TextRun({ text: `${turn.speaker}  ${hms(starts[i] ?? 0)}`, bold: true })] }),
    new Paragraph({ children: [new TextRun(turn.text)] }),
  ]);
  return Packer.toBuffer(new Document({ sections: [{ children }] }));
}

export const PDF_HEADER = 'Interview transcript — confidential';

/** Multi-page PDF: a running header and a page-number footer on every page; "Q:"/"A:" or "NAME:" turns. */
export async function makePdf(turns: Turn[], opts: { qa?: boolean } = {}): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'LETTER', margins: { top: 72, bottom: 72, left: 72, right: 72 }, bufferPages: true });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  const interviewer = turns[0]?.speaker;
  doc.font('Helvetica').fontSize(12);
  for (const turn of turns) {
    const label = opts.qa ? (turn.speaker === interviewer ? 'Q' : 'A') : turn.speaker.toUpperCase();
    doc.text(`${label}: ${turn.text}`, { align: 'left', lineGap: 4 });
    doc.moveDown(0.8);
  }
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0; // writing inside the margin must not add a page
    doc.fontSize(9).text(PDF_HEADER, 72, 36, { lineBreak: false });
    doc.text(String(i + 1), 0, doc.page.height - 48, { align: 'center', width: doc.page.width, lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

// ---------------------------------------------------------------- free-form writers for edge cases

/** A DOCX with exactly these paragraphs (tabs inside a paragraph become real tab stops). */
export async function docxFromParagraphs(paragraphs: string[]): Promise<Buffer> {
  const children = paragraphs.map(
    (p) => new Paragraph({ children: p.split('\t').map((part, i) => new TextRun({ children: i ? [new Tab(), part] : [part] })) }),
  );
  return Packer.toBuffer(new Document({ sections: [{ children }] }));
}

export interface PdfPagesOptions {
  /** Running header drawn at the top of every page. */
  header?: string;
  /** Footer text for a page, e.g. (n, total) => `Page ${n} of ${total}`. */
  footer?: (page: number, total: number) => string;
  /** Encrypt the PDF with this user (open) password. */
  userPassword?: string;
}

/** A PDF whose pages hold exactly these lines (no wrapping), one line per 14 pt, from the top margin. */
export async function pdfFromPages(pages: string[][], opts: PdfPagesOptions = {}): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: 72,
    autoFirstPage: false,
    ...(opts.userPassword ? { userPassword: opts.userPassword, ownerPassword: 'owner', pdfVersion: '1.7' as const } : {}),
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  pages.forEach((lines, index) => {
    doc.addPage();
    doc.font('Helvetica').fontSize(11);
    if (opts.header) doc.text(opts.header, 72, 36, { lineBreak: false });
    lines.forEach((line, j) => doc.text(line, 72, 72 + j * 14, { lineBreak: false }));
    const footer = opts.footer?.(index + 1, pages.length);
    if (footer) doc.text(footer, 72, doc.page.height - 48, { lineBreak: false });
  });
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
