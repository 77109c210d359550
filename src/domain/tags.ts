import type { Repos } from '../store/db/repos/index.ts';
import type { TagRow } from '../store/db/repos/tags.ts';
import { isUniqueViolation } from '../store/db/dialect.ts';
import type { Store } from '../store/store.ts';
import type { AuthContext } from './accounts.ts';
import { conflict, invalid, notFound } from '../kernel/errors.ts';
import { foldKey } from '../kernel/name-keys.ts';
import { iso, type Runtime } from '../kernel/runtime.ts';

/** An account-wide tag, as minds and the API show it. */
export interface Tag {
  id: string;
  name: string;
}

export const MAX_TAG_NAME = 100;
export const MAX_TAGS_PER_MIND = 50;

/**
 * A tag's name as stored: trimmed; 1–100 characters, no comma (`GET /minds?tags=a,b` separates
 * names with commas) and no control character.
 */
export function tagName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0 || name.length > MAX_TAG_NAME || name.includes(',') || /\p{Cc}/u.test(name)) {
    throw invalid('invalid_tag_name', `A tag name has 1 to ${MAX_TAG_NAME} characters, without commas or control characters.`, {
      field: 'name',
      value: raw.slice(0, MAX_TAG_NAME + 10),
    });
  }
  return name;
}

/** The names, checked, without repeats (names equal but for case count once: the first is kept). */
export function distinctTagNames(raw: readonly string[]): string[] {
  const names = oncePerKey(raw.map(tagName));
  if (names.length > MAX_TAGS_PER_MIND) {
    throw invalid('too_many_tags', `A mind carries at most ${MAX_TAGS_PER_MIND} tags.`, { limit: MAX_TAGS_PER_MIND });
  }
  return names;
}

/** Names trimmed, empty ones dropped, each once whatever its case (the first spelling kept), in order. */
export function oncePerKey(raw: readonly string[]): string[] {
  const byKey = new Map<string, string>();
  for (const r of raw) {
    const name = r.trim();
    if (name && !byKey.has(foldKey(name))) byKey.set(foldKey(name), name);
  }
  return [...byKey.values()];
}

/**
 * The account's tags of these names, in their order, made where missing (an existing tag keeps
 * its spelling: "marketing" finds "Marketing"). Runs inside the caller's transaction.
 */
export async function ensureTags(repos: Repos, accountId: string, names: readonly string[], rt: Runtime): Promise<TagRow[]> {
  const keys = names.map(foldKey);
  const existing = new Map((await repos.tags.byKeys(accountId, keys)).map((t) => [t.name_key, t]));
  const at = iso(rt.now());
  const made: TagRow[] = [];
  for (const [i, name] of names.entries()) {
    const key = keys[i] as string;
    if (existing.has(key)) continue;
    const row: TagRow = { id: rt.newId(), account_id: accountId, name, name_key: key, created_at: at, updated_at: at };
    existing.set(key, row);
    made.push(row);
  }
  await repos.tags.insert(made);
  return keys.map((k) => existing.get(k) as TagRow);
}

/**
 * Runs `fn` (a transaction) again when a unique index refused its write: another request made
 * the same tag or took the same slug meanwhile, and the next attempt sees it.
 */
export async function retryingUniqueClashes<T>(fn: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (!isUniqueViolation(err) || i >= attempts) throw err;
    }
  }
}

const toTag = (r: TagRow): Tag => ({ id: r.id, name: r.name });

/**
 * Tags by folded name then id, compared by code unit here rather than by the database's collation
 * (PostgreSQL's follows the server's locale), so every store lists them in the same order.
 */
export const byTagName = (a: Pick<TagRow, 'name_key' | 'id'>, b: Pick<TagRow, 'name_key' | 'id'>) =>
  a.name_key < b.name_key ? -1 : a.name_key > b.name_key ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** Account-wide tags: list, rename, delete. Minds set theirs through MindService.setTags. */
export class TagService {
  private readonly store: Store;
  private readonly rt: Runtime;
  constructor(store: Store, rt: Runtime) {
    this.store = store;
    this.rt = rt;
  }

  async list(auth: AuthContext): Promise<Tag[]> {
    return (await this.store.repos.tags.list(auth.accountId)).sort(byTagName).map(toTag);
  }

  /** 409 tag_name_taken when another tag of the account has the name (whatever its case). */
  async rename(auth: AuthContext, tagId: string, rawName: string): Promise<Tag> {
    const name = tagName(rawName);
    const key = foldKey(name);
    const taken = () => conflict('tag_name_taken', `Another tag is already named "${name}".`, { field: 'name' });
    try {
      return await this.store.transaction(async ({ repos }) => {
        const tag = await repos.tags.byId(auth.accountId, tagId);
        if (!tag) throw notFound('The tag', 'tag_not_found');
        if ((await repos.tags.byKeys(auth.accountId, [key])).some((t) => t.id !== tagId)) throw taken();
        const at = iso(this.rt.now());
        await repos.tags.rename(auth.accountId, tagId, name, key, at);
        return { id: tag.id, name };
      });
    } catch (err) {
      throw isUniqueViolation(err) ? taken() : err;
    }
  }

  /** Removes the tag from every mind of the account, then the tag. */
  async delete(auth: AuthContext, tagId: string): Promise<void> {
    const deleted = await this.store.transaction(({ repos }) => repos.tags.delete(auth.accountId, tagId));
    if (!deleted) throw notFound('The tag', 'tag_not_found');
  }
}
