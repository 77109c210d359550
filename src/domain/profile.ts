import { mergeProfiles, type MindProfile, type MindTopic } from '../memory/profile-merge.ts';
import type { StoredSnapshotProfile } from '../memory/profile-types.ts';
import type { Store } from '../store/store.ts';
import type { AuthContext } from './accounts.ts';
import type { MindMemories } from './mind-memory.ts';
import type { MindService } from './minds.ts';
import { answeringSnapshotIds, type SnapshotService } from './snapshots.ts';

export type MindProfileResponse = MindProfile & { mindId: string };

/** The topics of a profile, with their evidence (stances and passages). */
export interface TopicAnalysis {
  mindId: string;
  snapshotIds: string[];
  count: number;
  topics: MindTopic[];
}

const topicsOf = (mindId: string, profile: MindProfile): TopicAnalysis => ({
  mindId,
  snapshotIds: profile.snapshotIds,
  count: profile.topics.length,
  topics: profile.topics,
});

/** The persona profile of a mind, merged over its linked completed snapshots (held by MindMemories), and of one snapshot. */
export class ProfileService {
  private readonly store: Store;
  private readonly minds: MindService;
  private readonly memories: MindMemories;
  private readonly snapshots: SnapshotService;
  constructor(store: Store, minds: MindService, memories: MindMemories, snapshots: SnapshotService) {
    this.store = store;
    this.minds = minds;
    this.memories = memories;
    this.snapshots = snapshots;
  }

  async profile(auth: AuthContext, mindId: string): Promise<MindProfileResponse> {
    const mind = await this.minds.require(auth, mindId);
    const snapshotIds = await answeringSnapshotIds(this.store, mind.id);
    const { profile } = await this.memories.context(snapshotIds);
    return { mindId: mind.id, ...profile };
  }

  /** The profile of one completed snapshot (read from its row: a set of one is not worth a cache entry). */
  async snapshotProfile(auth: AuthContext, mindId: string, snapshotId: string): Promise<MindProfileResponse> {
    const snap = await this.snapshots.requireCompleted(auth, mindId, snapshotId);
    const rows = await this.store.repos.profiles.profilesOf([snap.id]);
    const profiles = rows.map((r) => ({ snapshotId: r.snapshot_id, profile: JSON.parse(r.profile) as StoredSnapshotProfile }));
    return { mindId: snap.mindId, ...mergeProfiles(profiles) };
  }

  async topics(auth: AuthContext, mindId: string): Promise<TopicAnalysis> {
    return topicsOf(mindId, await this.profile(auth, mindId));
  }

  async snapshotTopics(auth: AuthContext, mindId: string, snapshotId: string): Promise<TopicAnalysis> {
    const profile = await this.snapshotProfile(auth, mindId, snapshotId);
    return { ...topicsOf(mindId, profile), snapshotIds: [snapshotId] };
  }
}
