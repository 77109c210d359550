import type { Kysely, Selectable } from 'kysely';
import type { Database, SnapshotTranscriptsTable } from '../schema.ts';

export type TranscriptRow = Selectable<SnapshotTranscriptsTable>;

/** The parsed turns of each snapshot (JSON, bounded when written). */
export class TranscriptsRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** Replaces the snapshot's turns (a redelivered job writes them again). */
  async save(row: TranscriptRow): Promise<void> {
    await this.db.deleteFrom('snapshot_transcripts').where('snapshot_id', '=', row.snapshot_id).execute();
    await this.db.insertInto('snapshot_transcripts').values(row).execute();
  }

  of(snapshotId: string): Promise<TranscriptRow | undefined> {
    return this.db.selectFrom('snapshot_transcripts').selectAll().where('snapshot_id', '=', snapshotId).executeTakeFirst();
  }
}
