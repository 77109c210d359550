/**
 * A deterministic rewording of a question, so the engine cannot match the original words
 * verbatim: fillers dropped, a leading "When/If … ," clause moved to the end, a few synonyms.
 */
const FILLERS = /\b(?:um|uh|you know|I mean|kind of|sort of|just|really|actually|basically|like,)\s*/gi;
const LEADING = /^(?:so|and|but|well|okay|ok|yeah|now)[, ]+/i;
const SYNONYMS: Record<string, string> = {
  think: 'believe',
  start: 'begin',
  started: 'began',
  big: 'large',
  job: 'work',
  company: 'business',
  companies: 'businesses',
  help: 'assist',
  talk: 'speak',
  tell: 'share with',
  important: 'significant',
  happy: 'glad',
  hard: 'difficult',
  show: 'podcast',
  want: 'wish',
  fun: 'enjoyable',
  idea: 'notion',
  begin: 'start',
  quick: 'fast',
  maybe: 'perhaps',
};
const CLAUSE = /^(When|If|Since|Because|As|After|Before|Once|While) ([^,]{3,80}), (.+?)([?.!])$/i;

function reorder(sentence: string): string {
  const m = CLAUSE.exec(sentence);
  if (!m) return sentence;
  const [, conj = '', clause = '', main = '', end = ''] = m;
  return `${main.charAt(0).toUpperCase()}${main.slice(1)} ${conj.toLowerCase()} ${clause}${end}`;
}

export function paraphrase(question: string): string {
  const sentences = question.match(/[^.?!]+[.?!]*/g) ?? [question];
  return sentences
    .map((s) => s.replace(FILLERS, '').replace(LEADING, '').trim())
    .filter(Boolean)
    .map(reorder)
    .map((s) => s.replace(/\b[A-Za-z]+\b/g, (w) => {
      const swap = SYNONYMS[w.toLowerCase()];
      if (!swap) return w;
      return w[0] === w[0]?.toUpperCase() ? swap.charAt(0).toUpperCase() + swap.slice(1) : swap;
    }))
    .join(' ');
}
