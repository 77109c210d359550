import { LRUCache } from 'lru-cache';
import type { EngineContext } from '../engines/types.ts';
import { mergeProfiles, type MindProfile } from '../memory/profile-merge.ts';
import type { SnapshotProfile } from '../memory/profile-types.ts';
import type { Store } from '../store/store.ts';
import type { AuthContext } from './accounts.ts';
import type { MindService } from './minds.ts';
import { snapshotNotReady } from './snapshots.ts';


export type MindProfileResponse = MindProfile & { mindId: string };

/** The persona profile of a mind, merged over its completed snapshots. */
export class ProfileService {
  /** Per exact set of completed snapshots (they never change once completed). */
  private readonly cache = new LRUCache<string, EngineContext>({ max: 32 });

  constructor(
    private readonly store: Store,
    private readonly minds: MindService,
  ) {}

  async profile(auth: AuthContext, mindId: string): Promise<MindProfileResponse> {
    const mind = await this.minds.require(auth, mindId);
    const snapshotIds = (await this.store.repos.snapshots.completedIds(mind.id)).map((r) => r.id);
    if (snapshotIds.length === 0) throw snapshotNotReady();
    const { profile } = await this.context(snapshotIds);
    return { mindId: mind.id, ...profile };
  }

  /** Profile and reflections of these completed snapshots (in this order). */
  async context(snapshotIds: string[]): Promise<EngineContext> {
    const key = snapshotIds.join(',');
    const hit = this.cache.get(key);
    if (hit) return hit;
    const { profiles } = this.store.repos;
    const rows = new Map((await profiles.profilesOf(snapshotIds)).map((r) => [r.snapshot_id, r]));
    const ordered = snapshotIds.flatMap((id) => {
      const row = rows.get(id);
      return row ? [{ snapshotId: id, profile: JSON.parse(row.profile) as SnapshotProfile }] : [];
    });
    const reflections = (await profiles.reflectionsOf(snapshotIds)).map((r) => ({ snapshotId: r.snapshot_id, expert: r.expert, text: r.text }));
    const context = { profile: mergeProfiles(ordered), reflections };
    this.cache.set(key, context);
    return context;
  }
}
