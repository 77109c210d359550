import type { Kysely, Selectable } from 'kysely';
import type { Database, ReviewLinksTable } from '../schema.ts';

export type ReviewLinkRow = Selectable<ReviewLinksTable>;

/** Review links of minds (016_review_links). The account's reads are scoped by account and mind; the person's by the token's hash. */
export class ReviewLinksRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  async insert(row: ReviewLinkRow): Promise<void> {
    await this.db.insertInto('review_links').values(row).execute();
  }

  /** The link whose token hashes to this, whatever its account (the person has no account). */
  byTokenHash(tokenHash: string): Promise<ReviewLinkRow | undefined> {
    return this.db.selectFrom('review_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  byId(accountId: string, mindId: string, id: string): Promise<ReviewLinkRow | undefined> {
    return this.db.selectFrom('review_links').selectAll().where('id', '=', id).where('mind_id', '=', mindId).where('account_id', '=', accountId).executeTakeFirst();
  }

  /** The mind's links, newest first (at most `limit`). */
  ofMind(accountId: string, mindId: string, limit: number): Promise<ReviewLinkRow[]> {
    return this.db
      .selectFrom('review_links')
      .selectAll()
      .where('mind_id', '=', mindId)
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Sets revoked_at once (a revoked link stays revoked at its first time); false when no such link. */
  async revoke(accountId: string, mindId: string, id: string, at: string): Promise<boolean> {
    const r = await this.db
      .updateTable('review_links')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('mind_id', '=', mindId)
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
}
