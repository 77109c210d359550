import type { BlobStore } from '../store/blobs/blob-store.ts';
import type { DigitalTwinRow, MindChanges, MindRow } from '../store/db/repos/minds.ts';
import type { Repos } from '../store/db/repos/index.ts';
import type { Store } from '../store/store.ts';
import type { AuthContext } from './accounts.ts';
import { invalid, notFound } from '../kernel/errors.ts';
import { foldKey, freeSlug, slugOf } from '../kernel/name-keys.ts';
import { byCreatedAt, decodeCursor, toPage, type Page } from '../kernel/pagination.ts';
import { iso, type Runtime } from '../kernel/runtime.ts';
import { artifactBlobKey, artifactUploadKey } from './artifact.ts';
import type { RedactionMode } from '../privacy/kinds.ts';
import { consentColumns, consentWithdrawn, evidenceNotFound, expiredAt, NO_CONSENT, type ConsentInput } from './consent.ts';
import { mindViews, toTwin, type DigitalTwin, type Mind, type MindScope, type SocialMedia } from './mind-view.ts';
import { distinctTagNames, ensureTags, retryingUniqueClashes } from './tags.ts';

export type { DigitalTwin, Mind, MindAssessment, MindScope, SocialMedia } from './mind-view.ts';
export type { Tag } from './tags.ts';

/** What a client may set on a mind besides its name. */
export interface MindDetails {
  email?: string | null;
  imageUrl?: string | null;
  socialMedia?: SocialMedia | null;
  scope?: MindScope;
  /** How the person's data is redacted (off | outbound | stored): applies to snapshots processed after the change. */
  redaction?: RedactionMode;
  /** The consent on record: granted (with its record), unknown (clears it), or withdrawn (erases the mind: update only). */
  consent?: ConsentInput;
}

/** What a withdrawal of consent answers: the mind is gone, the content-free record stays. */
export interface ConsentWithdrawal {
  mindId: string;
  consent: { status: 'withdrawn'; withdrawnAt: string };
  /** The snapshots erased with the mind. */
  erasedSnapshots: number;
}

/** A created mind as the hosted API answers it: the mind, its default twin, and (empty) assessments and categories. */
export interface CreatedMind {
  mind: Mind;
  digitalTwin: DigitalTwin;
  mindAssessments: [];
  mindCategories: [];
}

/** What a deletion removed, for the caches that hold a mind's data (they drop it at once). */
export interface DeletedMind {
  mindId: string;
  snapshotIds: readonly string[];
}

const changesOf = (d: MindDetails & { name?: string }): MindChanges => ({
  ...(d.name !== undefined ? { name: d.name } : {}),
  ...(d.email !== undefined ? { email: d.email } : {}),
  ...(d.imageUrl !== undefined ? { image_url: d.imageUrl } : {}),
  ...(d.socialMedia !== undefined ? { social_media: d.socialMedia === null ? null : JSON.stringify(d.socialMedia) } : {}),
  ...(d.scope !== undefined ? { scope: d.scope } : {}),
  ...(d.redaction !== undefined ? { redaction: d.redaction } : {}),
});

export class MindService {
  private readonly deletedListeners: Array<(deleted: DeletedMind) => void> = [];

  private readonly store: Store;
  private readonly blobs: BlobStore;
  private readonly rt: Runtime;
  /** A new mind's redaction when the request sets none (REDACTION, config.ts). */
  private readonly defaultRedaction: RedactionMode;
  constructor(store: Store, blobs: BlobStore, rt: Runtime, defaultRedaction: RedactionMode = 'off') {
    this.store = store;
    this.blobs = blobs;
    this.rt = rt;
    this.defaultRedaction = defaultRedaction;
  }

  /** Whether a mind's granted consent has expired by the service's clock (the dashboard's label; uses check it in ConsentPolicy). */
  consentExpired(mind: { consent: { status: string; expiresAt?: string | null } }): boolean {
    const { status, expiresAt } = mind.consent;
    return status === 'granted' && expiredAt(expiresAt, this.rt.now());
  }

  /** Calls `fn` after this process deleted a mind (caches of its data drop it). */
  onDeleted(fn: (deleted: DeletedMind) => void): void {
    this.deletedListeners.push(fn);
  }

  /** A mind with its `Default` twin, a slug free in the account, and its tags (by name, made where missing). */
  async create(auth: AuthContext, name: string, details: MindDetails & { tags?: readonly string[] } = {}): Promise<CreatedMind> {
    const tagNames = distinctTagNames(details.tags ?? []);
    const id = this.rt.newId();
    const twinId = this.rt.newId();
    const { row, twin } = await retryingUniqueClashes(() =>
      this.store.transaction(async ({ repos }) => {
        const at = iso(this.rt.now());
        const base = slugOf(name);
        const mind: Omit<MindRow, 'name_key' | 'email_key'> = {
          id,
          account_id: auth.accountId,
          name,
          slug: freeSlug(base, await repos.minds.slugsLike(auth.accountId, base)),
          email: details.email ?? null,
          image_url: details.imageUrl ?? null,
          social_media: details.socialMedia ? JSON.stringify(details.socialMedia) : null,
          scope: details.scope ?? 'private',
          created_at: at,
          updated_at: at,
          ...NO_CONSENT,
          redaction: details.redaction ?? this.defaultRedaction,
        };
        if (details.consent?.status === 'withdrawn') throw invalid('consent_withdrawn_at_creation', 'A new mind cannot start with its consent withdrawn: give consent.status "granted" or "unknown".', { field: 'consent.status' });
        if (details.consent?.status === 'granted' && details.consent.evidenceArtifactId) throw evidenceNotFound(details.consent.evidenceArtifactId, null);
        if (details.consent) Object.assign(mind, consentColumns(details.consent));
        const twin: DigitalTwinRow = { id: twinId, mind_id: id, account_id: auth.accountId, name: 'Default', is_default: 1, created_at: at, updated_at: at };
        await repos.minds.insertWithTwin(mind, twin);
        const tags = await ensureTags(repos, auth.accountId, tagNames, this.rt);
        await repos.tags.setOfMind(id, tags.map((t) => t.id), at);
        return { row: { ...mind, name_key: foldKey(name), email_key: mind.email === null ? null : foldKey(mind.email) }, twin };
      }),
    );
    const [mind] = await mindViews(this.store.repos, auth.accountId, [row]);
    return { mind: mind as Mind, digitalTwin: toTwin(twin), mindAssessments: [], mindCategories: [] };
  }

  /** The mind, or NotFound — also for another account's mind, so ids never leak across accounts. */
  async require(auth: AuthContext, mindId: string): Promise<MindRow> {
    const row = await this.store.repos.minds.byId(auth.accountId, mindId);
    if (!row) throw await this.missing(auth.accountId, mindId);
    return row;
  }

  /** Why the account has no such mind: its consent was withdrawn (410, with when), or it never was or was deleted (404). */
  private async missing(accountId: string, mindId: string): Promise<Error> {
    const withdrawn = await this.store.repos.consent.withdrawal(accountId, mindId);
    return withdrawn ? consentWithdrawn(withdrawn) : notFound('The mind', 'mind_not_found');
  }

  async get(auth: AuthContext, mindId: string): Promise<Mind> {
    const [mind] = await mindViews(this.store.repos, auth.accountId, [await this.require(auth, mindId)]);
    return mind as Mind;
  }

  /** Newest first; with `tagNames`, only minds carrying one of them (case-insensitive; unknown names match nothing). */
  async list(auth: AuthContext, limit: number, cursor?: string, tagNames?: readonly string[]): Promise<Page<Mind>> {
    const after = decodeCursor(cursor);
    let tagIds: string[] | undefined;
    if (tagNames && tagNames.length > 0) {
      tagIds = (await this.store.repos.tags.byKeys(auth.accountId, tagNames.map((n) => foldKey(n.trim())))).map((t) => t.id);
      if (tagIds.length === 0) return { items: [], nextCursor: null };
    }
    const rows = await this.store.repos.minds.page(auth.accountId, after, limit, tagIds);
    const page = toPage(rows, limit, (r) => r, byCreatedAt);
    return { items: await mindViews(this.store.repos, auth.accountId, page.items), nextCursor: page.nextCursor };
  }

  /** Minds whose name, email or a tag's name contains the query, case-insensitively; newest first. */
  async search(auth: AuthContext, query: string, limit: number): Promise<{ minds: Mind[]; count: number }> {
    const { rows, count } = await this.store.repos.minds.search(auth.accountId, foldKey(query.trim()), limit);
    return { minds: await mindViews(this.store.repos, auth.accountId, rows), count };
  }

  async rename(auth: AuthContext, mindId: string, name: string): Promise<Mind> {
    return this.update(auth, mindId, { name });
  }

  /** Changes the fields given (null clears email, imageUrl, socialMedia); the slug stays as it was made. */
  async update(auth: AuthContext, mindId: string, changes: MindDetails & { name?: string }): Promise<Mind> {
    const { consent } = changes;
    if (consent?.status === 'withdrawn') throw invalid('consent_withdrawal_alone', 'A withdrawal of consent erases the mind: send {"consent": {"status": "withdrawn"}} alone.', { field: 'consent' });
    const updated = await this.store.transaction(async ({ repos }) => {
      const at = iso(this.rt.now());
      if (!(await repos.minds.update(auth.accountId, mindId, changesOf(changes), at))) return false;
      if (!consent) return true;
      if (consent.status === 'granted' && consent.evidenceArtifactId && !(await repos.artifacts.ofMind(auth.accountId, mindId, consent.evidenceArtifactId))) {
        throw evidenceNotFound(consent.evidenceArtifactId, mindId);
      }
      return repos.consent.set(auth.accountId, mindId, consentColumns(consent), at);
    });
    if (!updated) throw await this.missing(auth.accountId, mindId);
    return this.get(auth, mindId);
  }

  /** PUT /minds/{mindId} (and the MCP tool, the dashboard): an update, or a withdrawal of consent given alone. */
  async change(auth: AuthContext, mindId: string, changes: MindDetails & { name?: string }): Promise<{ mind: Mind } | ConsentWithdrawal> {
    if (changes.consent?.status !== 'withdrawn') return { mind: await this.update(auth, mindId, changes) };
    const others = Object.entries(changes).filter(([k, v]) => k !== 'consent' && v !== undefined).map(([k]) => k);
    if (others.length > 0) {
      throw invalid('consent_withdrawal_alone', `A withdrawal of consent erases the mind: send {"consent": {"status": "withdrawn"}} without ${others.join(', ')}.`, { field: 'consent', others });
    }
    return this.withdrawConsent(auth, mindId);
  }

  /**
   * The person withdrew their consent: every use stops at once and their data is erased (the
   * erasure of `delete`: transcripts, memories, vectors, simulations, panel answers, files), leaving
   * only the content-free record (mind id, account, when) that GET and every use answer 410 with.
   */
  async withdrawConsent(auth: AuthContext, mindId: string): Promise<ConsentWithdrawal> {
    await this.require(auth, mindId);
    const withdrawnAt = iso(this.rt.now());
    const { snapshotIds } = await this.erase(auth.accountId, mindId, (repos) =>
      repos.consent.recordWithdrawal({ mind_id: mindId, account_id: auth.accountId, withdrawn_at: withdrawnAt }),
    );
    return { mindId, consent: { status: 'withdrawn', withdrawnAt }, erasedSnapshots: snapshotIds.length };
  }

  /** The mind carries exactly these tags afterwards (made where missing; an empty list clears them). */
  async setTags(auth: AuthContext, mindId: string, names: readonly string[]): Promise<Mind> {
    const tagNames = distinctTagNames(names);
    await this.require(auth, mindId); // 410 for a withdrawn mind, before the transaction
    await retryingUniqueClashes(() =>
      this.store.transaction(async ({ repos }) => {
        if (!(await repos.minds.byId(auth.accountId, mindId))) throw notFound('The mind', 'mind_not_found');
        const at = iso(this.rt.now());
        const tags = await ensureTags(repos, auth.accountId, tagNames, this.rt);
        await repos.tags.setOfMind(mindId, tags.map((t) => t.id), at);
        await repos.minds.touch(auth.accountId, mindId, at);
      }),
    );
    return this.get(auth, mindId);
  }

  /** Removes the mind with its twins, artifacts, snapshots and memories, then its blobs. */
  async delete(auth: AuthContext, mindId: string): Promise<void> {
    await this.require(auth, mindId);
    await this.erase(auth.accountId, mindId);
  }

  /** The operator's erasure (`admin erase-mind`): the same deletion, whatever the account. */
  async eraseAnyAccount(mindId: string): Promise<{ mindId: string; accountId: string; snapshots: number }> {
    const row = await this.store.repos.minds.anyAccount(mindId);
    if (!row) throw notFound('The mind', 'mind_not_found');
    const { snapshotIds } = await this.erase(row.account_id, mindId);
    return { mindId, accountId: row.account_id, snapshots: snapshotIds.length };
  }

  /**
   * Rows first (one transaction), then this process's caches, then every blob under the mind's
   * folders: the artifacts, and the upload keys of direct (S3) uploads, including objects written
   * after the rows were read (an upload that finished meanwhile); last, the database's files are
   * scrubbed of what was deleted (Store.scrub: SQLite's write-ahead log emptied).
   */
  private async erase(accountId: string, mindId: string, alsoInTransaction?: (repos: Repos) => Promise<void>): Promise<{ snapshotIds: readonly string[] }> {
    const at = iso(this.rt.now());
    const { snapshotIds } = await this.store.transaction(async ({ repos }) => {
      await alsoInTransaction?.(repos);
      // Its answers in panels go with it (a running panel left with nothing to do is settled).
      await repos.panels.deleteOfMind(mindId, at);
      return repos.minds.delete(accountId, mindId);
    });
    for (const fn of this.deletedListeners) fn({ mindId, snapshotIds });
    await Promise.all([this.blobs.deletePrefix(artifactBlobKey(mindId)), this.blobs.deletePrefix(artifactUploadKey(mindId))]);
    await this.store.scrub();
    return { snapshotIds };
  }
}
