/**
 * Numbers a person states, as spoken or written in a transcript: digits ("50", "2,000", "2.5",
 * "$2 million", "30%", "10k"), number words ("two years", "twenty-five people", "a hundred",
 * "a dozen", "a couple of years"), each with the words that follow it (its unit: "years",
 * "people", "employees"). Used by typed answers to number questions. Pure and deterministic.
 */

export interface StatedNumber {
  value: number;
  /** The text as it appears ("$2 million", "two years"). */
  text: string;
  /** Up to three lower-cased words after the number (and its scale word): what it counts. */
  after: string[];
  /** A currency sign or word came with it. */
  money: boolean;
  /** Written as digits (a spoken "one" or "a couple" is far more often not a quantity). */
  digits: boolean;
  /** Position of the number in the text (characters). */
  at: number;
}

const SMALL: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const SCALES: Record<string, number> = { hundred: 100, thousand: 1e3, k: 1e3, million: 1e6, m: 1e6, mm: 1e6, billion: 1e9, bn: 1e9, b: 1e9 };
const APPROX: Record<string, number> = { dozen: 12, couple: 2 };

const TOKEN_RE = /\$|€|£|%|[A-Za-z]+(?:['’-][A-Za-z]+)*|\d[\d,]*(?:\.\d+)?|\S/g;

interface Tok {
  text: string;
  lower: string;
  at: number;
}

function tokenize(text: string): Tok[] {
  return [...text.matchAll(TOKEN_RE)].map((m) => ({ text: m[0], lower: m[0].toLowerCase(), at: m.index }));
}

const isDigits = (t: string): boolean => /^\d[\d,]*(?:\.\d+)?$/.test(t) && !/,\d{1,2}(?:\D|$)/.test(t);
const digitValue = (t: string): number => Number(t.replace(/,/g, ''));

/** A run of number words from `i` ("twenty five", "two hundred thousand"): its value and length, or null. */
function wordNumber(toks: readonly Tok[], i: number): { value: number; length: number } | null {
  let total = 0;
  let current = 0;
  let j = i;
  let any = false;
  for (; j < toks.length; j++) {
    const w = toks[j]?.lower ?? '';
    const [a, b] = w.split('-');
    if (b !== undefined && a && TENS[a] !== undefined && SMALL[b] !== undefined) current += TENS[a] + SMALL[b];
    else if (SMALL[w] !== undefined) current += SMALL[w];
    else if (TENS[w] !== undefined) current += TENS[w];
    else if (w === 'hundred' && any) current = (current || 1) * 100;
    else if ((w === 'thousand' || w === 'million' || w === 'billion') && any) {
      total += (current || 1) * (SCALES[w] ?? 1);
      current = 0;
    } else if (w === 'and' && any && (SMALL[toks[j + 1]?.lower ?? ''] !== undefined || TENS[toks[j + 1]?.lower ?? ''] !== undefined)) continue;
    else break;
    any = true;
  }
  return any ? { value: total + current, length: j - i } : null;
}

const CURRENCY_WORDS = new Set(['dollars', 'dollar', 'bucks', 'euros', 'euro', 'pounds', 'usd']);
const SKIP_AFTER = new Set(['of', 'or', 'so', 'and', 'more', 'plus', 'the', 'a', 'an', 'full', 'whole', 'different', 'other', 'extra']);

/** The words after a number (skipping "of", "or so"…): its unit. */
function unitAfter(toks: readonly Tok[], from: number): string[] {
  const out: string[] = [];
  for (let j = from; j < toks.length && out.length < 3; j++) {
    const w = toks[j]?.lower ?? '';
    if (!/^[a-z]/.test(w)) {
      if (w === '%') out.push('percent');
      break;
    }
    if (SKIP_AFTER.has(w) && out.length === 0) continue;
    out.push(w);
  }
  return out;
}

/** Every number stated in a text, in order. */
export function statedNumbers(text: string): StatedNumber[] {
  const toks = tokenize(text);
  const out: StatedNumber[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i] as Tok;
    const money = i > 0 && /^[$€£]$/.test(toks[i - 1]?.text ?? '');
    let value: number | null = null;
    let end = i + 1;
    let digits = false;
    if (isDigits(t.text)) {
      value = digitValue(t.text);
      digits = true;
    } else if ((t.lower === 'a' || t.lower === 'one') && (toks[i + 1]?.lower === 'hundred' || toks[i + 1]?.lower === 'thousand' || toks[i + 1]?.lower === 'million' || toks[i + 1]?.lower === 'billion')) {
      value = SCALES[toks[i + 1]?.lower ?? ''] ?? null;
      end = i + 2;
    } else if ((t.lower === 'a' || t.lower === 'one') && APPROX[toks[i + 1]?.lower ?? ''] !== undefined) {
      value = APPROX[toks[i + 1]?.lower ?? ''] ?? null;
      end = i + 2;
    } else {
      const w = wordNumber(toks, i);
      if (w) {
        value = w.value;
        end = i + w.length;
      }
    }
    if (value === null || !Number.isFinite(value)) continue;
    // "one of the things", "one thing": a pronoun more often than a count.
    if (!digits && value === 1 && end === i + 1) continue;
    // A scale word after the number: "$2 million", "two hundred", "10k" (a letter only right after digits).
    const next = toks[end];
    const scale = next ? SCALES[next.lower] : undefined;
    const prev = toks[end - 1] as Tok;
    const adjacent = next !== undefined && next.at === prev.at + prev.text.length;
    if (scale !== undefined && next && (next.lower.length > 2 ? true : digits && adjacent)) {
      value *= scale;
      end++;
    }
    const after = unitAfter(toks, end);
    const last = toks[end - 1] as Tok;
    out.push({
      value,
      text: text.slice(money ? (toks[i - 1]?.at ?? t.at) : t.at, last.at + last.text.length),
      after,
      money: money || CURRENCY_WORDS.has(after[0] ?? ''),
      digits,
      at: t.at,
    });
    i = end - 1;
  }
  return out;
}

/** The unit a "how many/much/long/old" or "what year" question asks for. */
export interface AskedUnit {
  /** The words naming what is counted ("years", "people"), lower-case; empty when the question names none. */
  words: string[];
  /** Asks for a calendar year ("What year did you start?"). */
  year: boolean;
  /** Asks for money ("How much money…", "How much did you raise"). */
  money: boolean;
  /** Asks for a duration ("How long…"): any unit of time answers. */
  duration: boolean;
  /** Asks for an age ("How old…"). */
  age: boolean;
}

export const TIME_UNITS = ['years', 'year', 'months', 'month', 'weeks', 'week', 'days', 'day', 'hours', 'hour', 'minutes', 'decades', 'decade'];
const MONEY_RE = /\b(money|raise[ds]?|revenue|funding|invest(ed|ment)?|cost|price|salary|dollars|budget|arr|mrr)\b|\$/i;

export function askedUnit(question: string): AskedUnit {
  const q = question.toLowerCase();
  const many = /\bhow\s+(?:many|much)\s+((?:[a-z'-]+\s+){0,2}?[a-z'-]+)(?=\s+(?:did|do|does|have|has|had|were|was|are|is|will|would|could|can|in|at|on|of|for|per|did)\b|[?,.]|$)/.exec(q);
  const words = many ? (many[1] ?? '').split(/\s+/).filter((w) => w && !['money', 'time'].includes(w)) : [];
  return {
    words,
    year: /\b(what|which)\s+year\b|\bin\s+what\s+year\b|\bwhen\s+(did|was|were)\b/.test(q),
    money: MONEY_RE.test(q) && /\bhow\s+much\b/.test(q),
    duration: /\bhow\s+long\b/.test(q) || words.some((w) => TIME_UNITS.includes(w)),
    age: /\bhow\s+old\b/.test(q),
  };
}
