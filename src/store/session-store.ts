import type { SessionStore } from '@fastify/session';
import type { FastifySessionObject } from '@fastify/session';
import { sha256 } from '../domain/secrets.ts';
import type { SessionsRepo } from './db/repos/sessions.ts';

/**
 * @fastify/session's store port over the sessions table, so every API process sees the same
 * sessions. Rows are keyed by the SHA-256 of the session id; expired rows read as absent and are
 * swept on writes now and then.
 */
export class DatabaseSessionStore implements SessionStore {
  private writes = 0;

  private readonly repo: SessionsRepo;
  private readonly ttlMs: number;
  private readonly now: () => Date;
  constructor(repo: SessionsRepo, ttlMs: number, now: () => Date = () => new Date()) {
    this.repo = repo;
    this.ttlMs = ttlMs;
    this.now = now;
  }

  set(sessionId: string, session: FastifySessionObject, callback: (err?: unknown) => void): void {
    const now = this.now();
    const expires = session.cookie.expires ? new Date(session.cookie.expires) : new Date(now.getTime() + this.ttlMs);
    const sweep = ++this.writes % 100 === 0 ? this.repo.deleteExpired(now.toISOString()) : Promise.resolve(0);
    sweep
      .then(() =>
        this.repo.upsert({
          id_hash: sha256(sessionId),
          account_id: session.accountId ?? null,
          data: JSON.stringify(session),
          expires_at: expires.toISOString(),
          created_at: now.toISOString(),
        }),
      )
      .then(() => callback(), callback);
  }

  get(sessionId: string, callback: (err: unknown, result?: FastifySessionObject | null) => void): void {
    this.repo
      .live(sha256(sessionId), this.now().toISOString())
      .then((row) => callback(null, row ? (JSON.parse(row.data) as FastifySessionObject) : null), callback);
  }

  destroy(sessionId: string, callback: (err?: unknown) => void): void {
    this.repo.delete(sha256(sessionId)).then(() => callback(), callback);
  }
}

declare module 'fastify' {
  interface Session {
    /** The account logged in with this session; absent before log-in. */
    accountId?: string;
  }
}
