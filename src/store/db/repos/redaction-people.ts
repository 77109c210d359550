import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

/** A clash of two writers numbering the same mind's third parties at once: the job is retried and reads the numbers again. */
export class NumberingClash extends Error {
  constructor() {
    super('Another writer numbered this mind’s third parties at the same time; retrying.');
    this.name = 'NumberingClash';
  }
}

/** Tries of `assign` when another writer takes the same next numbers meanwhile. */
const ASSIGN_TRIES = 5;

/**
 * A mind's third parties' numbers by the keyed hash of their name (013_redaction): the name is
 * never stored. A number is used once per mind; a hash keeps its number for the mind's life.
 */
export class RedactionPeopleRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** Every (hash, number) of the mind. */
  async known(mindId: string): Promise<Array<[string, number]>> {
    const rows = await this.db.selectFrom('redaction_people').select(['hash', 'number']).where('mind_id', '=', mindId).execute();
    return rows.map((r) => [r.hash, Number(r.number)]);
  }

  private async of(mindId: string, hashes: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (let i = 0; i < hashes.length; i += 500) {
      const rows = await this.db
        .selectFrom('redaction_people')
        .select(['hash', 'number'])
        .where('mind_id', '=', mindId)
        .where('hash', 'in', hashes.slice(i, i + 500))
        .execute();
      for (const r of rows) out.set(r.hash, Number(r.number));
    }
    return out;
  }

  /** The numbers of these hashes, new ones numbered after the mind's highest (retried when another writer took a number meanwhile). */
  async assign(mindId: string, hashes: readonly string[], at: string): Promise<Map<string, number>> {
    const wanted = [...new Set(hashes)];
    for (let attempt = 0; attempt < ASSIGN_TRIES; attempt++) {
      const numbers = await this.of(mindId, wanted);
      const missing = wanted.filter((h) => !numbers.has(h));
      if (missing.length === 0) return numbers;
      const top = await this.db.selectFrom('redaction_people').select((eb) => eb.fn.max('number').as('top')).where('mind_id', '=', mindId).executeTakeFirst();
      let next = Number(top?.top ?? 0) + 1;
      for (const hash of missing) {
        await this.db
          .insertInto('redaction_people')
          .values({ mind_id: mindId, hash, number: next++, created_at: at })
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
    }
    throw new NumberingClash();
  }

  /**
   * Stores numbers given elsewhere (an analysis thread numbered new third parties after the ones
   * it was given); throws NumberingClash when a hash or a number was taken otherwise meanwhile.
   */
  async insertAssigned(mindId: string, assigned: ReadonlyArray<readonly [string, number]>, at: string): Promise<void> {
    if (assigned.length === 0) return;
    for (const [hash, number] of assigned) {
      await this.db.insertInto('redaction_people').values({ mind_id: mindId, hash, number, created_at: at }).onConflict((oc) => oc.doNothing()).execute();
    }
    const stored = await this.of(mindId, assigned.map(([h]) => h));
    if (assigned.some(([hash, number]) => stored.get(hash) !== number)) throw new NumberingClash();
  }

  async deleteOfMind(mindId: string): Promise<void> {
    await this.db.deleteFrom('redaction_people').where('mind_id', '=', mindId).execute();
  }
}
