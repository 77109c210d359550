import type { ExpressionBuilder, Kysely, Selectable, Updateable } from 'kysely';
import { dialectOf } from '../dialect.ts';
import { sql } from '../kysely.ts';
import type { PageCursor } from '../../../kernel/pagination.ts';
import type { Database, DigitalTwinsTable, MindsTable } from '../schema.ts';
import { foldKey } from '../../../kernel/name-keys.ts';
import { olderThan } from './keyset.ts';
import { containsPattern, like } from './like.ts';
import { SimulationsRepo } from './simulations.ts';

export type MindRow = Selectable<MindsTable>;
export type DigitalTwinRow = Selectable<DigitalTwinsTable>;
/** What an update may change (the keys follow name and email: the repository keeps them in step). */
export type MindChanges = Pick<Updateable<MindsTable>, 'name' | 'email' | 'image_url' | 'social_media' | 'scope' | 'redaction'>;


/** Minds whose folded name or email, or one of whose tags' folded names, contains the folded query. */
function matching(folded: string) {
  const pattern = containsPattern(folded);
  return (eb: ExpressionBuilder<Database, 'minds'>) =>
    eb.or([
      like('minds.name_key', pattern),
      like('minds.email_key', pattern),
      eb.exists(
        eb
          .selectFrom('mind_tags')
          .innerJoin('tags', 'tags.id', 'mind_tags.tag_id')
          .select(sql.lit(1).as('one'))
          .whereRef('mind_tags.mind_id', '=', 'minds.id')
          .where(like('tags.name_key', pattern)),
      ),
    ]);
}

/** Minds carrying at least one of these tags. */
const taggedWithAny = (tagIds: readonly string[]) => (eb: ExpressionBuilder<Database, 'minds'>) =>
  eb.exists(
    eb
      .selectFrom('mind_tags')
      .select(sql.lit(1).as('one'))
      .whereRef('mind_tags.mind_id', '=', 'minds.id')
      .where('mind_tags.tag_id', 'in', [...tagIds]),
  );

export class MindsRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** The mind (its name and email keys derived here) with its first digital twin. */
  async insertWithTwin(mind: Omit<MindRow, 'name_key' | 'email_key'>, twin: DigitalTwinRow): Promise<void> {
    await this.db
      .insertInto('minds')
      .values({ ...mind, name_key: foldKey(mind.name), email_key: mind.email === null ? null : foldKey(mind.email) })
      .execute();
    await this.db.insertInto('digital_twins').values(twin).execute();
  }

  byId(accountId: string, id: string): Promise<MindRow | undefined> {
    return this.db
      .selectFrom('minds')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  /** limit+1 rows so the caller can tell whether another page exists; with `tagIds`, only minds carrying one of them. */
  page(accountId: string, cursor: PageCursor | null, limit: number, tagIds?: readonly string[]): Promise<MindRow[]> {
    let q = this.db.selectFrom('minds').selectAll().where('account_id', '=', accountId);
    if (tagIds) q = q.where(taggedWithAny(tagIds));
    if (cursor) q = q.where(olderThan(cursor));
    return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
  }

  /** Up to `limit` minds matching the folded query (name, email, tag names), newest first, and how many match in all. */
  async search(accountId: string, folded: string, limit: number): Promise<{ rows: MindRow[]; count: number }> {
    const base = this.db.selectFrom('minds').where('account_id', '=', accountId).where(matching(folded));
    const [rows, total] = await Promise.all([
      base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, count: Number(total.n) };
  }

  /** The slugs of the account equal to `base` or of the form base-…, to pick a free one. */
  async slugsLike(accountId: string, base: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('minds')
      .select('slug')
      .where('account_id', '=', accountId)
      .where((eb) => eb.or([eb('slug', '=', base), like('slug', `${base}-%`)]))
      .execute();
    return new Set(rows.map((r) => r.slug).filter((s): s is string => s !== null));
  }

  async update(accountId: string, id: string, changes: MindChanges, at: string): Promise<boolean> {
    const keys: Updateable<MindsTable> = {};
    if (changes.name !== undefined) keys.name_key = foldKey(changes.name);
    if (changes.email !== undefined) keys.email_key = changes.email === null ? null : foldKey(changes.email);
    const r = await this.db
      .updateTable('minds')
      .set({ ...changes, ...keys, updated_at: at })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Marks the mind changed (its tags were set). */
  async touch(accountId: string, id: string, at: string): Promise<void> {
    await this.db.updateTable('minds').set({ updated_at: at }).where('id', '=', id).where('account_id', '=', accountId).execute();
  }

  /** The account's minds among these ids (unknown or another account's ids are simply absent). */
  withIds(accountId: string, ids: readonly string[]): Promise<MindRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('minds').selectAll().where('account_id', '=', accountId).where('id', 'in', [...ids]).execute();
  }

  /** Every mind of the account carrying at least one of these tags, oldest first. */
  allTagged(accountId: string, tagIds: readonly string[]): Promise<MindRow[]> {
    if (tagIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('minds')
      .selectAll()
      .where('account_id', '=', accountId)
      .where(taggedWithAny(tagIds))
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** The mind whatever its account (operator commands only: the API always scopes by account). */
  anyAccount(id: string): Promise<MindRow | undefined> {
    return this.db.selectFrom('minds').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Deletes the mind and, explicitly (not relying on cascades), every row that hangs off it or
   * names it: twins, artifacts, snapshots with their memories, profiles, reflections, transcripts
   * and psychometrics, its corrections and review links, the snapshots' jobs (their payload holds the snapshot id), its simulations
   * with their messages and jobs, and the usage meter's rows naming its twins. Answers the deleted
   * snapshots' ids.
   */
  async delete(accountId: string, id: string): Promise<{ snapshotIds: string[] }> {
    // PostgreSQL: the mind's row is locked first, so a batch of answered turns being stored for it
    // (SimulationsRepo.insertAnswered, which reads it FOR KEY SHARE) commits before this deletion reads its simulations, or sees it gone.
    if (dialectOf(this.db) === 'postgres') await this.db.selectFrom('minds').select('id').where('id', '=', id).forUpdate().execute();
    const snapshotIds = (await this.db.selectFrom('snapshots').select('id').where('mind_id', '=', id).execute()).map((r) => r.id);
    for (let i = 0; i < snapshotIds.length; i += 100) {
      const batch = snapshotIds.slice(i, i + 100);
      await this.db
        .deleteFrom('jobs')
        .where((eb) => eb.or(batch.map((sid) => eb('payload', 'like', `%"snapshotId":"${sid}"%`))))
        .execute();
    }
    await new SimulationsRepo(this.db).deleteOfMind(id);
    const ofMind = this.db.selectFrom('snapshots').select('id').where('mind_id', '=', id);
    await this.db.deleteFrom('memories').where('snapshot_id', 'in', ofMind).execute();
    await this.db.deleteFrom('snapshot_passages').where('mind_id', '=', id).execute();
    await this.db.deleteFrom('snapshot_reflections').where('mind_id', '=', id).execute();
    await this.db.deleteFrom('snapshot_profiles').where('mind_id', '=', id).execute();
    await this.db.deleteFrom('snapshot_transcripts').where('mind_id', '=', id).execute();
    await this.db.deleteFrom('snapshot_psychometrics').where('mind_id', '=', id).execute();
    await this.db.deleteFrom('redaction_people').where('mind_id', '=', id).execute();
    await this.db.deleteFrom('corrections').where('mind_id', '=', id).execute();
    await this.db.deleteFrom('review_links').where('mind_id', '=', id).execute();
    await this.db.deleteFrom('snapshots').where('mind_id', '=', id).execute();
    await this.db.deleteFrom('artifacts').where('mind_id', '=', id).execute();
    // The usage meter's distinct-twin counts name the twins: erased with them (their past counts drop).
    // The twins go first: a usage flush adds only twins that still exist (on PostgreSQL it locks
    // them), so none it writes after this delete can name them.
    const twins = (await this.db.selectFrom('digital_twins').select('id').where('mind_id', '=', id).execute()).map((r) => r.id);
    await this.db.deleteFrom('digital_twins').where('mind_id', '=', id).execute();
    if (twins.length > 0) await this.db.deleteFrom('usage_simulated_twins').where('digital_twin_id', 'in', twins).execute();
    await this.db.deleteFrom('mind_tags').where('mind_id', '=', id).execute();
    await this.db.deleteFrom('minds').where('id', '=', id).where('account_id', '=', accountId).execute();
    return { snapshotIds };
  }

  twin(mindId: string, twinId: string): Promise<DigitalTwinRow | undefined> {
    return this.db
      .selectFrom('digital_twins')
      .selectAll()
      .where('id', '=', twinId)
      .where('mind_id', '=', mindId)
      .executeTakeFirst();
  }
}
