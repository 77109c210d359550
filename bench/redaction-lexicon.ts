/**
 * Builds src/privacy/lexicon/corpus-names.json, the names the redaction's person detector learns
 * from ../shared/data/corpus (Changelog podcasts, CC BY-SA 4.0, see its SOURCES.md):
 *
 * - `notPeople`: capitalised words said inside a sentence that are, in this corpus, products,
 *   projects, companies or places: said often (≥ MIN_COUNT times in ≥ MIN_EPISODES episodes), never
 *   or almost never in a person's context ("X said", "X told me", "my friend X", "thanks, X", "X
 *   and I", "X, who" … at most PERSON_SHARE of the times), and often in a thing's context ("the X",
 *   "in/on/at X", "using X", "X 2.0", "X's API", "X cluster", written in lower case too …: at
 *   least THING_SHARE of the times); and no word of a speaker's name in the corpus;
 * - `common`: words said in lower case at least COMMON_COUNT times (what a capitalised word at a
 *   sentence's start, or an e-mail's or URL's handle made of them, most likely is);
 * - `givenNames`: the first words of the corpus's speakers' names (people, by construction), and
 *   words said as names (≥ PERSON_WORD_SHARE of their mentions in a person's context, ≤
 *   THING_OF_PERSON_SHARE in a thing's, never a common word): given names and surnames;
 * - `publicFigures` and `publicAliases`: full names said by many shows' speakers of the train split
 *   about people not in the conversation, and the surnames standing for one of them alone
 *   (bench/redaction-public-figures.ts).
 *
 * Episodes the report set of bench/redaction-real.ts draws from (seed 41) are left out, so that
 * set measures names the lexicon never saw. Run: `node bench/redaction-lexicon.ts [--write]`
 * (without --write: prints the lists' sizes and samples).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTurns } from '../eval/interviews.ts';
import { minePublicFigures } from './redaction-public-figures.ts';
import { choose, CORPUS, episodeFiles, showsOf } from './redaction-real-passages.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'src', 'privacy', 'lexicon', 'corpus-names.json');
/** The report set's seed (bench/redaction-real.ts). */
const REPORT_SEED = 41;
/** A word must be said this often, in this many episodes, to be classed at all (rarer words are left to the detector's other rules). */
const MIN_COUNT = 8;
const MIN_EPISODES = 3;
/** At most this share of a thing's mentions may look like a person's ("Docker said" happens, rarely). */
const PERSON_SHARE = 0.03;
/** At least this share of its mentions must look like a thing's. */
const THING_SHARE = 0.2;
/** A given name must be a thing's this often to be listed (Ruby the language, not Ruby a colleague). */
const GIVEN_THING_SHARE = 0.5;
/** A word is learned as (part of) a person's name when at least PERSON_WORD_SHARE of its MIN_PERSON_COUNT or more mentions, in MIN_PERSON_EPISODES episodes, are a person's, and at most THING_OF_PERSON_SHARE a thing's. */
const MIN_PERSON_COUNT = 3;
const MIN_PERSON_EPISODES = 2;
const PERSON_WORD_SHARE = 0.1;
const THING_OF_PERSON_SHARE = 0.1;
/** A word said in lower case this often is a common word (about once in 350,000 words of the corpus). */
const COMMON_COUNT = 40;

const PERSON_AFTER = /^(?:['’]s (?:wife|husband|son|daughter|mom|dad|brother|sister|partner|kids?|family|birthday)\b| (?:said|says|told|tells|asked|asks|thinks|thought|mentioned|tweeted|wrote|writes|replied|laughed|joked|was saying|was telling|was like|is like|and I\b|and me\b|himself|herself))/;
const PERSON_BEFORE = /(?:\b(?:my|our|his|her|their) (?:good |old |dear |best )?(?:friend|colleague|cofounder|co-founder|boss|manager|wife|husband|son|daughter|brother|sister|mom|dad|partner|coworker|co-worker|buddy|mentor|cousin|uncle|aunt)s?,? |\b(?:thanks|thank you|talked to|talking to|spoke to|spoke with|talking with|met|interviewed|married|asked|told|hired|Mr\.?|Mrs\.?|Ms\.?|Dr\.?),? )$/i;
const THING_BEFORE = /\b(?:the|a|an|this|these|those|our|your|their|its|some|any|every|use|using|used|uses|install|installed|installing|run|running|runs|deploy|deployed|deploying|adopt|adopted|switched to|migrate to|migrated to|built on|build on|written in|write in|wrote in|coding in|code in|in|on|at|into|onto|via|inside|within|near|across)\s$/i;
const THING_AFTER = /^(?:\s?v?\d|\.js\b|['’]s (?:API|CLI|SDK|docs|website|site|team|founder|CEO|model|servers?)\b|\s(?:API|CLI|SDK|apps?|clusters?|servers?|projects?|repos?|repository|librar(?:y|ies)|frameworks?|plugins?|community|ecosystem|teams?|compan(?:y|ies)|instances?|images?|containers?|config|configuration|files?|docs|documentation|versions?|releases?|core|engine|platform|services?|stack|code|codebase|integration|accounts?|Hub|Cloud|Labs|Inc|Corp|Foundation|Conf|Con|Summit|University|College|Street|Avenue|Road|County|City|Bay|Valley|area|office|offices|headquarters|airport|language|runtime|compiler|package|packages|module|modules|syntax|feature|features|support|users?|developers?|devs|engineers?|employees|customers|folks|people|world|land|conference|meetup|podcast|show|episode|newsletter|channel|blog|stock|shares)\b)/i;

/** `--why Word,Word`: prints the person contexts found for these words. */
const WHY = process.argv.includes('--why') ? (process.argv[process.argv.indexOf('--why') + 1] ?? '').split(',') : [];
const isCapitalised = (w: string) => /^\p{Lu}(?:\p{Ll}|['’]\p{Lu})/u.test(w);
const bare = (w: string) => w.replace(/['’]s?$/u, '');

interface Tally {
  count: number;
  person: number;
  thing: number;
  episodes: Set<string>;
}

/** The given names compromise knows (its lexicon's FirstName, MaleName and FemaleName words). */
function compromiseFirstNames(): Set<string> {
  const nlp = createRequire(import.meta.url)('compromise') as { world: () => { model: { one: { lexicon: Record<string, string | string[]> } } } };
  const names = new Set<string>();
  for (const [w, tag] of Object.entries(nlp.world().model.one.lexicon)) if ([tag].flat().some((t) => /^(?:FirstName|MaleName|FemaleName)$/.test(t))) names.add(w);
  return names;
}

function mine(): { notPeople: string[]; common: string[]; givenNames: string[]; stats: Map<string, Tally>; lower: Map<string, number>; files: string[] } {
  const report = showsOf(choose({ seed: REPORT_SEED })).files;
  const files = episodeFiles().filter((f) => !report.has(f));
  const stats = new Map<string, Tally>();
  const lower = new Map<string, number>();
  const speakerWords = new Set<string>();
  const given = new Set<string>();
  const firstNames = compromiseFirstNames();
  for (const file of files) {
    const turns = parseTurns(fs.readFileSync(path.join(CORPUS, file), 'utf8'));
    for (const t of turns) {
      const parts = t.speaker.split(/\s+/).filter((w) => /^\p{Lu}[\p{L}'’-]+$/u.test(w));
      for (const w of parts) speakerWords.add(w.toLowerCase());
      if (parts.length >= 2 && parts[0]) given.add(parts[0].toLowerCase());
      // URLs, e-mails and handles are not words said.
      const text = t.text.replace(/\S*(?:@|:\/\/|www\.|\.(?:com|org|io|net|dev)\b)\S*/g, ' ');
      for (const m of text.matchAll(/\p{L}[\p{L}\p{N}'’-]*/gu)) {
        const w = m[0];
        const before = text.slice(Math.max(0, m.index - 40), m.index);
        const after = text.slice(m.index + w.length, m.index + w.length + 40);
        if (/^\p{Ll}+$/u.test(w)) {
          // Lower case inside a sentence (a caption's sentence start is rare enough here).
          lower.set(w, (lower.get(w) ?? 0) + 1);
          continue;
        }
        if (!isCapitalised(w)) continue;
        // Inside a sentence: a word before it, and no sentence end, quote, colon or dash between.
        if (!/[\p{L}\p{N},;]\s$/u.test(before) || /(?:[.!?…:"“]|--|—)\s*$/u.test(before)) continue;
        const key = bare(w);
        const s = stats.get(key) ?? { count: 0, person: 0, thing: 0, episodes: new Set<string>() };
        s.count++;
        s.episodes.add(file);
        const previous = /(\p{Lu}[\p{L}'’-]*)\s$/u.exec(before)?.[1]?.toLowerCase() ?? '';
        if (PERSON_AFTER.test(after.slice(w.length - key.length)) || PERSON_BEFORE.test(before) || firstNames.has(previous) || given.has(previous)) {
          s.person++;
          if (WHY.includes(key)) console.log(`person: …${before}⟦${w}⟧${after}…`.replace(/\s+/g, ' '));
        }
        else if (THING_BEFORE.test(before) || THING_AFTER.test(after)) s.thing++;
        stats.set(key, s);
      }
    }
  }
  for (const [w, s] of stats) {
    const l = lower.get(w.toLowerCase()) ?? 0;
    // Written in lower case too (docker, git, npm): a thing's mention.
    s.thing += Math.min(l, s.count);
  }
  // A given name (compromise's or a speaker's) is a thing only when it is one at least GIVEN_THING_SHARE of the time (Ruby, Julia, Swift).
  const isGiven = (w: string) => firstNames.has(w.toLowerCase()) || given.has(w.toLowerCase());
  const notPeople = [...stats]
    .filter(([w, s]) => s.count >= MIN_COUNT && s.episodes.size >= MIN_EPISODES && s.person <= PERSON_SHARE * s.count && s.thing >= (isGiven(w) ? GIVEN_THING_SHARE : THING_SHARE) * s.count)
    .map(([w]) => w)
    .sort();
  // Words said as people's names: often in a person's context, seldom in a thing's, never a common word.
  const people = [...stats]
    .filter(([w, s]) => s.count >= MIN_PERSON_COUNT && s.episodes.size >= MIN_PERSON_EPISODES && s.person >= PERSON_WORD_SHARE * s.count && s.thing <= THING_OF_PERSON_SHARE * s.count && (lower.get(w.toLowerCase()) ?? 0) < COMMON_COUNT && /^\p{Lu}\p{Ll}+$/u.test(w))
    .map(([w]) => w.toLowerCase());
  const common = [...lower].filter(([, n]) => n >= COMMON_COUNT).map(([w]) => w).sort();
  // A speaker label's first word that is a common word ("Audience Member", "Just …") is no given name.
  const speakersGiven = [...given].filter((w) => (lower.get(w) ?? 0) < COMMON_COUNT || firstNames.has(w));
  return { notPeople, common, givenNames: [...new Set([...speakersGiven, ...people])].sort(), stats, lower, files };
}

const { notPeople, common, givenNames, stats, lower, files } = mine();
const givenSet = new Set([...givenNames, ...compromiseFirstNames()]);
const notPeopleSet = new Set(notPeople);
const { publicFigures, publicAliases } = minePublicFigures(
  files,
  (w) => givenSet.has(w),
  (w) => (lower.get(w) ?? 0) >= COMMON_COUNT,
  (w) => notPeopleSet.has(w),
);
console.log(`notPeople ${notPeople.length}, common ${common.length}, givenNames ${givenNames.length}, publicFigures ${publicFigures.length}, publicAliases ${publicAliases.length}`);
if (process.argv.includes('--figures')) console.log(publicFigures.join(', '), '\n', publicAliases.join(', '));
if (process.argv.includes('--write')) {
  const data = {
    about:
      'Learned from ../shared/data/corpus (Changelog Media podcasts, copyright Changelog Media LLC, CC BY-SA 4.0: https://creativecommons.org/licenses/by-sa/4.0/), without the episodes of the report set of bench/redaction-real.ts (seed 41), by bench/redaction-lexicon.ts: see there how. This file is shared under the same licence.',
    notPeople,
    common,
    givenNames,
    publicFigures,
    publicAliases,
  };
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, `${JSON.stringify(data, null, 0).replace(/\],"/g, '],\n"')}\n`);
  console.log(`written ${path.relative(ROOT, OUT)}`);
} else {
  const probe = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--why');
  for (const w of probe) {
    const s = stats.get(w);
    console.log(w, s ? { count: s.count, person: s.person, thing: s.thing, episodes: s.episodes.size } : null, 'lower', lower.get(w.toLowerCase()) ?? 0, notPeople.includes(w) ? 'NOT PERSON' : '');
  }
}
