/**
 * A correction (issue 32): what the person would really say to a scenario, written once by the
 * account or the person, which the mind answers from afterwards whenever it is asked that scenario
 * or a paraphrase of it (memory/search/corrections.ts). It is the person's words as the transcript's
 * are, with the same care: consent, redaction, access log, export and erasure.
 */

/** The scenario's own limits (POST /simulate): 1 to 20,000 characters once trimmed; an answer has the same. */
export const MAX_CORRECTION_TEXT = 20_000;
/** A note for the reader (why it was corrected, who said so): at most 2,000 characters. */
export const MAX_CORRECTION_NOTE = 2_000;

export interface Correction {
  id: string;
  mindId: string;
  scenario: string;
  answer: string;
  /** The simulation whose turn it corrects, when it came from one. */
  simulationId: string | null;
  note: string | null;
  createdAt: string;
  /** `key:<api key id>`, `user:<account id>` or `review-link:<link id>`. */
  createdBy: string;
}

/** A correction as it is stored, with its account. */
export interface StoredCorrection extends Correction {
  accountId: string;
}
