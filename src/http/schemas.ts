import { z } from 'zod';
import { MODEL_NAMES } from '../engines/registry.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../kernel/pagination.ts';
import { ConsentInput, ConsentView } from './schemas/consent.ts';
import { REDACTION_MODES } from '../privacy/kinds.ts';
import { RedactionCounts } from './schemas/redaction.ts';

/** One schema per request and response: validator, TypeScript type and OpenAPI entry at once. */
export const Id = z.uuid();
export const Timestamp = z.string().describe('ISO 8601 timestamp in UTC, ending in Z');
export const MindsetDate = z.string().describe('When the conversation happened, an ISO date YYYY-MM-DD (the day the snapshot was created unless given)');

export const ErrorBody = z
  .object({
    error: z.string().describe('The HTTP status text: "Bad Request", "Unauthorized", "Not Found"…'),
    message: z.string().describe('A sentence for a person'),
    code: z.string().describe('The machine code in upper snake case, e.g. VALIDATION_FAILED, MIND_NOT_FOUND; every 401 is AUTH_FAILED'),
    details: z.record(z.string(), z.unknown()).optional().describe('Specifics: the invalid fields, the 401 reason, the limit…'),
    requestId: z.string().optional().describe('The request id, also in X-Request-Id: quote it when asking for support'),
    retryAfter: z.number().int().optional().describe('On 429: seconds to wait, as in Retry-After'),
  })
  .meta({ id: 'Error' });

export const MindParams = z.object({ mindId: Id });
export const SnapshotParams = z.object({ mindId: Id, snapshotId: Id });

export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  cursor: z.string().max(500).optional(),
});

export const Tag = z.object({ id: Id, name: z.string() }).meta({ id: 'Tag' });
export const TagName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine((n) => !n.includes(',') && !/\p{Cc}/u.test(n), 'A tag name has no commas or control characters')
  .describe('1–100 characters, no comma; unique per account whatever its case');

export const MindScope = z.enum(['private', 'public']);
export const SocialMedia = z
  .record(z.string().regex(/^[A-Za-z][A-Za-z0-9_.-]{0,39}$/), z.string().max(500))
  .refine((o) => Object.keys(o).length <= 20, 'At most 20 links')
  .describe('Links to the person on social networks, by network name (e.g. {"linkedin": "https://…"}); at most 20');

export const DigitalTwin = z
  .object({
    id: Id,
    mindId: Id,
    name: z.string(),
    isDefault: z.boolean().describe('The twin made with the mind: snapshots created without a digitalTwinId are linked to it'),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'DigitalTwin' });
export const MindAssessment = z
  .object({
    id: Id.describe('The snapshot id (mindAssessmentId)'),
    mindId: Id,
    artifactId: Id,
    status: z.enum(['pending', 'processing', 'completed', 'failed']),
    createdAt: Timestamp,
    startedAt: Timestamp.nullable(),
    completedAt: Timestamp.nullable(),
  })
  .meta({ id: 'MindAssessment' });

export const Mind = z
  .object({
    id: Id,
    name: z.string(),
    slug: z.string().describe('From the name, unique within the account; kept when the mind is renamed'),
    email: z.string().nullable(),
    imageUrl: z.string().nullable(),
    socialMedia: SocialMedia.nullable(),
    scope: MindScope.describe('Stored and shown; minds are never visible to another account either way'),
    isSelf: z.boolean().describe('Always false here'),
    tokenCount: z
      .number()
      .int()
      .nullable()
      .describe("The person's word tokens in the memories of the mind's completed snapshots; null until one completes"),
    organizationId: z.string().describe('The account the mind belongs to'),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    tags: z.array(Tag),
    digitalTwins: z
      .array(DigitalTwin.extend({ mindAssessments: z.array(MindAssessment).describe('The snapshots linked to this twin, newest first') }))
      .describe('The default twin first'),
    consent: ConsentView.describe('The person\'s consent on record: {"status": "unknown"} until one is given'),
    redaction: z
      .enum(REDACTION_MODES)
      .describe('off | outbound (personal data replaced by placeholders in everything sent to the LLM provider) | stored (also in what is stored, searched and quoted)'),
  })
  .meta({ id: 'Mind' });

export const MindName = z.string().trim().min(1).max(200);
const Email = z.email().max(320);
const ImageUrl = z.url({ protocol: /^https?$/ }).max(2048);
/** What a client may set on a mind besides its name (POST /minds and PUT /minds/{mindId}). */
export const MindFields = {
  email: Email.nullable().optional(),
  imageUrl: ImageUrl.nullable().optional().describe('An http(s) URL'),
  socialMedia: SocialMedia.nullable().optional(),
  scope: MindScope.optional().describe('private (default) or public'),
  redaction: z
    .enum(REDACTION_MODES)
    .optional()
    .describe(
      'off; outbound: e-mails, phones, cards, IBANs, addresses, personal URLs, dates of birth and third parties\' names never reach the LLM provider; stored: not stored either. Default: the service\'s REDACTION. A change applies to snapshots processed after it',
    ),
  consent: ConsentInput.optional(),
};
export const CreateMindBody = z.object({
  name: MindName,
  ...MindFields,
  tags: z.array(TagName).max(50).optional().describe('Tag names: existing tags are matched whatever their case, missing ones are made'),
});
export const UpdateMindBody = z.object({ name: MindName });
export const CreateMindResponse = z.object({
  mind: Mind,
  digitalTwin: DigitalTwin,
  mindAssessments: z.array(MindAssessment).max(0).describe('Always empty at creation'),
  mindCategories: z.array(z.object({ category: z.string() })).max(0).describe('Always empty: categories are not kept'),
});
export const MindDetail = Mind;

export const SignedUrlQuery = z.object({
  fileName: z.string().max(500).optional(),
  contentType: z.string().max(200).optional(),
});
export const SignedUrlResponse = z.object({
  signedUrl: z.url(),
  fileName: z.string(),
  artifactId: Id,
  contentType: z.string().describe('The media type to PUT the file with: ?contentType, else from the fileName extension (.vtt, .pdf, .docx), else application/octet-stream'),
  expiresAt: Timestamp,
});

export const UploadParams = z.object({ artifactId: Id });
export const UploadQuery = z.object({ expires: z.string().optional(), signature: z.string().optional() });
export const UploadResponse = z.object({ artifactId: Id, size: z.number().int() });

export const StartedAssessment = z.object({
  message: z.literal('Mind assessment started'),
  mindAssessmentId: Id,
  artifactId: Id,
});

export const SnapshotStatus = z
  .object({
    id: Id,
    mindId: Id,
    artifactId: Id,
    digitalTwinId: Id.nullable().describe('The twin the snapshot is linked to; null once unlinked (then no simulation uses it)'),
    mindsetDate: MindsetDate,
    status: z.enum(['pending', 'processing', 'completed', 'failed']),
    createdAt: Timestamp,
    startedAt: Timestamp.nullable(),
    completedAt: Timestamp.nullable(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    fidelity: z
      .object({
        pairs: z.number().int().describe('Q/A pairs (an interviewer question and the answer) in the snapshot'),
        heldOut: z.number().int().describe('answers held out and predicted from the rest'),
        tokenF1: z.number(),
        rougeL: z.number(),
        baselineF1: z.number().describe('token F1 of a random other answer of the same person (seeded)'),
        contentF1: z.number().optional().describe('content-word F1 (stems, stop words removed) of the simulated answers; absent on snapshots processed before it was measured'),
        baselineContentF1: z.number().optional().describe('content-word F1 of the same random other answers'),
      })
      .nullable()
      .describe('Leave-some-out self-check of the offline engine; null until completed or with fewer than 8 Q/A pairs'),
  })
  .meta({ id: 'SnapshotStatus' });

export const SimulateBody = z.object({
  mindId: Id,
  selectedSimulationModel: z.string().min(1).max(100).optional().describe(`One of ${MODEL_NAMES.join(', ')}`),
  scenario: z.object({ message: z.string().trim().min(1).max(20_000) }),
  conversationId: Id.optional().describe('Continue this conversation (a simulationId of the same mind): the earlier turns are the context. Without it a new conversation starts'),
  runInBackground: z.boolean().optional().describe('Answer at once with {simulationId, status: "queued"}; a worker simulates, GET /simulations/{id} shows the status and the answer'),
  stream: z.boolean().optional().describe('Answer with text/event-stream: "part", "delta" and "evidence" events as the answer is composed, then "result" (this body) or "error"'),
  digitalTwinId: Id.optional().describe("Simulate this twin: only the completed snapshots linked to it (default: every linked completed snapshot of the mind)"),
});

export const Evidence = z.object({
  text: z.string(),
  speaker: z.string().nullable(),
  snapshotId: Id.nullable().describe('The snapshot the words come from; null for a correction'),
  start: z.number().optional(),
  end: z.number().optional(),
  page: z.number().int().optional(),
  score: z.number(),
  source: z.enum(['transcript', 'correction']).optional().describe('"transcript": the person\'s words in a snapshot; "correction": their own correction, which leads the answer when it answers the scenario (absent on turns stored before corrections existed)'),
  correctionId: Id.optional().describe('The correction quoted (source "correction")'),
  redactions: RedactionCounts.optional().describe('The placeholders in this quoted text (a mind with redaction stored), by kind'),
});

export const SimulateResponse = z.object({
  message: z.string(),
  model: z.string(),
  snapshotIds: z.array(Id),
  analysis: z.object({ thinking: z.string(), feeling: z.string(), saying: z.string(), acting: z.string() }),
  confidence: z.number().min(0).max(1),
  evidence: z.array(Evidence),
  redactions: RedactionCounts.optional().describe('With redaction on: what was replaced in what was sent to the LLM provider for this answer (mind-reasoner-pro), or the placeholders in the quoted evidence (offline engine), by kind'),
  simulationId: Id.describe('The stored conversation this turn belongs to (GET /simulations/{simulationId})'),
  conversationId: Id.describe('The same id: pass it as conversationId to continue the conversation'),
});

export const ModelInfo = z.object({
  id: z.string(),
  description: z.string(),
  engine: z.string(),
  available: z.boolean(),
});
export const ModelsResponse = z.array(ModelInfo.extend({ default: z.boolean() }));

export const WebhookEvent = z.object({ id: Id, receivedAt: Timestamp, payload: z.unknown() }).meta({ id: 'WebhookEvent' });
export const WebhookReceived = z.object({ received: z.literal(true), id: Id });

export const errorResponses = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, ErrorBody]));

export const ProfileEvidence = z
  .object({
    snapshotId: Id,
    seq: z.number().int().describe("position of the person's sentence within its snapshot"),
    text: z.string(),
    start: z.number().nullable(),
    end: z.number().nullable(),
    page: z.number().int().nullable(),
  })
  .meta({ id: 'ProfileEvidence' });
const ProfilePassage = z
  .object({
    snapshotId: Id,
    firstSeq: z.number().int().describe("position of the passage's first sentence within its snapshot"),
    lastSeq: z.number().int().describe("position of its last sentence (inclusive)"),
    text: z.string().describe("the person's consecutive sentences, at most about 80 words"),
    start: z.number().nullable().describe('start of the first sentence, in seconds'),
    end: z.number().nullable().describe('end of the first sentence, in seconds'),
    page: z.number().int().nullable().describe('page of the first sentence'),
  })
  .meta({ id: 'ProfilePassage' });
const PhraseCount = z.object({ phrase: z.string(), count: z.number().int() });

export const MindProfile = z
  .object({
    mindId: Id,
    snapshotIds: z.array(Id),
    topics: z.array(
      z.object({
        key: z.string().describe('the noun or noun phrase, lower case, head noun lemmatised ("design system")'),
        label: z.string().describe('its most frequent form in the transcripts ("design systems", "Open Collective")'),
        mentions: z.number().int().describe("the person's sentences mentioning it"),
        affect: z.object({
          sentiment: z.number().min(-1).max(1),
          label: z.enum(['positive', 'negative', 'neutral', 'mixed']),
          positive: z.number().int(),
          negative: z.number().int(),
        }),
        stances: z.array(ProfileEvidence).describe('what the person said about the topic'),
        passages: z
          .array(ProfilePassage)
          .describe("the passages behind the topic: stretches of the person's own consecutive sentences around its mentions (empty for snapshots analysed before passages existed)"),
      }),
    ),
    keyphrases: z.array(PhraseCount),
    behaviours: z.array(
      z.object({
        kind: z.enum(['always', 'usually', 'sometimes', 'never', 'would']),
        topic: z.string().nullable(),
        evidence: ProfileEvidence,
      }),
    ),
    style: z.object({
      words: z.number().int(),
      sentences: z.number().int(),
      avgSentenceWords: z.number(),
      signaturePhrases: z.array(PhraseCount),
      fillers: z.array(PhraseCount),
      hedges: z.array(PhraseCount),
    }),
    qaPairCount: z.number().int(),
    qaPairs: z.array(z.object({ snapshotId: Id, question: z.string(), firstSeq: z.number().int(), lastSeq: z.number().int() })),
    redactions: RedactionCounts.describe('What redaction replaced in these snapshots (stored) or replaces in what is sent to the LLM provider (outbound), by kind; {} when off'),
  })
  .meta({ id: 'MindProfile' });
