import type { Kysely, Selectable } from 'kysely';
import type { Database, TagsTable } from '../schema.ts';

export type TagRow = Selectable<TagsTable>;

/** Account-wide tags and which minds carry them. Every lookup is scoped by account. */
export class TagsRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** The account's tags, by folded name. */
  list(accountId: string): Promise<TagRow[]> {
    return this.db.selectFrom('tags').selectAll().where('account_id', '=', accountId).orderBy('name_key').orderBy('id').execute();
  }

  byId(accountId: string, id: string): Promise<TagRow | undefined> {
    return this.db.selectFrom('tags').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  }

  /** The account's tags with these folded names. */
  byKeys(accountId: string, keys: readonly string[]): Promise<TagRow[]> {
    if (keys.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('tags').selectAll().where('account_id', '=', accountId).where('name_key', 'in', [...keys]).execute();
  }

  async insert(rows: readonly TagRow[]): Promise<void> {
    if (rows.length > 0) await this.db.insertInto('tags').values([...rows]).execute();
  }

  async rename(accountId: string, id: string, name: string, nameKey: string, at: string): Promise<boolean> {
    const r = await this.db
      .updateTable('tags')
      .set({ name, name_key: nameKey, updated_at: at })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Removes the tag from every mind, then the tag. */
  async delete(accountId: string, id: string): Promise<boolean> {
    const owned = this.db.selectFrom('tags').select('id').where('id', '=', id).where('account_id', '=', accountId);
    await this.db.deleteFrom('mind_tags').where('tag_id', 'in', owned).execute();
    const r = await this.db.deleteFrom('tags').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** The mind carries exactly these tags afterwards. */
  async setOfMind(mindId: string, tagIds: readonly string[], at: string): Promise<void> {
    await this.db.deleteFrom('mind_tags').where('mind_id', '=', mindId).execute();
    if (tagIds.length > 0) {
      await this.db
        .insertInto('mind_tags')
        .values(tagIds.map((tagId) => ({ mind_id: mindId, tag_id: tagId, created_at: at })))
        .execute();
    }
  }

  /** The tags of these minds (of the account), each mind's by folded name. */
  ofMinds(accountId: string, mindIds: readonly string[]): Promise<Array<TagRow & { mind_id: string }>> {
    if (mindIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('mind_tags')
      .innerJoin('tags', 'tags.id', 'mind_tags.tag_id')
      .selectAll('tags')
      .select('mind_tags.mind_id')
      .where('mind_tags.mind_id', 'in', [...mindIds])
      .where('tags.account_id', '=', accountId)
      .orderBy('tags.name_key')
      .orderBy('tags.id')
      .execute();
  }
}
