/**
 * A spoken sentence made ready to quote: leading "And/So/Yeah," and inline "uh/um" dropped, the first
 * letter capitalised, a sentence end where the person gave none. The words stay theirs.
 */
const LEADING_FILLER_RE = /^(?:(?:and|but|so|yeah|well|um|uh|oh|like|okay|ok|you know|I mean|I guess|right)[,.]?\s+)+/i;
const INLINE_FILLER_RE = /,?\s+\b(?:uh|um|erm)\b,?/gi;

export function tidy(text: string): string {
  let t = text.replace(/^[\s.,;:…—–-]+/, '');
  if (t.startsWith('"') && (t.match(/"/g) ?? []).length % 2 === 1) t = t.slice(1); // a quote opened in the previous sentence
  t = t.replace(INLINE_FILLER_RE, '').replace(LEADING_FILLER_RE, '').trim() || text.trim();
  const capital = t.charAt(0).toUpperCase() + t.slice(1);
  if (/[.!?…"”']$/.test(capital)) return capital;
  // A sentence the person left off mid-clause ("…a couple more hours,") trails off rather than ending ",.".
  return /[,;:—–-]$/.test(capital) ? `${capital.replace(/\s*[,;:—–-]+$/, '')}…` : `${capital}.`;
}
