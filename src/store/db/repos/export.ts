import type { Kysely, Selectable } from 'kysely';
import type { ArtifactsTable, Database, MemoriesTable, PanelAnswersTable, SimulationsTable, SnapshotsTable } from '../schema.ts';

export type ExportArtifactRow = Selectable<ArtifactsTable>;
export type ExportSnapshotRow = Selectable<SnapshotsTable>;
export type ExportMemoryRow = Omit<Selectable<MemoriesTable>, 'id' | 'mind_id'>;
export type ExportSimulationRow = Selectable<SimulationsTable>;
export type ExportPanelAnswerRow = Selectable<PanelAnswersTable> & { panel_name: string; panel_questions: string; mind_name: string };

/**
 * The reads of a mind's export (GET /minds/{id}/export): everything stored about one mind of one
 * account, each kind oldest first, the long ones in keyset pages so an export never holds a big
 * mind in memory. Every query names the account as well as the mind.
 */
export class ExportRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** The mind's uploaded files (artifacts with their bytes in the blob store), oldest first. */
  artifacts(accountId: string, mindId: string): Promise<ExportArtifactRow[]> {
    return this.db
      .selectFrom('artifacts')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('mind_id', '=', mindId)
      .where('state', '=', 'uploaded')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** Every snapshot of the mind in any state, oldest first. */
  snapshots(accountId: string, mindId: string): Promise<ExportSnapshotRow[]> {
    return this.db.selectFrom('snapshots').selectAll().where('account_id', '=', accountId).where('mind_id', '=', mindId).orderBy('created_at').orderBy('id').execute();
  }

  /** Which of these snapshots have a parsed transcript, a profile, expert reflections and psychometrics stored. */
  async documentsOf(snapshotIds: readonly string[]): Promise<Record<'transcripts' | 'profiles' | 'reflections' | 'psychometrics', Set<string>>> {
    const ids = [...snapshotIds];
    const of = async (table: 'snapshot_transcripts' | 'snapshot_profiles' | 'snapshot_reflections' | 'snapshot_psychometrics') =>
      ids.length === 0 ? new Set<string>() : new Set((await this.db.selectFrom(table).select('snapshot_id').distinct().where('snapshot_id', 'in', ids).execute()).map((r) => r.snapshot_id));
    const [transcripts, profiles, reflections, psychometrics] = await Promise.all([
      of('snapshot_transcripts'),
      of('snapshot_profiles'),
      of('snapshot_reflections'),
      of('snapshot_psychometrics'),
    ]);
    return { transcripts, profiles, reflections, psychometrics };
  }

  /** Up to `limit` memories of the snapshot after position `afterSeq`, by position. */
  memories(snapshotId: string, afterSeq: number, limit: number): Promise<ExportMemoryRow[]> {
    return this.db
      .selectFrom('memories')
      .select(['snapshot_id', 'seq', 'speaker', 'question', 'text', 'start_s', 'end_s', 'page'])
      .where('snapshot_id', '=', snapshotId)
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .execute();
  }

  /** Up to `limit` simulations of the mind after (createdAt, id), oldest first. */
  simulations(accountId: string, mindId: string, after: { createdAt: string; id: string } | null, limit: number): Promise<ExportSimulationRow[]> {
    let q = this.db.selectFrom('simulations').selectAll().where('account_id', '=', accountId).where('mind_id', '=', mindId);
    if (after) q = q.where((eb) => eb.or([eb('created_at', '>', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '>', after.id)])]));
    return q.orderBy('created_at').orderBy('id').limit(limit).execute();
  }

  /**
   * Up to `limit` of the mind's panel answers after (panelId, questionIndex), with the panel's name
   * and questions and the mind's name as the panel recorded it (a mind answers each question of a
   * panel once, so the pair is a key).
   */
  panelAnswers(accountId: string, mindId: string, after: { panelId: string; questionIndex: number } | null, limit: number): Promise<ExportPanelAnswerRow[]> {
    let q = this.db
      .selectFrom('panel_answers as a')
      .innerJoin('panels as p', 'p.id', 'a.panel_id')
      .innerJoin('panel_units as u', (j) => j.onRef('u.panel_id', '=', 'a.panel_id').onRef('u.seq', '=', 'a.unit_seq'))
      .selectAll('a')
      .select(['p.name as panel_name', 'p.questions as panel_questions', 'u.mind_name'])
      .where('a.account_id', '=', accountId)
      .where('a.mind_id', '=', mindId);
    if (after) {
      q = q.where((eb) =>
        eb.or([eb('a.panel_id', '>', after.panelId), eb.and([eb('a.panel_id', '=', after.panelId), eb('a.question_index', '>', after.questionIndex)])]),
      );
    }
    return q.orderBy('a.panel_id').orderBy('a.question_index').limit(limit).execute();
  }
}
