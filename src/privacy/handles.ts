/**
 * Whether an e-mail address's local part or a URL's account names one person. The rule
 * (docs/PRIVACY.md): an address or a page is personal unless it is a role's, a team's, a
 * project's or an organisation's. A local part or account is taken for one of those when it is a
 * role word ("editors", "hello", "info", "support" …), a product's, project's, company's or
 * place's name in the corpus ("mozilla", "hashicorp"), ends like an organisation's handle
 * ("acmehq", "squaredev"), or is made only of common words ("bigtent", "shipit", "whatever"); a
 * given name or surname in it, or an initial and a surname ("adam", "johnny.shields", "areyes") makes it a
 * person's. Anything else (an unknown handle such as "fxn") is taken as a person's: the safe side.
 */
import { isCommonWord, isNameWord, isNotPersonFolded } from './lexicon.ts';

/** Local parts and accounts that name a role, a team or a function, never one person. */
const ROLES = new Set(
  ('editors editor hello hi hey info information contact contacts support help helpdesk team teams admin administrator root webmaster ' +
    'postmaster hostmaster abuse noreply no-reply donotreply do-not-reply sales press media news newsletter marketing partners ' +
    'partnerships sponsors sponsorship billing accounts accounting finance invoices invoice jobs careers hiring recruiting hr legal ' +
    'privacy security office enquiries inquiries feedback community podcast podcasts show shows hosts producers studio events ' +
    'conference tips ops devops it dev developers engineering mail email inbox orders shop store service services customer customers').split(' '),
);
/** Endings of organisations' and projects' handles ("squaredev", "acmehq"). */
const ORG_ENDING = /.{3,}(?:hq|inc|labs|team|dev|devs|app|official|foundation|community|studio|corp|podcast)$/;
/** Two-letter words a handle may be made of ("shipit", "acmejs"); other pieces have three letters or more. */
const SHORT_WORDS = new Set(['it', 'io', 'hq', 'js']);
/** An initial and a surname: the surname has more letters than this ("areyes", not "abob"). */
const MIN_SURNAME = 3;
/** One of a handle's words has at least this many letters ("big" "tent", not "had" "dad"). */
const LONG_PIECE = 4;
/** A handle is split into at most this many words ("ship" "it"; "the" "changelog"). */
const MAX_PIECES = 3;

const generic = (w: string): boolean => (w.length >= 3 || SHORT_WORDS.has(w)) && (ROLES.has(w) || isCommonWord(w) || isNotPersonFolded(w)) && !isNameWord(w);

/** `letters` as up to MAX_PIECES common words, none of them a name. */
function madeOfWords(letters: string, pieces = 0, long = false): boolean {
  if (letters === '') return pieces > 0 && long;
  if (pieces === MAX_PIECES) return false;
  for (let k = letters.length; k >= 2; k--) if (generic(letters.slice(0, k)) && madeOfWords(letters.slice(k), pieces + 1, long || k >= LONG_PIECE)) return true;
  return false;
}

/** Whether a local part or an account ("adam", "editors", "mozilla", "@quaredev") is one person's. */
export function personalHandle(handle: string): boolean {
  const h = handle.replace(/^[@~]/, '').toLowerCase();
  if (ROLES.has(h) || isNotPersonFolded(h)) return false;
  // Digits after a word are a person's way ("diego77", "jane_doe42"), not a role's.
  if (/^\p{L}+[._-]?\d{2,}$/u.test(h) && !ROLES.has(h.replace(/[._-]?\d+$/, ''))) return true;
  const parts = h.split(/[^\p{L}]+/u).filter((p) => p.length > 0);
  if (parts.length === 0) return true;
  // A given name or surname in it, or an initial and a surname ("jsmith", "areyes").
  if (parts.some((p) => isNameWord(p) || (p.length > MIN_SURNAME && isNameWord(p.slice(1))))) return true;
  if (parts.every((p) => ROLES.has(p) || isNotPersonFolded(p) || ORG_ENDING.test(p) || madeOfWords(p))) return false;
  return true;
}
