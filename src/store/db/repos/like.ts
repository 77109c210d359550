import { sql } from '../kysely.ts';

/** A LIKE pattern matching `text` anywhere, its own % _ and \ taken literally (with `escape '\'`, see `like`). */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `column LIKE pattern ESCAPE '\'`, the same on SQLite and PostgreSQL. */
export const like = (column: string, pattern: string) => sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`;
