import { sql } from '../kysely.ts';
import type { PageCursor } from '../../../kernel/pagination.ts';

/** Rows strictly after the cursor in (created_at desc, id desc) order; column names are fixed by convention. */
export function olderThan(cursor: PageCursor, column = 'created_at') {
  const col = sql.ref(column);
  return sql<boolean>`(${col} < ${cursor.createdAt} or (${col} = ${cursor.createdAt} and id < ${cursor.id}))`;
}
