import { LRUCache } from 'lru-cache';
import type { AccountRow } from '../store/db/repos/accounts.ts';
import type { Repos } from '../store/db/repos/index.ts';
import { notFound } from '../kernel/errors.ts';
import { cacheClock, iso, type Runtime } from '../kernel/runtime.ts';
import { emailKey, normalizeEmail, refuseTaken } from './email.ts';
import { generateApiKey, prefixOf, sameHash, sha256 } from './secrets.ts';

export type Tier = AccountRow['tier'];

export interface AuthContext {
  accountId: string;
  tier: Tier;
  /** The API key the request came with; null for a dashboard session. */
  apiKeyId: string | null;
}

export interface ApiKeyInfo {
  id: string;
  name: string | null;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** last_used_at is written at most this often per key, to keep reads cheap. */
const TOUCH_INTERVAL_MS = 60_000;

export class AccountService {
  /**
   * Verified keys, by the SHA-256 of the key, for a few seconds: most requests then need no key
   * lookup. A revocation takes effect at once in this process and within `authCacheMs` elsewhere.
   */
  private readonly verified: LRUCache<string, AuthContext> | null;

  private readonly repos: Repos;
  private readonly rt: Runtime;
  /** New accounts require consent on record (REQUIRE_CONSENT=true). */
  private readonly requireConsent: boolean;
  constructor(repos: Repos, rt: Runtime, authCacheMs = 0, newAccounts: { requireConsent: boolean } = { requireConsent: false }) {
    this.requireConsent = newAccounts.requireConsent;
    this.repos = repos;
    this.rt = rt;
    this.verified = authCacheMs > 0 ? new LRUCache({ max: 10_000, ttl: authCacheMs, perf: cacheClock(rt) }) : null;
  }

  async createAccount(email: string, tier: Tier): Promise<{ accountId: string; apiKey: string; prefix: string }> {
    const normalized = normalizeEmail(email);
    const taken = 'An account with this email already exists.';
    await refuseTaken(this.repos.accounts, normalized, taken);
    const accountId = this.rt.newId();
    try {
      await this.repos.accounts.insert({
        id: accountId,
        email: normalized,
        email_key: emailKey(normalized),
        tier,
        password_hash: null,
        created_at: iso(this.rt.now()),
        require_consent: this.requireConsent ? 1 : 0,
      });
    } catch (err) {
      // Made at the same moment by another request: the unique indexes decide, the answer says which.
      await refuseTaken(this.repos.accounts, normalized, taken);
      throw err;
    }
    const { apiKey, prefix } = await this.createApiKey(accountId, 'default');
    return { accountId, apiKey, prefix };
  }

  async createApiKey(accountId: string, name: string | null = null): Promise<{ apiKey: string; prefix: string }> {
    if (!(await this.repos.accounts.byId(accountId))) throw notFound('The account');
    const k = generateApiKey(this.rt);
    await this.repos.apiKeys.insert({
      id: this.rt.newId(),
      account_id: accountId,
      name,
      prefix: k.prefix,
      key_hash: k.hash,
      created_at: iso(this.rt.now()),
      last_used_at: null,
      revoked_at: null,
    });
    return { apiKey: k.key, prefix: k.prefix };
  }

  async revokeApiKey(prefix: string): Promise<void> {
    const p = prefix.startsWith('msk_') ? prefix : `msk_${prefix}`;
    if (!(await this.repos.apiKeys.revoke(p, iso(this.rt.now())))) throw notFound('An active API key with that prefix');
    this.verified?.clear();
  }

  async listApiKeys(accountId: string): Promise<ApiKeyInfo[]> {
    const rows = await this.repos.apiKeys.activeForAccount(accountId);
    return rows.map((r) => ({ id: r.id, name: r.name, prefix: r.prefix, createdAt: r.created_at, lastUsedAt: r.last_used_at }));
  }

  /** Revokes one of the account's own keys (another account's key id reads as unknown). */
  async revokeOwnApiKey(accountId: string, keyId: string): Promise<void> {
    if (!(await this.repos.apiKeys.revokeForAccount(accountId, keyId, iso(this.rt.now())))) throw notFound('The API key');
    this.verified?.clear();
  }

  async setTier(accountId: string, tier: Tier): Promise<void> {
    if (!(await this.repos.accounts.setTier(accountId, tier))) throw notFound('The account');
    this.verified?.clear();
  }

  /** The account behind a key verified within the cache's lifetime, without a lookup; else undefined. */
  verifiedKey(key: string): AuthContext | undefined {
    return this.verified?.get(sha256(key));
  }

  /** The account behind a bearer key, or null; the secret is compared by hash in constant time. */
  async authenticate(key: string): Promise<AuthContext | null> {
    const prefix = prefixOf(key);
    if (!prefix) return null;
    const hash = sha256(key);
    const cached = this.verified?.get(hash);
    if (cached) return cached;
    const row = await this.repos.apiKeys.activeByPrefix(prefix);
    if (!row || !sameHash(hash, row.key_hash)) return null;
    const now = this.rt.now();
    if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) > TOUCH_INTERVAL_MS) {
      await this.repos.apiKeys.touch(row.id, iso(now));
    }
    const auth: AuthContext = { accountId: row.account_id, tier: row.tier, apiKeyId: row.id };
    this.verified?.set(hash, auth);
    return auth;
  }

  /** On first start with an empty database: an owner account, whose key is returned once. */
  async ensureOwner(): Promise<{ accountId: string; apiKey: string; email: string } | null> {
    if ((await this.repos.accounts.count()) > 0) return null;
    try {
      const email = 'owner@localhost.localdomain';
      const { accountId, apiKey } = await this.createAccount(email, 'pro');
      return { accountId, apiKey, email };
    } catch (err) {
      // Several API processes starting at once on an empty database: one of them creates the owner.
      if ((await this.repos.accounts.count()) > 0) return null;
      throw err;
    }
  }
}
