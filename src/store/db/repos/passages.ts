import type { Kysely } from 'kysely';
import type { SnapshotPassages } from '../../../memory/search/passage-vectors.ts';
import type { Database } from '../schema.ts';

const bytes = (a: ArrayBufferView): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** A typed array over a copy of stored bytes (aligned, owned). */
function view<T>(stored: Uint8Array, make: (buffer: ArrayBuffer) => T): T {
  const copy = new ArrayBuffer(stored.byteLength);
  new Uint8Array(copy).set(stored);
  return make(copy);
}

/** Each completed snapshot's passages and their encoder vectors, one row per snapshot. */
export class PassagesRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** Replaces the snapshot's passages (a redelivered job writes them again). */
  async save(mindId: string, p: SnapshotPassages, createdAt: string): Promise<void> {
    await this.db.deleteFrom('snapshot_passages').where('snapshot_id', '=', p.snapshotId).execute();
    await this.db
      .insertInto('snapshot_passages')
      .values({
        snapshot_id: p.snapshotId,
        mind_id: mindId,
        encoder: p.encoder,
        dimensions: p.vectors.dimensions,
        spans: bytes(Int32Array.from(p.spans.flatMap((s) => [s.first, s.last]))),
        vectors: bytes(p.vectors.data),
        scales: bytes(p.vectors.scales),
        created_at: createdAt,
      })
      .execute();
  }

  async of(snapshotIds: readonly string[]): Promise<SnapshotPassages[]> {
    if (snapshotIds.length === 0) return [];
    const rows = await this.db.selectFrom('snapshot_passages').selectAll().where('snapshot_id', 'in', [...snapshotIds]).execute();
    return rows.map((r) => {
      const pairs = view(r.spans, (b) => new Int32Array(b));
      const spans = Array.from({ length: pairs.length / 2 }, (_, i) => ({ first: pairs[2 * i] as number, last: pairs[2 * i + 1] as number }));
      return {
        snapshotId: r.snapshot_id,
        encoder: r.encoder,
        spans,
        vectors: { dimensions: r.dimensions, data: view(r.vectors, (b) => new Int8Array(b)), scales: view(r.scales, (b) => new Float32Array(b)) },
      };
    });
  }
}
