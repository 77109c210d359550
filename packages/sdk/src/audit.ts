import { Paginated } from './pagination.ts';
import { API_PREFIX, type Transport } from './transport.ts';
import type { AuditEntry, AuditList } from './types.ts';

export interface AuditListOptions {
  /** Only this mind's rows (they outlive the mind; a mind the account never had is 404). */
  mindId?: string;
  /** From this time, included: an ISO date (UTC, from its first moment) or date-time. */
  from?: string;
  /** Until this time, included: an ISO date (to its last moment) or date-time. */
  to?: string;
  /** Rows per page (1–200, default 50). */
  limit?: number;
  cursor?: string;
  signal?: AbortSignal;
}

/** `/audit`: the account's access log (who read, changed or deleted what of a mind, and when), newest first. */
export class Audit {
  private readonly transport: Transport;
  constructor(transport: Transport) {
    this.transport = transport;
  }

  /** Walked page by page (`for await`, `.all()`, `.pages()`); `.first()` answers the first page's `{entries}`. */
  list(opts: AuditListOptions = {}): Paginated<AuditEntry, AuditList> {
    const { mindId, from, to, limit, cursor, signal } = opts;
    return new Paginated<AuditEntry, AuditList>(this.transport, `${API_PREFIX}/audit`, { mindId, from, to, limit, cursor }, signal, (body) => body.entries);
  }
}
