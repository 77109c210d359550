import type { Kysely, Selectable } from 'kysely';
import type { ArtifactsTable, Database } from '../schema.ts';

export type ArtifactRow = Selectable<ArtifactsTable>;

export class ArtifactsRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  insert(row: ArtifactRow): Promise<unknown> {
    return this.db.insertInto('artifacts').values(row).execute();
  }

  byId(id: string): Promise<ArtifactRow | undefined> {
    return this.db.selectFrom('artifacts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  ofMind(accountId: string, mindId: string, id: string): Promise<ArtifactRow | undefined> {
    return this.db
      .selectFrom('artifacts')
      .selectAll()
      .where('id', '=', id)
      .where('mind_id', '=', mindId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  /** Moves the artifact from one upload state to another; false when it was not in `from` (a race or a reuse). */
  async transition(id: string, from: ArtifactRow['state'], to: ArtifactRow['state']): Promise<boolean> {
    const r = await this.db
      .updateTable('artifacts')
      .set({ state: to })
      .where('id', '=', id)
      .where('state', '=', from)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async markUploaded(id: string, sizeBytes: number, contentType: string | null, at: string): Promise<void> {
    await this.db
      .updateTable('artifacts')
      .set({ state: 'uploaded', size_bytes: sizeBytes, content_type: contentType, uploaded_at: at })
      .where('id', '=', id)
      .execute();
  }
}
