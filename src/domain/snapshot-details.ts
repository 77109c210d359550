/**
 * A snapshot's details: its status, when it last changed, how much its analysis found (counts),
 * and on request the parsed transcript turns and the psychometrics, both stored when it was
 * processed.
 */
import type { TranscriptTurn } from '../memory/transcript-turns.ts';
import type { StoredSnapshotProfile } from '../memory/profile-types.ts';
import type { Store } from '../store/store.ts';
import type { AuthContext } from './accounts.ts';
import { psychometricsOf, type Psychometrics } from './psychometrics.ts';
import { toStatus, type SnapshotService, type SnapshotStatus } from './snapshots.ts';

export interface SnapshotDetails extends SnapshotStatus {
  updatedAt: string;
  psychometricCount: number | null;
  keyTopicCount: number | null;
  findingCount: number | null;
  transcripts: TranscriptTurn[] | null;
  transcriptTruncated: boolean | null;
  psychometrics: Psychometrics | null;
}

export interface DetailsOptions {
  includeTranscript: boolean;
  includePsychometrics: boolean;
}

export class SnapshotDetailsService {
  private readonly store: Store;
  private readonly snapshots: SnapshotService;
  constructor(store: Store, snapshots: SnapshotService) {
    this.store = store;
    this.snapshots = snapshots;
  }

  async details(auth: AuthContext, mindId: string, snapshotId: string, opts: DetailsOptions): Promise<SnapshotDetails> {
    const snap = await this.snapshots.require(auth, mindId, snapshotId);
    const base = { ...toStatus(snap), updatedAt: snap.updatedAt };
    if (snap.status !== 'completed') {
      return { ...base, psychometricCount: null, keyTopicCount: null, findingCount: null, transcripts: null, transcriptTruncated: null, psychometrics: null };
    }
    const { profiles, psychometrics, transcripts } = this.store.repos;
    const [profileRows, psychometricRows, transcript] = await Promise.all([
      profiles.profilesOf([snap.id]),
      psychometrics.of([snap.id]),
      opts.includeTranscript ? transcripts.of(snap.id) : Promise.resolve(undefined),
    ]);
    const profile = profileRows[0] ? (JSON.parse(profileRows[0].profile) as StoredSnapshotProfile) : null;
    const measured = psychometricsOf(snap.mindId, [snap.id], psychometricRows);
    return {
      ...base,
      psychometricCount: measured.linguisticMarkers.length + measured.bigFive.length,
      keyTopicCount: profile ? profile.topics.length : 0,
      findingCount: (profile ? profile.behaviours.length : 0) + measured.expertJudgements.length,
      transcripts: transcript ? (JSON.parse(transcript.turns) as TranscriptTurn[]) : null,
      transcriptTruncated: transcript ? Boolean(transcript.truncated) : null,
      psychometrics: opts.includePsychometrics ? measured : null,
    };
  }
}
