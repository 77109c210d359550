import type { Kysely, Selectable } from 'kysely';
import type { Database, SnapshotPsychometricsTable } from '../schema.ts';

export type PsychometricsRow = Selectable<SnapshotPsychometricsTable>;

/** The linguistic-marker tallies and LLM estimates of each snapshot (JSON). */
export class PsychometricsRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** Replaces the snapshot's psychometrics (a redelivered job writes them again). */
  async save(row: PsychometricsRow): Promise<void> {
    await this.db.deleteFrom('snapshot_psychometrics').where('snapshot_id', '=', row.snapshot_id).execute();
    await this.db.insertInto('snapshot_psychometrics').values(row).execute();
  }

  of(snapshotIds: readonly string[]): Promise<PsychometricsRow[]> {
    if (snapshotIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('snapshot_psychometrics').selectAll().where('snapshot_id', 'in', [...snapshotIds]).execute();
  }
}
