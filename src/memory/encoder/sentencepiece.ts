/**
 * The Universal Sentence Encoder's tokenizer: a SentencePiece unigram model over the vocabulary that
 * ships with its weights (`vocab.json`: `[piece, log-probability]` pairs, the first six reserved).
 * Text is NFKC-normalised, spaces become "▁" (with one in front), and the most probable split into
 * pieces is found by Viterbi over the positions of the text; characters no piece covers become the
 * unknown piece (id 0), a run of them one unknown.
 *
 * Written here rather than imported: `@tensorflow-models/universal-sentence-encoder`, which holds the
 * reference tokenizer, still peers on TF.js 3 while the service runs TF.js 4.
 */

/** Pieces before this id are control symbols (unknown, <s>, </s>, user-defined), never matched. */
const FIRST_PIECE = 6;
const UNKNOWN = 0;
/** An unknown character's log-probability: below every piece, so a known split always wins. */
const UNKNOWN_SCORE = -100;

export type Vocabulary = ReadonlyArray<readonly [string, number]>;

export class SentencePieceTokenizer {
  private readonly pieces = new Map<string, { id: number; score: number }>();
  private readonly longest: number;

  constructor(vocabulary: Vocabulary) {
    let longest = 1;
    for (let id = FIRST_PIECE; id < vocabulary.length; id++) {
      const [piece, score] = vocabulary[id] as readonly [string, number];
      this.pieces.set(piece, { id, score });
      longest = Math.max(longest, [...piece].length);
    }
    this.longest = longest;
  }

  /** The piece ids of a text, in order. */
  encode(text: string): number[] {
    const symbols = [...`▁${text.normalize('NFKC').replace(/ /g, '▁')}`];
    const n = symbols.length;
    const best = new Float64Array(n + 1).fill(-Infinity);
    const from = new Int32Array(n + 1);
    const piece = new Int32Array(n + 1);
    best[0] = 0;
    for (let start = 0; start < n; start++) {
      const base = best[start] as number;
      if (base === -Infinity) continue;
      let key = '';
      for (let end = start + 1; end <= Math.min(n, start + this.longest); end++) {
        key += symbols[end - 1];
        const hit = this.pieces.get(key);
        const score = hit ? base + hit.score : end === start + 1 ? base + UNKNOWN_SCORE : -Infinity;
        if (score > (best[end] as number)) {
          best[end] = score;
          from[end] = start;
          piece[end] = hit ? hit.id : UNKNOWN;
        }
      }
    }
    const ids: number[] = [];
    for (let at = n; at > 0; at = from[at] as number) {
      const id = piece[at] as number;
      if (!(id === UNKNOWN && ids[ids.length - 1] === UNKNOWN)) ids.push(id);
    }
    return ids.reverse();
  }
}
