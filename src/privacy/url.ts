import { personalHandle } from './handles.ts';
import type { Span } from './kinds.ts';

/**
 * URLs whose path names a person: a profile on a social or code site (linkedin.com/in/<name>,
 * x.com/<handle>, github.com/<user>, medium.com/@<name> …) or, on any site, a path segment that
 * introduces a person or account (/@name, /~name, /users/…, /people/…, /profile/…, /author/…).
 * A URL of a product, a document or a site's home page is not personal data and stays, nor is an
 * organisation's or project's page (github.com/mozilla/sops, youtube.com/@squaredev: the account
 * is read by handles.ts).
 */
const URL_LIKE = /\b(?:https?:\/\/|www\.)[^\s<>"'()[\]{}]+|\b(?:[a-z0-9-]+\.)+[a-z]{2,12}\/[^\s<>"'()[\]{}]+|\b(?:[a-z0-9-]+\.\s?)+(?:com|org|net|io|me|co|dev|app|tv|fm|ai|edu|uk|de|fr)\/[^\s<>"'()[\]{}]+/gi;
/**
 * A URL's remainder on a line of its own, where a sentence splitter cut "linkedin.com/in/x" at its
 * dot ("linkedin." | "com/in/x"): a top-level domain, then a path that introduces a person.
 */
const URL_REST = /(?<![\w.])(?:com|org|net|io|me|co)\/(?:in|pub|u|user|users|people|profile|author|@)[^\s<>"'()[\]{}]*/gi;

/** Sites whose first path segment is a person or an account (besides their own pages, listed below). */
const PROFILE_HOSTS = new Set([
  'twitter.com',
  'x.com',
  'facebook.com',
  'fb.com',
  'instagram.com',
  'github.com',
  'gitlab.com',
  'tiktok.com',
  'threads.net',
  'bsky.app',
  'pinterest.com',
  'soundcloud.com',
  'vimeo.com',
  'twitch.tv',
  'patreon.com',
  'substack.com',
  'about.me',
  'linktr.ee',
  't.me',
]);
/** First path segments of those sites that are the site's own pages, not someone's. */
const SITE_PAGES = new Set([
  'about', 'help', 'login', 'signup', 'join', 'settings', 'explore', 'features', 'pricing', 'search', 'home', 'privacy', 'terms',
  'tos', 'legal', 'blog', 'docs', 'developers', 'marketplace', 'topics', 'trending', 'orgs', 'enterprise', 'team', 'security',
  'careers', 'jobs', 'press', 'events', 'hashtag', 'i', 'intent', 'share', 'watch', 'sponsors', 'apps', 'collections', 'site',
  'p', 'reel', 'reels', 'stories', 'tv', 'groups', 'pages', 'policies', 'status', 'discover', 'store', 'download', 'customer-stories',
]);
/** Path segments that introduce a person or an account on any site. */
const PERSON_SEGMENTS = new Set(['in', 'pub', 'profile', 'profiles', 'user', 'users', 'u', 'people', 'person', 'author', 'authors', 'member', 'members', 'staff', 'channel', 'c']);

function personal(url: string): boolean {
  const withScheme = /^https?:\/\//i.test(url) ? url : `http://${url}`;
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    return false;
  }
  const host = parsed.hostname.toLowerCase().replace(/^(www|m|mobile)\./, '');
  const segments = parsed.pathname.split('/').filter(Boolean).map((s) => decodeURIComponentSafe(s));
  const handle = segments.find((s) => s.startsWith('@') || s.startsWith('~'));
  if (handle !== undefined) return personalHandle(handle);
  const first = segments[0]?.toLowerCase();
  if (first === undefined) return false;
  if (host === 'linkedin.com' || host.endsWith('.linkedin.com')) return first === 'in' || first === 'pub';
  if (host === 'reddit.com' || host.endsWith('.reddit.com')) return first === 'u' || first === 'user';
  if (host === 'youtube.com') return first === 'c' || first === 'user' || first === 'channel';
  // An organisation's or project's account (github.com/mozilla/sops, github.com/quicksilver/quicksilver) is no one's.
  if (PROFILE_HOSTS.has(host)) return !SITE_PAGES.has(first) && personalHandle(first) && segments[1]?.toLowerCase() !== first;
  return segments.slice(0, -1).some((s) => PERSON_SEGMENTS.has(s.toLowerCase()));
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export function findPersonalUrls(text: string): Span[] {
  const spans: Span[] = [];
  for (const m of text.matchAll(URL_LIKE)) {
    // A sentence's closing punctuation is not part of the URL.
    const raw = m[0].replace(/[.,;:!?]+$/, '');
    if (spans.some((s) => m.index < s.end && s.start < m.index + raw.length)) continue;
    if (raw.includes('@') && !raw.includes('/')) continue; // an e-mail address's domain
    if (m.index > 0 && text[m.index - 1] === '@') continue;
    if (personal(raw.replace(/\.\s/g, '.'))) spans.push({ start: m.index, end: m.index + raw.length, kind: 'url', value: raw });
  }
  for (const m of text.matchAll(URL_REST)) {
    const raw = m[0].replace(/[.,;:!?]+$/, '');
    if (!spans.some((s) => m.index < s.end && s.start < m.index + raw.length)) spans.push({ start: m.index, end: m.index + raw.length, kind: 'url', value: raw });
  }
  return spans;
}
