import { invalid } from '../kernel/errors.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Zero-width space, non-joiner and joiner, word joiner, and the byte-order mark (zero-width no-break space). */
const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF]/g;

/** Any other control, format (bidi overrides, soft hyphen…), private-use, unassigned or lone surrogate character. */
const INVISIBLE = /\p{C}/u;

/**
 * The three scripts whose letters pass for one another (Latin a, Cyrillic а, Greek α; o, о, ο…).
 * UTS #39's "moderately restrictive" level refuses an identifier mixing Latin with Cyrillic or
 * Greek; Greek with Cyrillic is refused too. Letters of any other script are not checked here.
 */
const LOOKALIKE_SCRIPTS = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
] as const;

const codePoint = (ch: string) => `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * The form an address is stored, compared and looked up in, with no check: zero-width characters
 * removed, NFKC (full-width and styled letters become plain ones), trimmed, lower-cased. Log-in
 * looks an address up in this form, so an invisible character cannot reach another account.
 */
export function canonicalEmail(email: string): string {
  return email.replace(ZERO_WIDTH, '').normalize('NFKC').trim().toLowerCase().normalize('NFKC');
}

/** The first letter of each of Latin, Cyrillic and Greek in the address, in the order they appear. */
function lookalikeScripts(address: string): Array<[script: string, letter: string]> {
  const found = new Map<string, string>();
  for (const ch of address) {
    for (const [script, re] of LOOKALIKE_SCRIPTS) if (!found.has(script) && re.test(ch)) found.set(script, ch);
  }
  return [...found];
}

/**
 * An account's email as stored and compared (canonicalEmail), shaped like an address, with no
 * invisible character and not mixing Latin, Cyrillic and Greek letters anywhere in it (a local
 * part in Cyrillic at a Latin domain is refused too: `а@example.com` with a Cyrillic "а" would
 * otherwise sit beside `a@example.com`). An address in one of those scripts alone is accepted.
 */
export function normalizeEmail(email: string): string {
  const normalized = canonicalEmail(email);
  if (!EMAIL.test(normalized)) throw invalid('invalid_email', `"${email}" is not an email address.`);
  const hidden = INVISIBLE.exec(normalized)?.[0];
  if (hidden !== undefined) {
    throw invalid('invalid_email', `The email address holds an invisible or control character (${codePoint(hidden)}): type it again without it.`, { character: codePoint(hidden) });
  }
  const scripts = lookalikeScripts(normalized);
  if (scripts.length > 1) {
    // Named: the letters that are not Latin (or, for Greek with Cyrillic, the later script's first letter).
    const odd = scripts.some(([s]) => s === 'Latin') ? scripts.filter(([s]) => s !== 'Latin') : scripts.slice(1);
    const names = scripts.map(([s]) => s);
    throw invalid(
      'mixed_script_email',
      `The email address mixes ${names.join(' and ')} letters (${odd.map(([s, l]) => `"${l}", ${codePoint(l)}, is ${s}`).join('; ')}), ` +
        'as a look-alike of another address would: write it in one script.',
      { scripts: names },
    );
  }
  return normalized;
}
