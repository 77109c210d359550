/** Schemas of snapshot management: the list envelope, details, deletion, links, twins, psychometrics and topics. */
import { z } from 'zod';
import { Id, MindName, MindProfile, DigitalTwin, ProfileEvidence, SnapshotStatus, Timestamp } from '../schemas.ts';

const Flag = z.enum(['true', 'false', '1', '0']).default('true');
export const isSet = (flag: z.infer<typeof Flag>) => flag === 'true' || flag === '1';

export const SnapshotList = z.object({
  snapshots: z.array(SnapshotStatus),
  count: z.number().int().describe('How many snapshots the mind has in all (every page)'),
});

export const DetailsQuery = z.object({
  includeTranscript: Flag.describe('Include the parsed transcript turns (default true)'),
  includePsychometrics: Flag.describe('Include the psychometrics (default true)'),
});

export const TwinParams = z.object({ mindId: Id, twinId: Id });
export const TwinBody = z.object({ name: MindName });
export const TwinList = z.object({ digitalTwins: z.array(DigitalTwin) });
export const TwinAnswer = z.object({ digitalTwin: DigitalTwin });

export const LinkBody = z.object({ digitalTwinId: Id.describe('A twin of the same mind') });
export const Linked = z.object({ message: z.literal('Snapshot linked successfully'), snapshot: z.array(SnapshotStatus).describe('The snapshot, as one item (as the hosted docs show)') });
export const Unlinked = z.object({ message: z.literal('Snapshot unlinked successfully'), snapshot: z.array(SnapshotStatus).describe('The snapshot, as one item (as the hosted docs show)') });
export const Deleted = z.object({ message: z.literal('Snapshot deleted successfully'), snapshotId: Id });

const TranscriptTurn = z
  .object({
    speaker: z.string().nullable(),
    text: z.string(),
    start: z.number().optional().describe('seconds from the start of the recording (VTT, DOCX)'),
    end: z.number().optional(),
    page: z.number().int().optional().describe('1-based page (PDF)'),
    isPerson: z.boolean().describe("whether these are the person's words (the speaker the mind is built from)"),
  })
  .meta({ id: 'TranscriptTurn' });

const Marker = z.object({
  kind: z.literal('linguistic_markers'),
  key: z.enum(['certainty', 'sentiment', 'first_person_focus', 'question_rate', 'talkativeness']),
  label: z.string(),
  value: z.number().nullable().describe('null when nothing to measure (e.g. neither hedges nor certainty markers)'),
  scale: z.string(),
  method: z.string().describe('how the value is computed'),
  words: z.number().int().describe('the number of words the value rests on'),
  details: z.record(z.string(), z.number()).describe('the counts behind the value'),
  examples: z.array(ProfileEvidence).describe("the person's sentences showing the marker"),
});

const BigFive = z.object({
  kind: z.literal('llm_estimate'),
  trait: z.enum(['openness', 'conscientiousness', 'extraversion', 'agreeableness', 'neuroticism']),
  score: z.number().describe('0 very low, 0.5 average, 1 very high: the mean of the snapshots’ estimates'),
  rationale: z.string(),
  model: z.string(),
  method: z.string(),
  perSnapshot: z.array(z.object({ snapshotId: Id, score: z.number(), rationale: z.string() })),
  evidence: z.array(ProfileEvidence).describe('the statements the model cited'),
});

const Judgement = z.object({
  kind: z.literal('llm_estimate'),
  expert: z.string(),
  text: z.string().describe("the expert reflection written when the snapshot was processed"),
  model: z.string(),
  snapshotId: Id,
  evidence: z.array(ProfileEvidence).describe('the statements the model cited for it'),
});

export const Psychometrics = z
  .object({
    mindId: Id,
    snapshotIds: z.array(Id),
    note: z.string(),
    linguisticMarkers: z.array(Marker),
    bigFive: z.array(BigFive).describe('LLM estimates; empty without a language model'),
    expertJudgements: z.array(Judgement).describe('LLM estimates; empty without a language model'),
    gaps: z
      .array(z.object({ snapshotId: Id, part: z.enum(['linguistic_markers', 'llm_estimates']), reason: z.string() }))
      .describe('what is missing for a snapshot, and why'),
  })
  .meta({ id: 'Psychometrics' });

export const Topics = z
  .object({
    mindId: Id,
    snapshotIds: z.array(Id),
    count: z.number().int(),
    topics: MindProfile.shape.topics,
  })
  .meta({ id: 'Topics' });

export const SnapshotDetails = SnapshotStatus.extend({
  updatedAt: Timestamp,
  psychometricCount: z.number().int().nullable().describe('linguistic markers and Big Five estimates; null until completed'),
  keyTopicCount: z.number().int().nullable().describe('topics of the snapshot’s profile; null until completed'),
  findingCount: z.number().int().nullable().describe('stated behaviours and expert judgements; null until completed'),
  transcripts: z.array(TranscriptTurn).nullable().describe('the parsed turns; null unless includeTranscript and completed'),
  transcriptTruncated: z.boolean().nullable().describe('true when turns beyond the stored bound were left out'),
  psychometrics: Psychometrics.nullable().describe('null unless includePsychometrics and completed'),
}).meta({ id: 'SnapshotDetails' });
