/**
 * `npm run bench:redaction-real`: the redaction stage (src/privacy) on REAL transcripts, judged by
 * hand. bench/redaction.ts scores planted values in template passages; this one reads real
 * conversations of ../shared/data/corpus (Changelog podcasts, CC BY-SA 4.0, see its SOURCES.md;
 * read from beside the repository, never copied into it) and lists what the detectors find there.
 *
 * Passages: every turn of every episode cut at sentence ends into chunks of 40–120 words (a
 * turn's rest under 40 words, and turns under 40 words, are no passage). With SEED, (b) 100
 * passages drawn uniformly, then (a) 300 drawn among the others that hold a digit or a capitalised
 * word not at a sentence's start (other than "I"): where false positives hide.
 *
 * Each episode holding a chosen passage is redacted as the service redacts a transcript at
 * ingestion (privacy/transcript.ts, redactUtterances): every turn as one batch, the speakers'
 * names (the mind's name, the person, every turn's speaker) never third parties. The spans come
 * from redactWithKnownNumbers with the speakers redactUtterances passes (it returns no spans);
 * the counts are checked against redactUtterances' own.
 *
 *   node bench/redaction-real.ts [--out DIR]        writes DIR/detections.txt (every detection with its
 *                                                  kind, matched text and ~60 characters of context),
 *                                                  DIR/uniform.txt (the 100 uniform passages in full,
 *                                                  to annotate for recall) and DIR/detections.json
 *   node bench/redaction-real.ts --structured       DIR/structured.txt: the structured detectors over the whole
 *                                                  corpus (see `structured` below)
 *   node bench/redaction-real.ts --score FILE       precision and recall per kind from hand judgements
 *
 * DIR defaults to /tmp/redaction-real: it holds corpus text, so it is never in the repository.
 * The judgements file (JSON): `{ "detections": { "<detection id>": "tp" | "fp" | "public" },
 * "recall": { "<passage id>": [{ "kind": "person", "text": "Maria", "nth"?: 1, "public"?: true }] } }`:
 * every value a passage holds that should have been replaced (a passage with none has no entry).
 * "public" is a public figure's name (a false positive by the rule stated in BENCHMARKS.md, also
 * counted right in a second, lenient column; in `recall`, listed apart and not counted). A company's
 * or product's name taken as a person is "fp".
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTurns } from '../eval/interviews.ts';
import { seededRandom } from '../src/memory/seeded-random.ts';
import { findStructured, type Found } from '../src/privacy/detect.ts';
import { REDACTION_KINDS, type RedactionKind } from '../src/privacy/kinds.ts';
import { redactWithKnownNumbers } from '../src/privacy/redactor.ts';
import { redactUtterances } from '../src/privacy/transcript.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = path.resolve(ROOT, '..', 'shared', 'data', 'corpus', 'changelog');
const SEED = 41;
const TARGETED = 300;
const UNIFORM = 100;
const MIN_WORDS = 40;
const MAX_WORDS = 120;
const KEY = 'k'.repeat(32);

const arg = (name: string): string | undefined => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const words = (s: string): number => s.split(/\s+/).filter(Boolean).length;

interface Passage {
  id: string;
  set: 'targeted' | 'uniform';
  file: string;
  turn: number;
  /** [start, end) of the passage in its turn's text. */
  start: number;
  end: number;
}

interface Detection {
  id: string;
  passage: string;
  kind: RedactionKind;
  value: string;
  /** [start, end) in the passage's text. */
  start: number;
  end: number;
}

/** A turn's 40–120-word chunks, cut at sentence ends (a sentence over 120 words is cut at a word). */
function chunks(text: string): Array<[number, number]> {
  const sentences: Array<[number, number]> = [];
  const ends = /[.!?…]+["'”’)]*\s+/g;
  let at = 0;
  for (const m of text.matchAll(ends)) {
    sentences.push([at, m.index + m[0].length]);
    at = m.index + m[0].length;
  }
  if (at < text.length) sentences.push([at, text.length]);
  const out: Array<[number, number]> = [];
  let from = -1;
  let n = 0;
  const flush = (to: number) => {
    if (from >= 0 && n >= MIN_WORDS) out.push([from, to]);
    from = -1;
    n = 0;
  };
  for (const [s, e] of sentences) {
    const w = words(text.slice(s, e));
    if (w > MAX_WORDS) {
      flush(s);
      // A run-on sentence: cut into pieces of MAX_WORDS words.
      const re = /\S+\s*/g;
      let piece = s;
      let count = 0;
      for (const m of text.slice(s, e).matchAll(re)) {
        count++;
        if (count === MAX_WORDS) {
          out.push([piece, s + m.index + m[0].length]);
          piece = s + m.index + m[0].length;
          count = 0;
        }
      }
      if (count >= MIN_WORDS) out.push([piece, e]);
      continue;
    }
    if (from >= 0 && n + w > MAX_WORDS) flush(s);
    if (from < 0) from = s;
    n += w;
    if (n >= MIN_WORDS) flush(e);
  }
  flush(text.length);
  return out.map(([s, e]) => [s, s + text.slice(s, e).trimEnd().length]);
}

/** A digit, or a capitalised word not at a sentence's start and not "I" (I'm, I'll …). */
function hasHidingPlace(text: string): boolean {
  if (/\d/.test(text)) return true;
  for (const m of text.matchAll(/\p{Lu}[\p{L}'’-]*/gu)) {
    if (/^I(?:['’]\p{L}+)?$/u.test(m[0])) continue;
    const before = text.slice(0, m.index).trimEnd();
    if (before === '' || /[.!?…:]["'”’)]*$/.test(before)) continue;
    if (m.index > 0 && !/[\s"'“‘(\-—]/.test(text[m.index - 1] ?? ' ')) continue; // inside a word (camelCase)
    return true;
  }
  return false;
}

function episodeFiles(): string[] {
  return fs
    .readdirSync(CORPUS)
    .sort()
    .flatMap((show) =>
      fs
        .readdirSync(path.join(CORPUS, show))
        .filter((f) => f.endsWith('.md'))
        .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
        .map((f) => path.join(show, f)),
    );
}

const turnsOf = new Map<string, ReturnType<typeof parseTurns>>();
const turns = (file: string) => {
  let t = turnsOf.get(file);
  if (!t) {
    t = parseTurns(fs.readFileSync(path.join(CORPUS, file), 'utf8'));
    turnsOf.set(file, t);
  }
  return t;
};

function choose(): Passage[] {
  const all: Array<Omit<Passage, 'id' | 'set'> & { hiding: boolean }> = [];
  for (const file of episodeFiles()) {
    turns(file).forEach((t, turn) => {
      for (const [start, end] of chunks(t.text)) all.push({ file, turn, start, end, hiding: hasHidingPlace(t.text.slice(start, end)) });
    });
    turnsOf.delete(file); // parsed again for the chosen ones only
  }
  const rng = seededRandom(SEED);
  const draw = <T>(pool: T[], n: number): T[] => {
    const left = [...pool];
    const out: T[] = [];
    while (out.length < n && left.length > 0) out.push(left.splice(Math.floor(rng() * left.length), 1)[0] as T);
    return out;
  };
  const uniform = draw(all, UNIFORM);
  const taken = new Set(uniform);
  const targeted = draw(
    all.filter((p) => p.hiding && !taken.has(p)),
    TARGETED,
  );
  const hiding = all.filter((p) => p.hiding).length;
  console.error(`${all.length} passages of ${MIN_WORDS}–${MAX_WORDS} words in the corpus, ${hiding} with a digit or a capitalised word inside a sentence`);
  const pad = (n: number) => String(n + 1).padStart(3, '0');
  return [
    ...targeted.map(({ hiding: _h, ...p }, i) => ({ ...p, id: `A${pad(i)}`, set: 'targeted' as const })),
    ...uniform.map(({ hiding: _h, ...p }, i) => ({ ...p, id: `U${pad(i)}`, set: 'uniform' as const })),
  ];
}

/** The episode redacted as the service redacts a transcript (privacy/transcript.ts): its spans per turn. */
function redactEpisode(file: string): Found[][] {
  const ts = turns(file);
  const spoken = new Map<string, number>();
  for (const t of ts) spoken.set(t.speaker, (spoken.get(t.speaker) ?? 0) + words(t.text));
  // The mind is the one who speaks most (the guest of a one-to-one show); its name and speaker label are that speaker's.
  const person = [...spoken].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  const utterances = ts.map((t) => ({ speaker: t.speaker as string | null, text: t.text }));
  const names = [person, person];
  // What redactUtterances passes to the redactor (it returns no spans): the names and every turn's speaker.
  const speakers = [...new Set([...names, ...utterances.map((u) => u.speaker)])];
  const { found, counts } = redactWithKnownNumbers(
    utterances.map((u) => u.text),
    { speakers, key: KEY, known: [] },
  );
  const service = redactUtterances(utterances, { mode: 'stored', key: KEY, known: [] }, names);
  if (JSON.stringify(service.counts) !== JSON.stringify(counts)) throw new Error(`${file}: the adapter's counts differ from redactUtterances'`);
  return found;
}

const passageText = (p: Passage): string => (turns(p.file)[p.turn]?.text ?? '').slice(p.start, p.end);

function run(out: string): void {
  const passages = choose();
  const byFile = new Map<string, Passage[]>();
  for (const p of passages) byFile.set(p.file, [...(byFile.get(p.file) ?? []), p]);
  const detections: Detection[] = [];
  const t0 = performance.now();
  for (const [file, ps] of byFile) {
    const found = redactEpisode(file);
    for (const p of ps) {
      let n = 0;
      for (const s of found[p.turn] ?? []) {
        if (s.end <= p.start || s.start >= p.end) continue;
        const start = Math.max(s.start, p.start) - p.start;
        const end = Math.min(s.end, p.end) - p.start;
        detections.push({ id: `${p.id}.${++n}`, passage: p.id, kind: s.kind, value: s.value, start, end });
      }
    }
    turnsOf.delete(file);
  }
  console.error(`${passages.length} passages from ${byFile.size} episodes redacted in ${((performance.now() - t0) / 1000).toFixed(0)} s: ${detections.length} detections`);
  fs.mkdirSync(out, { recursive: true });
  const texts = new Map(passages.map((p) => [p.id, passageText(p)]));
  const line = (d: Detection): string => {
    const text = texts.get(d.passage) ?? '';
    const before = text.slice(Math.max(0, d.start - 60), d.start).replace(/\s+/g, ' ');
    const after = text.slice(d.end, d.end + 60).replace(/\s+/g, ' ');
    return `${d.id}\t${d.kind}\t«${d.value}»\t…${before}⟦${text.slice(d.start, d.end)}⟧${after}…`;
  };
  fs.writeFileSync(path.join(out, 'detections.txt'), `${detections.map(line).join('\n')}\n`);
  const uniform = passages.filter((p) => p.set === 'uniform');
  fs.writeFileSync(
    path.join(out, 'uniform.txt'),
    uniform
      .map((p) => {
        const ds = detections.filter((d) => d.passage === p.id);
        return `## ${p.id} ${p.file} turn ${p.turn} (${turns(p.file)[p.turn]?.speaker ?? '?'})\n${texts.get(p.id) ?? ''}\n-- detected: ${ds.map((d) => `${d.id} ${d.kind} «${d.value}»`).join('; ') || 'nothing'}\n`;
      })
      .join('\n'),
  );
  fs.writeFileSync(path.join(out, 'detections.json'), JSON.stringify({ seed: SEED, passages: passages.map((p) => ({ ...p, text: texts.get(p.id) })), detections }, null, 1));
  console.error(`written: ${path.join(out, 'detections.txt')}, uniform.txt, detections.json`);
}

interface Judgements {
  detections: Record<string, 'tp' | 'fp' | 'public'>;
  recall: Record<string, Array<{ kind: RedactionKind; text: string; nth?: number; public?: boolean }>>;
}

function score(file: string, out: string): void {
  const saved = JSON.parse(fs.readFileSync(path.join(out, 'detections.json'), 'utf8')) as { seed: number; passages: Array<Passage & { text: string }>; detections: Detection[] };
  const judged = JSON.parse(fs.readFileSync(file, 'utf8')) as Judgements;
  const unjudged = saved.detections.filter((d) => !(d.id in judged.detections));
  if (unjudged.length > 0) throw new Error(`${unjudged.length} detections not judged, first ${unjudged[0]?.id}`);
  const row = (k: RedactionKind, set?: Passage['set']) => {
    const ds = saved.detections.filter((d) => d.kind === k && (!set || saved.passages.find((p) => p.id === d.passage)?.set === set));
    const tp = ds.filter((d) => judged.detections[d.id] === 'tp').length;
    const pub = ds.filter((d) => judged.detections[d.id] === 'public').length;
    return { n: ds.length, tp, pub, fp: ds.length - tp - pub };
  };
  const f = (n: number, d: number) => (d === 0 ? '—' : (n / d).toFixed(3));
  console.log(`seed ${saved.seed}: ${saved.passages.length} passages, ${saved.detections.length} detections\n`);
  console.log('| kind | detected | true | false (of which public figures) | precision | precision, public figures counted right |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const k of REDACTION_KINDS) {
    const r = row(k);
    console.log(`| ${k} | ${r.n} | ${r.tp} | ${r.fp + r.pub}${r.pub ? ` (${r.pub})` : ''} | ${f(r.tp, r.n)} | ${f(r.tp + r.pub, r.n)} |`);
  }
  for (const set of ['targeted', 'uniform'] as const) {
    const parts = REDACTION_KINDS.map((k) => [k, row(k, set)] as const).filter(([, r]) => r.n > 0);
    console.log(`\n${set}: ${parts.map(([k, r]) => `${k} ${r.tp}/${r.n}`).join(', ')}`);
  }
  // Recall: a value counts as found when spans of its kind cover ≥ 90% of its non-space characters.
  // A public figure's name is no third party's: listed apart ("public": true), not in the recall.
  const setOf = (pid: string) => saved.passages.find((x) => x.id === pid)?.set;
  const digits = (set: Passage['set']) => saved.passages.filter((p) => p.set === set && /\d/.test(p.text)).length;
  console.log(`\npassages with a digit: ${digits('targeted')} of the targeted, ${digits('uniform')} of the uniform`);
  for (const set of ['uniform', 'targeted'] as const) {
    const annotated = Object.keys(judged.recall).filter((pid) => setOf(pid) === set).length;
    console.log(`\n${set} passages (every one read; ${annotated} hold a value to replace)`);
    console.log('| kind | values | found | recall |');
    console.log('|---|---:|---:|---:|');
    const misses: string[] = [];
    const publicFound: string[] = [];
    for (const k of REDACTION_KINDS) {
      let total = 0;
      let found = 0;
      for (const [pid, values] of Object.entries(judged.recall)) {
        if (setOf(pid) !== set) continue;
        const p = saved.passages.find((x) => x.id === pid);
        if (!p) throw new Error(`no passage ${pid}`);
        for (const v of values) {
          if (v.kind !== k) continue;
          let at = -1;
          for (let i = 0; i < (v.nth ?? 1); i++) at = p.text.indexOf(v.text, at + 1);
          if (at < 0) throw new Error(`${pid}: «${v.text}» not in the passage`);
          const spans = saved.detections.filter((d) => d.passage === pid && d.kind === k);
          let chars = 0;
          let covered = 0;
          for (let c = at; c < at + v.text.length; c++) {
            if (/\s/.test(p.text[c] ?? ' ')) continue;
            chars++;
            if (spans.some((s) => s.start <= c && c < s.end)) covered++;
          }
          const hit = covered >= 0.9 * chars;
          if (v.public) {
            publicFound.push(`${v.text} ${hit ? 'replaced' : 'kept'}`);
            continue;
          }
          total++;
          if (hit) found++;
          else misses.push(`${pid} ${k} «${v.text}»`);
        }
      }
      console.log(`| ${k} | ${total} | ${found} | ${total === 0 ? '— (no case)' : total < 10 ? `${f(found, total)} (too few to measure)` : f(found, total)} |`);
    }
    console.log(`missed: ${misses.join('; ') || 'none'}`);
    console.log(`public figures (not counted): ${publicFound.join('; ') || 'none'}`);
  }
}

/**
 * `--structured`: the detectors of everything but names (findStructured, the structured half of
 * detectBatch; a name's span never displaces them) over EVERY turn of the corpus, since 400
 * passages hold almost no digits, e-mails or URLs. Writes DIR/structured.txt; every detection is
 * judged but the URLs, of which URL_SAMPLE drawn with SEED are (marked `*`).
 */
const URL_SAMPLE = 60;
function structured(out: string): void {
  const found: Array<{ id: string; kind: RedactionKind; value: string; context: string }> = [];
  for (const file of episodeFiles()) {
    for (const t of parseTurns(fs.readFileSync(path.join(CORPUS, file), 'utf8'))) {
      for (const s of findStructured(t.text)) {
        const context = `${t.text.slice(Math.max(0, s.start - 60), s.start)}⟦${s.value}⟧${t.text.slice(s.end, s.end + 60)}`.replace(/\s+/g, ' ');
        found.push({ id: `S${String(found.length + 1).padStart(4, '0')}`, kind: s.kind, value: s.value, context });
      }
    }
  }
  const rng = seededRandom(SEED);
  const urls = found.filter((d) => d.kind === 'url');
  const sampled = new Set<string>();
  while (sampled.size < Math.min(URL_SAMPLE, urls.length)) sampled.add(urls[Math.floor(rng() * urls.length)]?.id ?? '');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'structured.txt'), `${found.map((d) => `${d.id}${sampled.has(d.id) ? '*' : ''}\t${d.kind}\t«${d.value}»\t…${d.context}…`).join('\n')}\n`);
  fs.writeFileSync(path.join(out, 'structured.json'), JSON.stringify({ found, sampled: [...sampled] }, null, 1));
  const byKind = REDACTION_KINDS.map((k) => `${k} ${found.filter((d) => d.kind === k).length}`).join(', ');
  console.error(`${found.length} detections in the whole corpus (${byKind}): ${path.join(out, 'structured.txt')}`);
}

/** Precision of the structured detections judged (`"structured": { "<id>": "tp" | "fp" | "public" }` in the judgements). */
function scoreStructured(file: string, out: string): void {
  const saved = JSON.parse(fs.readFileSync(path.join(out, 'structured.json'), 'utf8')) as { found: Array<{ id: string; kind: RedactionKind }>; sampled: string[] };
  const judged = (JSON.parse(fs.readFileSync(file, 'utf8')) as { structured?: Record<string, 'tp' | 'fp' | 'public'> }).structured ?? {};
  console.log('\nstructured kinds over every turn of the corpus (URLs: a seeded sample)');
  console.log('| kind | detected | judged | true | false (of which public figures) | precision |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const k of REDACTION_KINDS.filter((k) => k !== 'person')) {
    const all = saved.found.filter((d) => d.kind === k);
    const toJudge = k === 'url' ? all.filter((d) => saved.sampled.includes(d.id)) : all;
    const missing = toJudge.filter((d) => !(d.id in judged));
    if (missing.length > 0) throw new Error(`${missing.length} ${k} detections not judged, first ${missing[0]?.id}`);
    const tp = toJudge.filter((d) => judged[d.id] === 'tp').length;
    const pub = toJudge.filter((d) => judged[d.id] === 'public').length;
    const fp = toJudge.length - tp;
    console.log(`| ${k} | ${all.length} | ${toJudge.length} | ${tp} | ${fp}${pub ? ` (${pub})` : ''} | ${toJudge.length ? (tp / toJudge.length).toFixed(3) : '—'} |`);
  }
}

const out = arg('--out') ?? '/tmp/redaction-real';
const judgements = arg('--score');
if (judgements) {
  score(judgements, out);
  if (fs.existsSync(path.join(out, 'structured.json'))) scoreStructured(judgements, out);
} else if (process.argv.includes('--structured')) structured(out);
else run(out);
