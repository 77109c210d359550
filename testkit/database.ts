import path from 'node:path';
import Database from 'better-sqlite3';

/** Rows of usage_daily, read from a service's SQLite file (read-only, closed after). */
export function usageRows(dataDir: string, accountId: string): Array<{ day: string; requests: number }> {
  const db = new Database(path.join(dataDir, 'mindsim.sqlite'), { readonly: true });
  try {
    return db.prepare('select day, requests from usage_daily where account_id = ? order by day').all(accountId) as Array<{
      day: string;
      requests: number;
    }>;
  } finally {
    db.close();
  }
}
