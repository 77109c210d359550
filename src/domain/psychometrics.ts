/**
 * Psychometrics of a snapshot or of a mind, honest about what they are: linguistic markers of the
 * person's own words, measured when each snapshot was processed (counts summed over the
 * snapshots); and, where a language model was configured then, its Big Five estimates and the
 * expert reflections' judgements, each with the statements it rests on, labelled as estimates.
 */
import type { BigFiveTrait, PsychometricEstimates } from '../engines/llm-psychometrics.ts';
import { measureMarkers, type LinguisticMarker, type SnapshotMarkers } from '../memory/linguistic-markers.ts';
import type { ProfileRef } from '../memory/profile-types.ts';
import { roundEstimate } from '../memory/answer/scores.ts';
import type { PsychometricsRow } from '../store/db/repos/psychometrics.ts';
import type { Store } from '../store/store.ts';
import type { AuthContext } from './accounts.ts';
import type { MindService } from './minds.ts';
import { LLM_NOT_CONSENTED } from './consent.ts';
import { answeringSnapshotIds, type SnapshotService } from './snapshots.ts';

type Evidence = ProfileRef & { snapshotId: string };

export interface BigFiveEstimate {
  kind: 'llm_estimate';
  trait: BigFiveTrait;
  score: number;
  rationale: string;
  model: string;
  method: string;
  perSnapshot: Array<{ snapshotId: string; score: number; rationale: string }>;
  evidence: Evidence[];
}

export interface ExpertJudgement {
  kind: 'llm_estimate';
  expert: string;
  text: string;
  model: string;
  snapshotId: string;
  evidence: Evidence[];
}

export interface Psychometrics {
  mindId: string;
  snapshotIds: string[];
  note: string;
  linguisticMarkers: LinguisticMarker[];
  bigFive: BigFiveEstimate[];
  expertJudgements: ExpertJudgement[];
  gaps: Array<{ snapshotId: string; part: 'linguistic_markers' | 'llm_estimates'; reason: string }>;
}

export const PSYCHOMETRICS_NOTE =
  "Linguistic markers are measurements of the person's own words (each states how it is computed and how many words it rests on), " +
  'not personality scores. Big Five scores and expert judgements, when present, are estimates written by a language model from the same words, ' +
  'not the result of a validated test.';

const MAX_EVIDENCE = 3;

function bigFiveOf(parts: ReadonlyArray<{ snapshotId: string; model: string; estimates: PsychometricEstimates }>): BigFiveEstimate[] {
  const traits = [...new Set(parts.flatMap((p) => p.estimates.bigFive.map((b) => b.trait)))];
  return traits.map((trait) => {
    const each = parts.flatMap((p) => p.estimates.bigFive.filter((b) => b.trait === trait).map((b) => ({ ...b, snapshotId: p.snapshotId, model: p.model })));
    const models = [...new Set(each.map((e) => e.model))].join(', ');
    return {
      kind: 'llm_estimate' as const,
      trait,
      score: roundEstimate(each.reduce((s, e) => s + e.score, 0) / each.length),
      rationale: each.length === 1 ? (each[0]?.rationale ?? '') : `The mean of ${each.length} snapshots' estimates; see perSnapshot.`,
      model: models,
      method: `Estimated by ${models} from the person's numbered statements (at most its context budget per snapshot), 0 = very low, 1 = very high; not a validated test.`,
      perSnapshot: each.map((e) => ({ snapshotId: e.snapshotId, score: e.score, rationale: e.rationale })),
      evidence: each.flatMap((e) => e.evidence.map((r) => ({ snapshotId: e.snapshotId, ...r }))).slice(0, MAX_EVIDENCE),
    };
  });
}

/** The psychometrics over these snapshots' stored rows (in the order of `snapshotIds`). */
export function psychometricsOf(mindId: string, snapshotIds: readonly string[], rows: readonly PsychometricsRow[]): Psychometrics {
  const byId = new Map(rows.map((r) => [r.snapshot_id, r]));
  const gaps: Psychometrics['gaps'] = [];
  const tallies: Array<{ snapshotId: string; markers: SnapshotMarkers }> = [];
  const estimated: Array<{ snapshotId: string; model: string; estimates: PsychometricEstimates }> = [];
  for (const snapshotId of snapshotIds) {
    const row = byId.get(snapshotId);
    if (!row) {
      gaps.push({ snapshotId, part: 'linguistic_markers', reason: 'The snapshot was processed before psychometrics were measured.' });
      continue;
    }
    tallies.push({ snapshotId, markers: JSON.parse(row.markers) as SnapshotMarkers });
    if (row.estimates) estimated.push({ snapshotId, model: row.estimates_model ?? '', estimates: JSON.parse(row.estimates) as PsychometricEstimates });
    else {
      const reason =
        row.estimates_error === LLM_NOT_CONSENTED
          ? 'The consent on record did not cover "llm" when the snapshot was processed: the person\'s words were not sent to a language model.'
          : row.estimates_error
            ? `The language model failed: ${row.estimates_error}`
            : 'No language model was configured when the snapshot was processed.';
      gaps.push({ snapshotId, part: 'llm_estimates', reason });
    }
  }
  return {
    mindId,
    snapshotIds: [...snapshotIds],
    note: PSYCHOMETRICS_NOTE,
    linguisticMarkers: measureMarkers(tallies),
    bigFive: bigFiveOf(estimated),
    expertJudgements: estimated.flatMap((p) =>
      p.estimates.judgements.map((j) => ({
        kind: 'llm_estimate' as const,
        expert: j.expert,
        text: j.text,
        model: p.model,
        snapshotId: p.snapshotId,
        evidence: j.evidence.map((r) => ({ snapshotId: p.snapshotId, ...r })),
      })),
    ),
    gaps,
  };
}

export class PsychometricsService {
  private readonly store: Store;
  private readonly minds: MindService;
  private readonly snapshots: SnapshotService;
  constructor(store: Store, minds: MindService, snapshots: SnapshotService) {
    this.store = store;
    this.minds = minds;
    this.snapshots = snapshots;
  }

  /** Over the mind's linked completed snapshots (409 before the first). */
  async ofMind(auth: AuthContext, mindId: string): Promise<Psychometrics> {
    const mind = await this.minds.require(auth, mindId);
    const ids = await answeringSnapshotIds(this.store, mind.id);
    return psychometricsOf(mind.id, ids, await this.store.repos.psychometrics.of(ids));
  }

  /** Of one completed snapshot (409 while it is pending or processing, or when it failed). */
  async ofSnapshot(auth: AuthContext, mindId: string, snapshotId: string): Promise<Psychometrics> {
    const snap = await this.snapshots.requireCompleted(auth, mindId, snapshotId);
    return psychometricsOf(snap.mindId, [snap.id], await this.store.repos.psychometrics.of([snap.id]));
  }
}
