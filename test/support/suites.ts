import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'inproc');

/**
 * Runs test/inproc/<name>.test.ts files one after the other in this process, each as a suite of
 * its own (its top-level hooks scoped to it). `groupUrl` is the calling group file's
 * import.meta.url; one check fails when a file of test/inproc is in no group, so none is skipped.
 */
export function suites(groupUrl: string, names: readonly string[]): void {
  for (const name of names) describe(`${name}.test.ts`, async () => void (await import(path.join(DIR, `${name}.test.ts`))));
  if (!groupUrl.endsWith('inproc.api.test.ts')) return;
  it('every file of test/inproc is in a group', () => {
    const grouped = new Set<string>();
    for (const file of fs.readdirSync(path.join(DIR, '..')).filter((f) => /^inproc\..+\.test\.ts$/.test(f))) {
      for (const m of fs.readFileSync(path.join(DIR, '..', file), 'utf8').matchAll(/^ {2}'([\w.-]+)',$/gm)) grouped.add(m[1] ?? '');
    }
    const missing = fs.readdirSync(DIR).filter((f) => f.endsWith('.test.ts') && !grouped.has(f.replace(/\.test\.ts$/, '')));
    assert.deepEqual(missing, [], 'add these files of test/inproc to a group (test/inproc.*.test.ts)');
  });
}
