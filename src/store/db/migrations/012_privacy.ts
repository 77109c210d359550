import type { Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';
import { sql } from '../kysely.ts';

/**
 * Issue 25, the person's control over their data:
 * - each mind's consent record (status, subject, how and when obtained, scope as a JSON array of
 *   simulate | panels | llm, expiry, the evidence artifact, when withdrawn) and its redaction mode;
 * - per account, whether consent is required and how many days transcripts and simulations are kept;
 * - `consent_withdrawals`: the content-free record a withdrawal leaves once the person's words are erased;
 * - `access_log`, append-only: the database itself refuses any UPDATE, and any DELETE of a row
 *   younger than the retention kept in service_settings under `audit_retention_days` (400 when
 *   unset; the service writes AUDIT_RETENTION_DAYS there at start). PostgreSQL also refuses TRUNCATE.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const pg = dialectOf(db) === 'postgres';
  await db.schema.alterTable('minds').addColumn('consent_status', 'text', (c) => c.notNull().defaultTo('unknown')).execute();
  for (const column of ['consent_subject', 'consent_obtained_at', 'consent_method', 'consent_scope', 'consent_expires_at', 'consent_evidence_artifact_id', 'consent_withdrawn_at']) {
    await db.schema.alterTable('minds').addColumn(column, 'text').execute();
  }
  await db.schema.alterTable('minds').addColumn('redaction', 'text', (c) => c.notNull().defaultTo('off')).execute();

  await db.schema.alterTable('accounts').addColumn('require_consent', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('accounts').addColumn('retention_days', 'integer').execute();

  await db.schema
    .createTable('consent_withdrawals')
    .addColumn('mind_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('withdrawn_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('consent_withdrawals_account').on('consent_withdrawals').column('account_id').execute();

  await db.schema
    .createTable('access_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('mind_id', 'text')
    .addColumn('resource_id', 'text')
    .addColumn('ip', 'text')
    .execute();
  await db.schema.createIndex('access_log_account_at').on('access_log').columns(['account_id', 'at', 'id']).execute();
  await db.schema.createIndex('access_log_mind_at').on('access_log').columns(['mind_id', 'at']).execute();

  if (pg) {
    await sql`
      create function access_log_guard() returns trigger language plpgsql as $$
      declare
        days integer := coalesce((select value::integer from service_settings where key = 'audit_retention_days'), 400);
      begin
        if tg_op = 'UPDATE' then
          raise exception 'access_log is append-only: rows cannot be updated' using errcode = 'P0001';
        end if;
        if tg_op = 'TRUNCATE' then
          raise exception 'access_log is append-only: it cannot be truncated' using errcode = 'P0001';
        end if;
        if old.at > to_char((now() at time zone 'utc') - make_interval(days => days), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') then
          raise exception 'access_log rows are kept % days: this one cannot be deleted yet', days using errcode = 'P0001';
        end if;
        return old;
      end $$`.execute(db);
    await sql`create trigger access_log_append_only before update or delete on access_log for each row execute function access_log_guard()`.execute(db);
    await sql`create trigger access_log_no_truncate before truncate on access_log for each statement execute function access_log_guard()`.execute(db);
  } else {
    await sql`
      create trigger access_log_no_update before update on access_log
      begin select raise(abort, 'access_log is append-only: rows cannot be updated'); end`.execute(db);
    await sql`
      create trigger access_log_no_early_delete before delete on access_log
      when old.at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now',
        '-' || coalesce((select cast(value as integer) from service_settings where key = 'audit_retention_days'), 400) || ' days')
      begin select raise(abort, 'access_log rows are kept for the audit retention: this one cannot be deleted yet'); end`.execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`drop trigger if exists access_log_append_only on access_log`.execute(db);
    await sql`drop trigger if exists access_log_no_truncate on access_log`.execute(db);
    await sql`drop function if exists access_log_guard()`.execute(db);
  }
  await db.schema.dropTable('access_log').execute();
  await db.schema.dropTable('consent_withdrawals').execute();
  for (const column of ['require_consent', 'retention_days']) await db.schema.alterTable('accounts').dropColumn(column).execute();
  for (const column of ['consent_status', 'consent_subject', 'consent_obtained_at', 'consent_method', 'consent_scope', 'consent_expires_at', 'consent_evidence_artifact_id', 'consent_withdrawn_at', 'redaction']) {
    await db.schema.alterTable('minds').dropColumn(column).execute();
  }
}
