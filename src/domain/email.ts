import { domainToASCII, domainToUnicode } from 'node:url';
import unhomoglyph from 'unhomoglyph';
import { DomainError, invalid } from '../kernel/errors.ts';
import type { AccountsRepo } from '../store/db/repos/accounts.ts';

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

/** The full stops IDNA (UTS #46) takes for "." between labels: ideographic U+3002, full-width U+FF0E, half-width ideographic U+FF61. */
const FULL_STOPS = /[\u3002\uFF0E\uFF61]/g;

/**
 * An address with zero-width characters removed, NFKC (full-width and styled letters become plain
 * ones), trimmed and lower-cased: the form accounts were stored in before their domain was
 * normalised too (log-in tries it when the canonical form finds no account).
 */
export function foldedEmail(email: string): string {
  return email.replace(ZERO_WIDTH, '').normalize('NFKC').trim().toLowerCase().normalize('NFKC');
}

/**
 * The domain as the DNS reads it: full stops made ".", the trailing dot of a fully qualified name
 * (`example.com.`, the root) dropped, then IDNA's mapping (node:url's domainToASCII, UTS #46) shown
 * back in Unicode (`xn--80a1acny.xn--p1ai` is `почта.рф`). Left as it is when it is no valid
 * domain, which normalizeEmail refuses.
 */
function canonicalDomain(domain: string): string {
  const dotted = domain.replace(FULL_STOPS, '.');
  const bare = dotted.endsWith('.') && !dotted.endsWith('..') ? dotted.slice(0, -1) : dotted;
  const ascii = domainToASCII(bare);
  return ascii ? domainToUnicode(ascii) : bare;
}

/**
 * The form an address is stored, compared and looked up in, with no check: folded (foldedEmail)
 * and its domain as the DNS reads it (canonicalDomain). Log-in looks an address up in this form, so
 * an invisible character, a trailing dot or an ideographic full stop cannot reach another account.
 */
export function canonicalEmail(email: string): string {
  const folded = foldedEmail(email);
  const at = folded.lastIndexOf('@');
  return at < 0 ? folded : `${folded.slice(0, at)}@${canonicalDomain(folded.slice(at + 1))}`;
}

/**
 * UTS #39's skeleton of a canonical address, lower-cased: NFD, each character replaced by the
 * prototype it is confusable with (Unicode's confusables.txt 13.0, as the npm package unhomoglyph
 * ships it), NFD again. Two addresses with one skeleton look the same (`rn` and `m`, `1` and `l`,
 * `0` and `o`, Latin `ı` and `i`…), so only one account may hold it (`accounts.email_key`).
 */
export function emailKey(canonical: string): string {
  return unhomoglyph(canonical.normalize('NFD')).normalize('NFD').toLowerCase();
}

/**
 * Refuses an address an account holds already with 409: `email_taken` for the same address
 * (whatever its case, width, invisible characters, trailing dot or full stops), `email_lookalike`
 * for one that looks the same (the same skeleton, emailKey).
 */
export async function refuseTaken(accounts: Pick<AccountsRepo, 'byEmail' | 'byEmailKey'>, normalized: string, taken: string): Promise<void> {
  if (await accounts.byEmail(normalized)) throw new DomainError('conflict', 'email_taken', taken);
  if (await accounts.byEmailKey(emailKey(normalized))) {
    throw new DomainError(
      'conflict',
      'email_lookalike',
      'An account with an address that looks the same as this one already exists (characters that pass for one another, such as "rn" and "m", "1" and "l", "0" and "o"): check the address, or log in.',
    );
  }
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
  const at = normalized.lastIndexOf('@');
  const [local, domain] = [normalized.slice(0, at), normalized.slice(at + 1)];
  if (domain.split('.').includes('') || local.split('.').includes('')) {
    throw invalid('invalid_email', `"${email}" is not an email address: a dot starts or ends its name or its domain, or two dots follow each other.`);
  }
  if (!domainToASCII(domain)) throw invalid('invalid_email', `"${email}" is not an email address: "${domain}" is not a domain name.`);
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
