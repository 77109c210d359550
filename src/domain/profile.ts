import type { MindProfile } from '../memory/profile-merge.ts';
import type { Store } from '../store/store.ts';
import type { AuthContext } from './accounts.ts';
import type { MindMemories } from './mind-memory.ts';
import type { MindService } from './minds.ts';
import { snapshotNotReady } from './snapshots.ts';

export type MindProfileResponse = MindProfile & { mindId: string };

/** The persona profile of a mind, merged over its completed snapshots (held by MindMemories). */
export class ProfileService {
  constructor(
    private readonly store: Store,
    private readonly minds: MindService,
    private readonly memories: MindMemories,
  ) {}

  async profile(auth: AuthContext, mindId: string): Promise<MindProfileResponse> {
    const mind = await this.minds.require(auth, mindId);
    const snapshotIds = (await this.store.repos.snapshots.completedIds(mind.id)).map((r) => r.id);
    if (snapshotIds.length === 0) throw snapshotNotReady();
    const { profile } = await this.memories.context(snapshotIds);
    return { mindId: mind.id, ...profile };
  }
}
