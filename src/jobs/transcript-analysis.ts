import { redactUtterances, type IngestionRedaction } from '../privacy/transcript.ts';
import { parseTranscript } from '../ingest/index.ts';
import { IngestError, type TranscriptFormat } from '../ingest/transcript.ts';
import { buildMemoryBank } from '../memory/build.ts';
import { wink } from '../memory/sentences.ts';
import type { Memory } from '../memory/types.ts';
import { profileWithSentiments } from '../memory/profile.ts';
import type { SnapshotProfile } from '../memory/profile-types.ts';
import { fidelityCheck, type EmbeddedPassages, type Fidelity } from '../engines/fidelity-check.ts';
import { startPdfThread } from '../ingest/pdf.ts';
import { boundedTurns, transcriptTurns, type TranscriptTurn } from '../memory/transcript-turns.ts';
import { tallyMarkers, type SnapshotMarkers } from '../memory/linguistic-markers.ts';
import { embedForStorage, passagesOf, type EmbeddedTexts, type PassageSpan } from '../memory/build/passages.ts';
import { UseLiteEncoder } from '../memory/encoder/use-lite.ts';
import { rankingParams } from '../memory/params/params.ts';
import { Searcher } from '../memory/search/searcher.ts';

export type { EmbeddedTexts } from '../memory/build/passages.ts';

// Loaded when the thread starts (the pool keeps one thread up), not during the first snapshot:
// wink-nlp and the PDF thread with pdf.js.
wink();
startPdfThread();
// The sentence encoder (TF.js wasm and the USE lite weights from node_modules), for `embed` and `selfCheck`.
const encoder = UseLiteEncoder.load();
encoder.catch(() => undefined); // reported by the first `embed` that needs it
const searcher = new Searcher(() => encoder, rankingParams());

/** What a worker thread is asked: the file's bytes and who the person is. */
export interface AnalysisTask {
  bytes: Uint8Array;
  mindName: string;
  speaker: string | null;
  /** The mind's redaction when on (privacy/transcript.ts): stored replaces the values before anything is built; outbound counts them. */
  redaction?: IngestionRedaction | null;
}

export type AnalysisResult =
  | {
      ok: true;
      format: TranscriptFormat;
      person: string | null;
      memories: Memory[];
      /** The persona profile (memory bank summary) of the snapshot. */
      profile: SnapshotProfile;
      /** The parsed turns kept with the snapshot (bounded: `truncated` when some were left out). */
      turns: TranscriptTurn[];
      truncated: boolean;
      /** Linguistic markers of the person's words, over every turn. */
      markers: SnapshotMarkers;
      /** The passages the encoder embeds (build/passages.ts) and their texts. */
      passages: { spans: PassageSpan[]; texts: string[] };
      /** Third parties numbered for the first time in this snapshot (stored mode): the caller stores them with it. */
      redactionAssigned?: Array<[string, number]>;
    }
  | { ok: false; code: string; message: string };

/**
 * Parses a transcript and builds its memory bank and persona profile. Runs in a worker thread (see analysis-pool.ts):
 * hostile files, heavy parsing and the PDF library's global polyfills stay out of the API's thread.
 */
export default async function analyse(task: AnalysisTask): Promise<AnalysisResult> {
  try {
    const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
    const transcript = await parseTranscript(bytes);
    const redacted = task.redaction ? redactUtterances(transcript.utterances, task.redaction, [task.mindName, task.speaker]) : null;
    const utterances = redacted?.utterances ?? transcript.utterances;
    const bank = buildMemoryBank({ utterances, mindName: task.mindName, speaker: task.speaker });
    if (bank.memories.length === 0) {
      const who = bank.person ? `"${bank.person}"` : 'the person';
      return { ok: false, code: 'empty_transcript', message: `No words of ${who} were found in the transcript.` };
    }
    const { profile, sentiments } = profileWithSentiments(bank.memories);
    if (redacted) profile.redactions = redacted.counts;
    const turns = transcriptTurns(utterances, bank.person);
    const markers = tallyMarkers(turns, bank.memories, sentiments);
    const passages = passagesOf(bank.memories);
    const assigned = redacted && redacted.assigned.length > 0 ? { redactionAssigned: redacted.assigned } : {};
    return { ok: true, format: transcript.format, person: bank.person, memories: bank.memories, profile, ...boundedTurns(turns), markers, passages, ...assigned };
  } catch (err) {
    if (err instanceof IngestError) return { ok: false, code: err.code, message: err.message };
    throw err;
  }
}

/** The sentence encoder's vectors of some texts (a snapshot's passages), quantised as they are stored. */
export async function embed(task: { texts: string[] }): Promise<EmbeddedTexts> {
  return embedForStorage(await encoder, task.texts);
}

export type { EmbeddedPassages, Fidelity } from '../engines/fidelity-check.ts';

/**
 * The snapshot's leave-some-out self-check (engines/fidelity-check.ts), over its embedded passages:
 * null with fewer than MIN_FIDELITY_PAIRS Q/A pairs.
 */
export async function selfCheck(task: { memories: Memory[]; passages: EmbeddedPassages }): Promise<Fidelity | null> {
  return fidelityCheck(task.memories, task.passages, searcher);
}
