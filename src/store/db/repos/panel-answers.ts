import type { Kysely, Selectable } from 'kysely';
import type { EvidenceItem } from '../../../engines/types.ts';
import type { AnswerFigures, PanelAnswer } from '../../../domain/panel.ts';
import type { Database, PanelAnswersTable } from '../schema.ts';
import { containsPattern, like } from './like.ts';

const toAnswer = (r: Selectable<PanelAnswersTable>): PanelAnswer => ({
  unitSeq: r.unit_seq,
  questionIndex: r.question_index,
  mindId: r.mind_id,
  status: r.status,
  choices: JSON.parse(r.choices) as string[],
  value: r.value === null ? null : Number(r.value),
  saying: r.saying,
  confidence: Number(r.confidence),
  evidence: JSON.parse(r.evidence) as EvidenceItem[],
  createdAt: r.created_at,
});

/** Which answers a page lists (the drill-down from a bar: a question and one of its options or points). */
export interface AnswerFilter {
  questionIndex?: number;
  mindId?: string;
  status?: PanelAnswer['status'];
  /** Answers that chose this option (single, multiple). */
  option?: string;
  /** Answers with this value (likert point, number). */
  value?: number;
}

export type AnswerRow = PanelAnswer & { mindName: string };

const BATCH = 200;

/** The answers of panels: stored a unit at a time, read as figures (the results) and as pages (the drill-down, the CSV). */
export class PanelAnswersRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** Per panel, how many answers are stored. */
  async counts(panelIds: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map(panelIds.map((id): [string, number] => [id, 0]));
    if (panelIds.length === 0) return counts;
    const rows = await this.db
      .selectFrom('panel_answers')
      .select(['panel_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('panel_id', 'in', [...panelIds])
      .groupBy('panel_id')
      .execute();
    for (const r of rows) counts.set(r.panel_id, Number(r.n));
    return counts;
  }

  async insert(panel: { id: string; accountId: string }, answers: readonly PanelAnswer[]): Promise<void> {
    for (let i = 0; i < answers.length; i += BATCH) {
      await this.db
        .insertInto('panel_answers')
        .values(
          answers.slice(i, i + BATCH).map((a) => ({
            panel_id: panel.id,
            unit_seq: a.unitSeq,
            question_index: a.questionIndex,
            account_id: panel.accountId,
            mind_id: a.mindId,
            status: a.status,
            choices: JSON.stringify(a.choices),
            value: a.value,
            saying: a.saying,
            confidence: a.confidence,
            evidence: JSON.stringify(a.evidence),
            created_at: a.createdAt,
          })),
        )
        .execute();
    }
  }

  /** What the distributions are computed from: every answer's figures, by unit then question. */
  /**
   * A deleted snapshot's words leave the panels: the answers of its mind whose evidence quotes it
   * are deleted (as the conversations citing it are); the panel's results are computed from the rest.
   */
  async deleteCiting(mindId: string, snapshotId: string): Promise<void> {
    await this.db
      .deleteFrom('panel_answers')
      .where('mind_id', '=', mindId)
      .where(like('evidence', containsPattern(`"snapshotId":"${snapshotId}"`)))
      .execute();
  }

  async figures(panelId: string): Promise<AnswerFigures[]> {
    const rows = await this.db
      .selectFrom('panel_answers')
      .select(['unit_seq', 'question_index', 'status', 'choices', 'value', 'confidence'])
      .where('panel_id', '=', panelId)
      .execute();
    return rows.map((r) => ({
      unitSeq: r.unit_seq,
      questionIndex: r.question_index,
      status: r.status,
      choices: JSON.parse(r.choices) as string[],
      value: r.value === null ? null : Number(r.value),
      confidence: Number(r.confidence),
    }));
  }

  /** A page of answers (by question, then mind, with the mind's name), and how many match in all. */
  async page(panelId: string, filter: AnswerFilter, limit: number, offset: number): Promise<{ rows: AnswerRow[]; count: number }> {
    const count = Number((await this.matching(panelId, filter).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst())?.n ?? 0);
    return { rows: await this.rows(panelId, filter, limit, offset), count };
  }

  /** Answers by question, then mind, with the mind's name (no count: the CSV export reads every page). */
  async rows(panelId: string, filter: AnswerFilter, limit: number, offset: number): Promise<AnswerRow[]> {
    const rows = await this.matching(panelId, filter)
      .selectAll('a')
      .select('u.mind_name')
      .orderBy('a.question_index')
      .orderBy('a.unit_seq')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => ({ ...toAnswer(r), mindName: r.mind_name }));
  }

  private matching(panelId: string, filter: AnswerFilter) {
    let q = this.db
      .selectFrom('panel_answers as a')
      .innerJoin('panel_units as u', (j) => j.onRef('u.panel_id', '=', 'a.panel_id').onRef('u.seq', '=', 'a.unit_seq'))
      .where('a.panel_id', '=', panelId);
    if (filter.questionIndex !== undefined) q = q.where('a.question_index', '=', filter.questionIndex);
    if (filter.mindId !== undefined) q = q.where('a.mind_id', '=', filter.mindId);
    if (filter.status !== undefined) q = q.where('a.status', '=', filter.status);
    if (filter.value !== undefined) q = q.where('a.value', '=', filter.value);
    if (filter.option !== undefined) q = q.where(like('a.choices', containsPattern(JSON.stringify(filter.option))));
    return q;
  }

}
