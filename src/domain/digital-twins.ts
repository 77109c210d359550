import type { Store } from '../store/store.ts';
import type { AuthContext } from './accounts.ts';
import { notFound } from '../kernel/errors.ts';
import { iso, type Runtime } from '../kernel/runtime.ts';
import { toTwin, type DigitalTwin } from './mind-view.ts';
import type { MindService } from './minds.ts';

/**
 * A mind's digital twins. Each mind has its default twin (made with it, never deleted); more can
 * be added and renamed. A snapshot is linked to one twin (snapshots.digital_twin_id): a twin's
 * simulation draws on its own linked snapshots only.
 */
export class DigitalTwinService {
  private readonly store: Store;
  private readonly minds: MindService;
  private readonly rt: Runtime;
  constructor(store: Store, minds: MindService, rt: Runtime) {
    this.store = store;
    this.minds = minds;
    this.rt = rt;
  }

  async list(auth: AuthContext, mindId: string): Promise<DigitalTwin[]> {
    await this.minds.require(auth, mindId);
    return (await this.store.repos.twins.ofMind(auth.accountId, mindId)).map(toTwin);
  }

  async create(auth: AuthContext, mindId: string, name: string): Promise<DigitalTwin> {
    await this.minds.require(auth, mindId);
    const at = iso(this.rt.now());
    const row = { id: this.rt.newId(), mind_id: mindId, account_id: auth.accountId, name, is_default: 0, created_at: at, updated_at: at };
    await this.store.repos.twins.insert(row);
    return toTwin(row);
  }

  async rename(auth: AuthContext, mindId: string, twinId: string, name: string): Promise<DigitalTwin> {
    await this.minds.require(auth, mindId);
    const { twins } = this.store.repos;
    if (!(await twins.rename(auth.accountId, mindId, twinId, name, iso(this.rt.now())))) throw notFound('The digital twin', 'digital_twin_not_found');
    return this.require(auth, mindId, twinId);
  }

  /** The twin of this mind, or NotFound (also for another mind's or account's twin). */
  async require(auth: AuthContext, mindId: string, twinId: string): Promise<DigitalTwin> {
    const row = await this.store.repos.twins.byId(auth.accountId, mindId, twinId);
    if (!row) throw notFound('The digital twin', 'digital_twin_not_found');
    return toTwin(row);
  }
}
