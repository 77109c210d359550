import { hash, verify } from '@node-rs/argon2';
import type { AccountRow } from '../store/db/repos/accounts.ts';
import type { Repos } from '../store/db/repos/index.ts';
import { DomainError, invalid, notFound } from '../kernel/errors.ts';
import { iso, type Runtime } from '../kernel/runtime.ts';
import type { Tier } from './accounts.ts';
import { canonicalEmail, emailKey, foldedEmail, normalizeEmail, refuseTaken } from './email.ts';

export const MIN_PASSWORD = 10;
const MAX_PASSWORD = 256;

export interface Account {
  id: string;
  email: string;
  tier: Tier;
  createdAt: string;
}

const wrongCredentials = () => new DomainError('unauthorized', 'wrong_credentials', 'Wrong email or password.');

function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD) {
    throw invalid('weak_password', `Choose a password of at least ${MIN_PASSWORD} characters.`);
  }
  if (password.length > MAX_PASSWORD) throw invalid('password_too_long', `A password has at most ${MAX_PASSWORD} characters.`);
}


/**
 * Email-and-password accounts for the dashboard. Passwords are hashed with argon2id
 * (@node-rs/argon2, its OWASP-recommended defaults); the hash carries its own salt and parameters.
 */
export class LoginService {
  /** Verified against when the email is unknown, so a wrong email costs as long as a wrong password. */
  private decoy: Promise<string> | null = null;

  private readonly repos: Repos;
  private readonly rt: Runtime;
  /** New accounts require consent on record (REQUIRE_CONSENT=true). */
  private readonly requireConsent: boolean;
  constructor(repos: Repos, rt: Runtime, newAccounts: { requireConsent: boolean } = { requireConsent: false }) {
    this.requireConsent = newAccounts.requireConsent;
    this.repos = repos;
    this.rt = rt;
  }

  async signUp(email: string, password: string): Promise<Account> {
    const normalized = normalizeEmail(email);
    checkPassword(password);
    const taken = 'An account with this email already exists. Log in instead.';
    await refuseTaken(this.repos.accounts, normalized, taken);
    const row = {
      id: this.rt.newId(),
      email: normalized,
      email_key: emailKey(normalized),
      tier: 'standard' as const,
      password_hash: await hash(password),
      created_at: iso(this.rt.now()),
      require_consent: this.requireConsent ? 1 : 0,
    };
    try {
      await this.repos.accounts.insert(row);
    } catch (err) {
      // Two sign-ups with one address (or two that look the same) at once: the unique indexes decide.
      await refuseTaken(this.repos.accounts, normalized, taken);
      throw err;
    }
    return { id: row.id, email: row.email, tier: row.tier, createdAt: row.created_at };
  }

  /**
   * The account of an email (looked up in its canonical form: zero-width characters, full-width
   * letters, case, a trailing dot and full stops do not matter; then as accounts made before the
   * domain was normalised stored it) and password.
   */
  async logIn(email: string, password: string): Promise<Account> {
    const canonical = canonicalEmail(email);
    const folded = foldedEmail(email);
    const row = (await this.repos.accounts.byEmail(canonical)) ?? (folded !== canonical ? await this.repos.accounts.byEmail(folded) : undefined);
    return this.verified(row, password);
  }

  /** The logged-in account again, when its password is right (a password change asks for the current one). */
  async confirmPassword(accountId: string, password: string): Promise<Account> {
    return this.verified(await this.repos.accounts.byId(accountId), password);
  }

  private async verified(row: AccountRow | undefined, password: string): Promise<Account> {
    if (!row?.password_hash) {
      this.decoy ??= hash(this.rt.randomBytes(16).toString('hex'));
      await verify(await this.decoy, password).catch(() => false);
      throw wrongCredentials();
    }
    const ok = await verify(row.password_hash, password).catch(() => false);
    if (!ok) throw wrongCredentials();
    return { id: row.id, email: row.email, tier: row.tier, createdAt: row.created_at };
  }

  /** Sets (or replaces) an account's password; its existing dashboard sessions end. */
  async setPassword(accountId: string, password: string): Promise<Account> {
    checkPassword(password);
    const row = await this.repos.accounts.byId(accountId);
    if (!row) throw notFound('The account');
    await this.repos.accounts.setPasswordHash(accountId, await hash(password));
    await this.repos.sessions.deleteForAccount(accountId);
    return { id: row.id, email: row.email, tier: row.tier, createdAt: row.created_at };
  }

  async account(accountId: string): Promise<Account | null> {
    const row = await this.repos.accounts.byId(accountId);
    return row ? { id: row.id, email: row.email, tier: row.tier, createdAt: row.created_at } : null;
  }
}
