import type { SessionStore } from '@fastify/session';

/** What the dashboard needs beyond the domain services, built in the composition root. */
export interface WebSettings {
  /** Signs the session and CSRF cookies (at least 32 characters). */
  sessionSecret: string;
  sessionTtlMs: number;
  sessionStore: SessionStore;
  /** Log-in and sign-up attempts per minute per client address. */
  loginRateLimit: number;
}
