/**
 * The API's types, derived from `openapi.ts`, which is generated from the OpenAPI document the
 * service serves (`npm run generate -w @mindsim/sdk`): nothing here is written twice.
 */
import type { components, paths } from './openapi.ts';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** The JSON body of a path's successful (200) response. */
type Ok<P extends keyof paths, M extends Method> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer T } } };
}
  ? T
  : never;
type JsonBody<P extends keyof paths, M extends Method> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer T } };
}
  ? T
  : never;

export type { components, paths };
export type Mind = components['schemas']['Mind'];
export type DigitalTwin = components['schemas']['DigitalTwin'];
/** A mind as `GET /minds/{mindId}` answers it (the same Mind object everywhere now). */
export type MindDetail = Mind;
export type Tag = components['schemas']['Tag'];
export type MindAssessment = components['schemas']['MindAssessment'];
export type CreateMindRequest = JsonBody<'/api/public/v1/minds', 'post'>;
export type PutMindRequest = JsonBody<'/api/public/v1/minds/{mindId}', 'put'>;
/** PUT /minds/{mindId}'s answer to an update: `{success, mind}` (a withdrawal of consent answers ConsentWithdrawal). */
export type UpdatedMind = Extract<Ok<'/api/public/v1/minds/{mindId}', 'put'>, { mind: unknown }>;
/** A mind's consent on record: `{status: "unknown"}` or the granted record. */
export type Consent = components['schemas']['Consent'];
/** What a client sets as a mind's consent (POST /minds, PUT /minds/{mindId}). */
export type ConsentInput = NonNullable<PutMindRequest['consent']>;
/** PUT /minds/{mindId} with consent withdrawn: the mind and the person's data are erased. */
export type ConsentWithdrawal = components['schemas']['ConsentWithdrawal'];
export type AccountPrivacy = components['schemas']['AccountPrivacy'];
/** How a mind's personal data is redacted: off, outbound (never sent to the LLM provider), stored (never stored either). */
export type RedactionMode = Mind['redaction'];
/** Values replaced by placeholders, counted by kind (email, phone, card, iban, address, url, dob, person). */
export type RedactionCounts = components['schemas']['RedactionCounts'];
export type AccountPrivacyUpdate = JsonBody<'/api/public/v1/account/privacy', 'put'>;
export type MindSearchResult = Ok<'/api/public/v1/minds/search', 'get'>;
export type DeletedTag = Ok<'/api/public/v1/tags/{tagId}', 'delete'>;
export type MindProfile = components['schemas']['MindProfile'];
export type CreatedMind = Ok<'/api/public/v1/minds', 'post'>;
export type SignedUrl = Ok<'/api/public/v1/minds/{mindId}/signed-url', 'get'>;
export type SignedUrlQuery = NonNullable<paths['/api/public/v1/minds/{mindId}/signed-url']['get']['parameters']['query']>;
export type UploadResult = Ok<'/uploads/{artifactId}', 'put'>;
export type StartedAssessment = Ok<'/api/public/v1/minds/{mindId}/snapshots', 'post'>;
export type SnapshotStatus = components['schemas']['SnapshotStatus'];
export type SnapshotList = Ok<'/api/public/v1/minds/{mindId}/snapshots', 'get'>;
export type SnapshotDetails = components['schemas']['SnapshotDetails'];
export type TranscriptTurn = components['schemas']['TranscriptTurn'];
export type DeletedSnapshot = Ok<'/api/public/v1/minds/{mindId}/snapshots/{snapshotId}', 'delete'>;
export type LinkedSnapshot = Ok<'/api/public/v1/minds/{mindId}/snapshots/{snapshotId}/link', 'post'>;
export type UnlinkedSnapshot = Ok<'/api/public/v1/minds/{mindId}/snapshots/{snapshotId}/unlink', 'post'>;
export type DigitalTwinList = Ok<'/api/public/v1/minds/{mindId}/digital-twins', 'get'>;
export type DigitalTwinAnswer = Ok<'/api/public/v1/minds/{mindId}/digital-twins', 'post'>;
export type Psychometrics = components['schemas']['Psychometrics'];
export type Topics = components['schemas']['Topics'];
export type SimulateRequest = JsonBody<'/api/public/v1/simulate', 'post'>;
/** `POST /simulate` with `runInBackground: true`: the turn is queued, GET /simulations/{id} follows it. */
export type QueuedSimulation = components['schemas']['QueuedSimulation'];
/** The answer of `POST /simulate` (synchronous, or the `result` event of a stream). */
export type Simulation = Exclude<Ok<'/api/public/v1/simulate', 'post'>, QueuedSimulation>;
/** A stored simulation (a conversation with a mind), as `/simulations` lists it. */
export type SimulationRecord = components['schemas']['Simulation'];
export type SimulationMessage = components['schemas']['SimulationMessage'];
export type SimulationList = Ok<'/api/public/v1/simulations', 'get'>;
export type SimulationDetail = Ok<'/api/public/v1/simulations/{simulationId}', 'get'>;
export type SimulationDeleted = Ok<'/api/public/v1/simulations/{simulationId}', 'delete'>;
export type Evidence = Simulation['evidence'][number];
export type Model = Ok<'/api/public/v1/models', 'get'>[number];
export type WebhookEvent = components['schemas']['WebhookEvent'];
export type ErrorBody = components['schemas']['Error'];
export type Usage = components['schemas']['Usage'];
export type UsageQuery = NonNullable<paths['/api/public/v1/usage']['get']['parameters']['query']>;
/** A panel: a questionnaire put to many minds, its progress and (GET /panels/{panelId}) its results. */
export type Panel = components['schemas']['Panel'];
export type PanelQuestion = components['schemas']['PanelQuestion'];
export type PanelQuestionResult = components['schemas']['PanelQuestionResult'];
export type PanelAnswer = components['schemas']['PanelAnswer'];
export type CreatePanelRequest = JsonBody<'/api/public/v1/panels', 'post'>;
export type PanelList = Ok<'/api/public/v1/panels', 'get'>;
export type PanelAnswerList = Ok<'/api/public/v1/panels/{panelId}/answers', 'get'>;
export type PanelAnswersQuery = NonNullable<paths['/api/public/v1/panels/{panelId}/answers']['get']['parameters']['query']>;
export type PanelDeleted = Ok<'/api/public/v1/panels/{panelId}', 'delete'>;
/** A row of the access log: who (`key:<id>`, `user:<account>`, `operator`, `system`) did what (`mind.read`, `simulate`, …) to which mind, when, from where. */
export type AuditEntry = components['schemas']['AuditEntry'];
export type AuditList = Ok<'/api/public/v1/audit', 'get'>;
/** A correction: what the person would really say to a scenario; the mind answers from it afterwards. */
export type Correction = components['schemas']['Correction'];
export type CreateCorrectionRequest = JsonBody<'/api/public/v1/minds/{mindId}/corrections', 'post'>;
export type CorrectSimulationRequest = JsonBody<'/api/public/v1/simulations/{simulationId}/corrections', 'post'>;
export type CorrectionList = Ok<'/api/public/v1/minds/{mindId}/corrections', 'get'>;
export type CorrectionDeleted = Ok<'/api/public/v1/minds/{mindId}/corrections/{correctionId}', 'delete'>;
/** A review link of a mind: the person behind it reviews and corrects its answers without an account. */
export type ReviewLink = components['schemas']['ReviewLink'];
/** A new review link with its URL, shown only in this answer. */
export interface CreatedReviewLink {
  reviewLink: ReviewLink;
  url: string;
}
