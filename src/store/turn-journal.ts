import fs from 'node:fs';
import path from 'node:path';
import type { AnsweredTurn } from '../domain/conversation.ts';

/** A closed part of the journal, removed once its turns are in the database. */
export type JournalSegment = string;

/**
 * The answered turns not yet in the database, kept where a crash of the process cannot lose them
 * (domain/pending-turns.ts stores them in batches, then removes their segment).
 */
export interface TurnJournal {
  /** What a process that stopped before storing them left behind, oldest first, and the segments they are in. */
  leftOver(): { turns: AnsweredTurn[]; segments: JournalSegment[]; unreadable: number };
  /** Kept once this returns: a process killed right after loses nothing (not fsynced: a power loss can, as SQLite's own WAL commits can). */
  append(turn: AnsweredTurn): void;
  /** Ends the segment written so far (null when nothing was appended since the last seal): later turns go to a new one. */
  seal(): JournalSegment | null;
  /** Forgets a sealed segment whose turns are stored. */
  remove(segment: JournalSegment): void;
  /** Gives the journal up (a segment still holding turns stays on disk, read at the next start). */
  close(): void;
}

/** Journal folders held by this process: a second service on the same data folder gets none. */
const held = new Set<string>();

const LOCK = 'owner.lock';
const SEGMENT = /^(\d+)\.jsonl$/;

/**
 * The journal in `dir` (DATA_DIR/simulation-turns): one file per segment, one JSON line per turn,
 * appended with a synchronous write. One process owns it, named in `owner.lock`; answers null when
 * another live process does (or another service of this one), which then stores its turns
 * synchronously. A lock left by a process that is gone (killed, or this very pid in an earlier life,
 * as a container's first process is) is taken over.
 */
export function openTurnJournal(dir: string): TurnJournal | null {
  const key = path.resolve(dir);
  if (held.has(key)) return null;
  fs.mkdirSync(key, { recursive: true });
  const lockPath = path.join(key, LOCK);
  const mine = `${process.pid}\n`;
  try {
    fs.writeFileSync(lockPath, mine, { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const owner = Number.parseInt(fs.readFileSync(lockPath, 'utf8'), 10);
    if (Number.isInteger(owner) && owner !== process.pid && alive(owner)) return null;
    fs.writeFileSync(lockPath, mine);
  }
  held.add(key);
  return new FileTurnJournal(key, lockPath);
}

/** Whether a process with this pid exists (EPERM: it does, another user's). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

class FileTurnJournal implements TurnJournal {
  private fd: number | null = null;
  private next: number;
  private readonly dir: string;
  private readonly lockPath: string;
  constructor(dir: string, lockPath: string) {
    this.dir = dir;
    this.lockPath = lockPath;
    this.next = Math.max(0, ...this.segments().map((s) => Number(SEGMENT.exec(s)?.[1]))) + 1;
  }

  leftOver(): { turns: AnsweredTurn[]; segments: JournalSegment[]; unreadable: number } {
    const segments = this.segments();
    const turns: AnsweredTurn[] = [];
    let unreadable = 0;
    for (const s of segments) {
      for (const line of fs.readFileSync(path.join(this.dir, s), 'utf8').split('\n')) {
        if (!line) continue;
        try {
          turns.push(JSON.parse(line) as AnsweredTurn);
        } catch {
          unreadable++; // a line torn by a crash in the middle of its write (the last one), or damaged
        }
      }
    }
    return { turns, segments, unreadable };
  }

  append(turn: AnsweredTurn): void {
    this.fd ??= fs.openSync(path.join(this.dir, `${this.next}.jsonl`), 'a');
    const bytes = Buffer.from(`${JSON.stringify(turn)}\n`);
    for (let at = 0; at < bytes.length; ) at += fs.writeSync(this.fd, bytes, at);
  }

  seal(): JournalSegment | null {
    if (this.fd === null) return null;
    fs.closeSync(this.fd);
    this.fd = null;
    return `${this.next++}.jsonl`;
  }

  remove(segment: JournalSegment): void {
    fs.rmSync(path.join(this.dir, segment), { force: true });
  }

  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
    if (held.delete(this.dir)) fs.rmSync(this.lockPath, { force: true });
  }

  /** The segments on disk, oldest first. */
  private segments(): JournalSegment[] {
    return fs
      .readdirSync(this.dir)
      .filter((f) => SEGMENT.test(f))
      .sort((a, b) => Number(SEGMENT.exec(a)?.[1]) - Number(SEGMENT.exec(b)?.[1]));
  }
}
