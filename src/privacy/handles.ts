/**
 * Whether an e-mail address's local part or a URL's account names one person. The rule
 * (docs/PRIVACY.md): an address or a page is personal unless it is a role's, a team's, a
 * project's or an organisation's. A local part or account is taken for one of those when it is a
 * role word ("editors", "hello", "info", "support" …), a product's, project's, company's or
 * place's name in the corpus ("mozilla", "hashicorp"), ends like an organisation's handle
 * ("acmehq", "squaredev"), or is made only of common words ("bigtent", "shipit", "whatever"); a
 * given name or surname anywhere in it ("adam", "mikemcquaid", "johnnyshields") makes it a
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
/** Two-letter words a handle may be made of ("shipit", "getup"); other pieces have three letters or more. */
const SHORT_WORDS = new Set(['it', 'io', 'my', 'me', 'we', 'go', 'up', 'on', 'in', 'of', 'to', 'at', 'is', 'by', 'hq', 'js']);
/** A handle is split into at most this many words ("ship" "it"; "the" "changelog"). */
const MAX_PIECES = 3;

const generic = (w: string): boolean => (w.length >= 3 || SHORT_WORDS.has(w)) && (ROLES.has(w) || isCommonWord(w) || isNotPersonFolded(w)) && !isNameWord(w);

/** `letters` as up to MAX_PIECES common words, none of them a name. */
function madeOfWords(letters: string, pieces = 0): boolean {
  if (letters === '') return pieces > 0;
  if (pieces === MAX_PIECES) return false;
  for (let k = letters.length; k >= 2; k--) if (generic(letters.slice(0, k)) && madeOfWords(letters.slice(k), pieces + 1)) return true;
  return false;
}

/** Whether a local part or an account ("adam", "editors", "mozilla", "@quaredev") is one person's. */
export function personalHandle(handle: string): boolean {
  const h = handle.replace(/^[@~]/, '').toLowerCase();
  if (ROLES.has(h) || isNotPersonFolded(h)) return false;
  const parts = h.split(/[^\p{L}]+/u).filter((p) => p.length > 0);
  if (parts.length === 0) return true;
  if (parts.some((p) => isNameWord(p))) return true;
  if (parts.every((p) => ROLES.has(p) || isNotPersonFolded(p) || ORG_ENDING.test(p) || madeOfWords(p))) return false;
  return true;
}
