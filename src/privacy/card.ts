import type { Span } from './kinds.ts';

/**
 * Payment card numbers: 13 to 19 digits, written whole or in groups (spaces or dashes), that pass
 * the Luhn checksum and start with an issuer prefix of a card network (Visa, Mastercard, American
 * Express, Discover, JCB, Diners Club, UnionPay, Maestro). The prefix check keeps a random
 * 16-digit number (an order or tracking number, which passes Luhn one time in ten) out. Luhn is
 * written here rather than taken from a package: it is six lines, and the packages for it add
 * nothing this one needs.
 */
const CANDIDATE = /(?<![\w.,-])\d(?:[ -]?\d){12,18}(?![\w]|[.,-]\d)/g;

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** The issuer prefixes (IIN ranges) of the card networks, with the lengths each issues. */
function issued(digits: string): boolean {
  const n = digits.length;
  const p2 = Number(digits.slice(0, 2));
  const p3 = Number(digits.slice(0, 3));
  const p4 = Number(digits.slice(0, 4));
  const p6 = Number(digits.slice(0, 6));
  if (digits.startsWith('4')) return n === 13 || n === 16 || n === 19; // Visa
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return n === 16; // Mastercard
  if (p2 === 34 || p2 === 37) return n === 15; // American Express
  if (p4 === 6011 || p2 === 65 || (p3 >= 644 && p3 <= 649) || (p6 >= 622126 && p6 <= 622925)) return n >= 16 && n <= 19; // Discover
  if (p4 >= 3528 && p4 <= 3589) return n >= 16 && n <= 19; // JCB
  if (p2 === 36 || p2 === 38 || p2 === 39 || (p3 >= 300 && p3 <= 305) || p3 === 309) return n >= 14 && n <= 19; // Diners Club
  if (p2 === 62) return n >= 16 && n <= 19; // UnionPay
  if (p2 === 50 || (p2 >= 56 && p2 <= 58) || p2 === 63 || p2 === 67 || p2 === 68 || p2 === 69) return n >= 12 && n <= 19; // Maestro
  return false;
}

/** Groups are consistent: all digits together, or groups of 4 (4-6-5 / 4-6-4 for Amex and Diners). */
function grouped(raw: string): boolean {
  const groups = raw.split(/[ -]/);
  if (groups.length === 1) return true;
  const seps = raw.match(/[ -]/g) ?? [];
  if (new Set(seps).size > 1) return false;
  const sizes = groups.map((g) => g.length);
  if (sizes.slice(0, -1).every((s) => s === 4) && (sizes.at(-1) ?? 0) >= 1 && (sizes.at(-1) ?? 0) <= 4) return true;
  return sizes.length === 3 && sizes[0] === 4 && sizes[1] === 6 && (sizes[2] === 5 || sizes[2] === 4);
}

export function findCards(text: string): Span[] {
  const spans: Span[] = [];
  for (const m of text.matchAll(CANDIDATE)) {
    const raw = m[0];
    const digits = raw.replace(/[ -]/g, '');
    if (!grouped(raw) || !issued(digits) || !luhnValid(digits)) continue;
    spans.push({ start: m.index, end: m.index + raw.length, kind: 'card', value: raw });
  }
  return spans;
}
