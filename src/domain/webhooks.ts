import type { Store } from '../store/store.ts';
import type { AuthContext } from './accounts.ts';
import { DomainError, notFound } from '../kernel/errors.ts';
import { checkJsonDepth } from '../kernel/json-text.ts';
import { decodeCursor, toPage, type Page } from '../kernel/pagination.ts';
import { iso, type Runtime } from '../kernel/runtime.ts';
import { generatePassword, sameHash, sha256 } from './secrets.ts';

export interface WebhookEvent {
  id: string;
  receivedAt: string;
  payload: unknown;
}

export interface WebhookCredentials {
  url: string;
  username: string;
  password: string;
}

const unauthorized = () =>
  new DomainError('unauthorized', 'invalid_credentials', 'Webhook credentials are missing or wrong (HTTP Basic).');

/** Parses `Basic base64(user:pass)`; null when the header is absent or malformed. */
export function parseBasic(header: string | undefined): { username: string; password: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!m?.[1]) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  return i < 0 ? null : { username: decoded.slice(0, i), password: decoded.slice(i + 1) };
}

export class WebhookService {
  private readonly store: Store;
  private readonly rt: Runtime;
  private readonly receiverUrl: string;
  constructor(store: Store, rt: Runtime, receiverUrl: string) {
    this.store = store;
    this.rt = rt;
    this.receiverUrl = receiverUrl;
  }

  /** New credentials for the account; any earlier ones stop working. The password is returned once. */
  async createCredentials(accountId: string): Promise<WebhookCredentials> {
    if (!(await this.store.repos.accounts.byId(accountId))) throw notFound('The account');
    const username = `wh_${this.rt.randomBytes(8).toString('hex')}`;
    const password = generatePassword(this.rt);
    await this.store.transaction(({ repos }) =>
      repos.webhooks.rotateCredentials({
        id: this.rt.newId(),
        account_id: accountId,
        username,
        password_hash: sha256(password),
        created_at: iso(this.rt.now()),
        revoked_at: null,
      }),
    );
    return { url: this.receiverUrl, username, password };
  }

  /** The receiver URL and the account's current username (never its password), or null before any were made. */
  async currentCredentials(accountId: string): Promise<{ url: string; username: string; createdAt: string } | null> {
    const row = await this.store.repos.webhooks.activeForAccount(accountId);
    return row ? { url: this.receiverUrl, username: row.username, createdAt: row.created_at } : null;
  }

  get url(): string {
    return this.receiverUrl;
  }

  /** Checks Basic credentials and the Pro tier; returns the account that may post. */
  async authorize(authorization: string | undefined): Promise<string> {
    const creds = parseBasic(authorization);
    if (!creds) throw unauthorized();
    const row = await this.store.repos.webhooks.activeByUsername(creds.username);
    if (!row || !sameHash(sha256(creds.password), row.password_hash)) throw unauthorized();
    if (row.tier !== 'pro') {
      throw new DomainError('forbidden', 'pro_required', 'The webhook receiver is available to Pro-tier accounts only.');
    }
    return row.account_id;
  }

  async receive(accountId: string, rawJson: string): Promise<{ received: true; id: string }> {
    // The receiver checked it before parsing; checked here too, since the payload is parsed and serialised again when listed.
    checkJsonDepth(rawJson);
    const id = this.rt.newId();
    await this.store.repos.webhooks.insertEvent({ id, account_id: accountId, received_at: iso(this.rt.now()), payload: rawJson });
    return { received: true, id };
  }

  async listEvents(auth: AuthContext, limit: number, cursor?: string): Promise<Page<WebhookEvent>> {
    const rows = await this.store.repos.webhooks.eventsPage(auth.accountId, decodeCursor(cursor), limit);
    return toPage(
      rows,
      limit,
      (r) => ({ id: r.id, receivedAt: r.received_at, payload: JSON.parse(r.payload) as unknown }),
      (r) => r.received_at,
    );
  }
}
