import { invalid } from './errors.ts';

/**
 * How deeply arrays and objects may nest in any JSON body the service reads (the API, /mcp, the
 * dashboard, the webhook). No request of ours nests past 10; deeper JSON (a megabyte holds 500,000
 * levels) parses, but anything recursive over it afterwards (validation, serialising a stored
 * webhook payload again) can overflow the stack.
 */
export const MAX_JSON_DEPTH = 100;

/**
 * Whether JSON text nests arrays and objects deeper than `max`: one pass over the text counting
 * brackets outside strings, no recursion, stopping at the first level past `max`. Text that is
 * not JSON is left to the parser.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

/** 400 `json_too_deep` when the text nests past MAX_JSON_DEPTH; checked before the text is parsed. */
export function checkJsonDepth(text: string): void {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw invalid('json_too_deep', `The JSON nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`, { maxDepth: MAX_JSON_DEPTH });
  }
}

export const notJson = () => invalid('invalid_json', 'The request body is not valid JSON.');

/** Only text that could spell one of the refused keys (possibly with \u escapes) is walked for them. */
const SUSPECT = /__proto__|constructor|\\u/;

/**
 * The path (`.a.0.__proto__`) and name of the first key that could change an object's prototype
 * when the value is copied or merged: `__proto__` anywhere, or `constructor` holding a `prototype`
 * (as Fastify's own JSON parser refuses them). An iterative walk: the depth is already bounded.
 */
function refusedKey(root: unknown): { path: string; key: string } | null {
  const stack: Array<[unknown, string]> = [[root, '']];
  while (stack.length > 0) {
    const [value, path] = stack.pop() as [unknown, string];
    if (value === null || typeof value !== 'object') continue;
    for (const [k, v] of Object.entries(value)) {
      if (k === '__proto__') return { path: `${path}.${k}`, key: k };
      if (k === 'constructor' && v !== null && typeof v === 'object' && Object.hasOwn(v, 'prototype')) return { path: `${path}.${k}`, key: k };
      stack.push([v, `${path}.${k}`]);
    }
  }
  return null;
}

/**
 * A JSON request body as the service reads it: 400 `invalid_json` when empty or malformed, 400
 * `json_too_deep` past MAX_JSON_DEPTH (before parsing), and 400 `invalid_json` naming the key for
 * a `__proto__` key, or a `constructor` key holding `prototype`, anywhere in it (refused rather
 * than stripped, so nothing the client sent is silently dropped). A leading byte-order mark is skipped.
 */
export function parseJsonBody(raw: string): unknown {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  if (text.length === 0) throw invalid('invalid_json', 'The request body is empty; JSON was expected.');
  checkJsonDepth(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw notJson();
  }
  const refused = SUSPECT.test(text) ? refusedKey(value) : null;
  if (refused) {
    const what = refused.key === '__proto__' ? 'a "__proto__" key' : 'a "constructor" key holding "prototype"';
    throw invalid(
      'invalid_json',
      `The JSON holds ${what} (at body${refused.path}), refused because it could change the prototype of objects on the server: rename or remove that key.`,
      { field: `body${refused.path}`, refusedKey: refused.key },
    );
  }
  return value;
}
