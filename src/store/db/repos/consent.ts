import type { Kysely, Selectable, Updateable } from 'kysely';
import type { ConsentWithdrawalsTable, Database, MindsTable } from '../schema.ts';

export type ConsentWithdrawalRow = Selectable<ConsentWithdrawalsTable>;

/** The consent columns of a mind (012_privacy), as written together. */
export type ConsentColumns = Required<
  Pick<
    Updateable<MindsTable>,
    | 'consent_status'
    | 'consent_subject'
    | 'consent_obtained_at'
    | 'consent_method'
    | 'consent_scope'
    | 'consent_expires_at'
    | 'consent_evidence_artifact_id'
    | 'consent_withdrawn_at'
  >
>;

/** An account's privacy settings (012_privacy). */
export interface AccountPrivacyRow {
  require_consent: number;
  retention_days: number | null;
}

/**
 * A mind's consent record, the content-free record a withdrawal leaves (`consent_withdrawals`:
 * the mind's id, its account and when, nothing else), and the account's privacy settings.
 */
export class ConsentRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** Writes the mind's consent record; false when the account has no such mind. */
  async set(accountId: string, mindId: string, columns: ConsentColumns, at: string): Promise<boolean> {
    const r = await this.db
      .updateTable('minds')
      .set({ ...columns, updated_at: at })
      .where('id', '=', mindId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Kept when the mind is erased: the proof that consent was withdrawn, and when. */
  async recordWithdrawal(row: ConsentWithdrawalRow): Promise<void> {
    await this.db.insertInto('consent_withdrawals').values(row).execute();
  }

  /** The withdrawal of this account's mind, if its consent was withdrawn (another account's is never answered). */
  withdrawal(accountId: string, mindId: string): Promise<ConsentWithdrawalRow | undefined> {
    return this.db.selectFrom('consent_withdrawals').selectAll().where('mind_id', '=', mindId).where('account_id', '=', accountId).executeTakeFirst();
  }

  /** The withdrawals among these ids of the account's minds. */
  withdrawals(accountId: string, mindIds: readonly string[]): Promise<ConsentWithdrawalRow[]> {
    if (mindIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('consent_withdrawals').selectAll().where('account_id', '=', accountId).where('mind_id', 'in', [...mindIds]).execute();
  }

  accountPrivacy(accountId: string): Promise<AccountPrivacyRow | undefined> {
    return this.db.selectFrom('accounts').select(['require_consent', 'retention_days']).where('id', '=', accountId).executeTakeFirst();
  }

  async setAccountPrivacy(accountId: string, changes: Partial<AccountPrivacyRow>): Promise<boolean> {
    if (Object.keys(changes).length === 0) return (await this.accountPrivacy(accountId)) !== undefined;
    const r = await this.db.updateTable('accounts').set(changes).where('id', '=', accountId).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
}
