import type { Kysely, Selectable } from 'kysely';
import type { Database, SnapshotProfilesTable, SnapshotReflectionsTable } from '../schema.ts';

export type ProfileRow = Selectable<SnapshotProfilesTable>;
export type ReflectionRow = Selectable<SnapshotReflectionsTable>;

/** Persona profiles and expert reflections, one set per snapshot. */
export class ProfilesRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** Replaces the snapshot's profile (a redelivered job writes it again). */
  async saveProfile(row: ProfileRow): Promise<void> {
    await this.db.deleteFrom('snapshot_profiles').where('snapshot_id', '=', row.snapshot_id).execute();
    await this.db.insertInto('snapshot_profiles').values(row).execute();
  }

  profilesOf(snapshotIds: string[]): Promise<ProfileRow[]> {
    if (snapshotIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('snapshot_profiles').selectAll().where('snapshot_id', 'in', snapshotIds).orderBy('snapshot_id').execute();
  }

  async replaceReflections(snapshotId: string, rows: ReflectionRow[]): Promise<void> {
    await this.db.deleteFrom('snapshot_reflections').where('snapshot_id', '=', snapshotId).execute();
    if (rows.length > 0) await this.db.insertInto('snapshot_reflections').values(rows).execute();
  }

  reflectionsOf(snapshotIds: string[]): Promise<ReflectionRow[]> {
    if (snapshotIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('snapshot_reflections')
      .selectAll()
      .where('snapshot_id', 'in', snapshotIds)
      .orderBy('snapshot_id')
      .orderBy('expert')
      .execute();
  }
}
