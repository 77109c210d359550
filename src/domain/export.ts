import type { Question } from '../engines/questions.ts';
import { iso, type Runtime } from '../kernel/runtime.ts';
import { mergeProfiles } from '../memory/profile-merge.ts';
import type { StoredSnapshotProfile } from '../memory/profile-types.ts';
import type { BlobStore } from '../store/blobs/blob-store.ts';
import type { ExportArtifactRow, ExportSnapshotRow } from '../store/db/repos/export.ts';
import type { MindRow } from '../store/db/repos/minds.ts';
import type { Store } from '../store/store.ts';
import type { AuthContext } from './accounts.ts';
import type { MessageContent } from './conversation.ts';
import { correctionsEntry } from './export-corrections.ts';
import { EXPORT_FORMAT, FORMAT_OF, NOT_INCLUDED, type ExportEntry, type MindExport } from './export-entries.ts';
import type { MindService } from './minds.ts';
import type { PendingTurns } from './pending-turns.ts';

export type { ExportEntry, MindExport } from './export-entries.ts';

/** Rows read per query while a long file is written. */
const PAGE = 500;

const parse = (json: string | null): unknown => (json === null ? null : (JSON.parse(json) as unknown));
const lengthOf = (v: unknown) => (Array.isArray(v) ? v.length : v === null || v === undefined ? 0 : 1);

/** The consent record as stored (012_privacy), every column, withdrawn or not. */
const consentRecord = (m: MindRow) => ({
  status: m.consent_status,
  subject: m.consent_subject,
  obtainedAt: m.consent_obtained_at,
  method: m.consent_method,
  scope: parse(m.consent_scope),
  expiresAt: m.consent_expires_at,
  evidenceArtifactId: m.consent_evidence_artifact_id,
  withdrawnAt: m.consent_withdrawn_at,
  redaction: m.redaction,
});

const uploadPath = (a: ExportArtifactRow) => `uploads/${a.file_name}`;

const snapshotView = (s: ExportSnapshotRow, files: ReadonlyMap<string, string>) => ({
  id: s.id,
  status: s.status,
  artifactId: s.artifact_id,
  file: files.get(s.artifact_id) ?? null,
  digitalTwinId: s.digital_twin_id,
  speaker: s.speaker,
  person: s.person,
  fileKind: s.file_kind,
  mindsetDate: s.mindset_date,
  memoryCount: s.memory_count,
  tokenCount: s.token_count,
  fidelity: parse(s.fidelity),
  error: s.error_code ? { code: s.error_code, message: s.error_message } : null,
  reflectionsError: s.reflections_error,
  createdAt: s.created_at,
  startedAt: s.started_at,
  completedAt: s.completed_at,
});

export const MEMORY_COLUMNS = ['snapshot_id', 'seq', 'speaker', 'question', 'text', 'start_seconds', 'end_seconds', 'page'] as const;
export const PANEL_ANSWER_COLUMNS = ['panel_id', 'panel_name', 'mind_name', 'question_id', 'question', 'type', 'status', 'choices', 'value', 'confidence', 'saying', 'evidence', 'answered_at'] as const;
export const ACCESS_LOG_COLUMNS = ['at', 'actor', 'action', 'mind_id', 'resource_id', 'ip'] as const;

/** The file name of an export: ASCII letters, digits and dashes only (the slug), safe in a Content-Disposition. */
export const exportFileName = (slug: string | null, at: string) => `mindsim-export-${(slug ?? 'mind').replace(/[^a-z0-9-]+/g, '-').slice(0, 80) || 'mind'}-${at.slice(0, 10)}.zip`;

/**
 * A mind's data on request (`GET /minds/{id}/export`): everything the service stores about the
 * person behind one mind of the account, as the files of one archive. Another account's mind is
 * NotFound, as everywhere. Conversations answered and not yet stored are stored first.
 */
export class ExportService {
  private readonly store: Store;
  private readonly blobs: BlobStore;
  private readonly minds: MindService;
  private readonly turns: PendingTurns;
  private readonly rt: Runtime;
  constructor(store: Store, blobs: BlobStore, minds: MindService, turns: PendingTurns, rt: Runtime) {
    this.store = store;
    this.blobs = blobs;
    this.minds = minds;
    this.turns = turns;
    this.rt = rt;
  }

  async open(auth: AuthContext, mindId: string): Promise<MindExport> {
    const row = await this.minds.require(auth, mindId);
    await this.turns.settleAccount(auth.accountId);
    const { exports } = this.store.repos;
    const [artifacts, snapshots] = await Promise.all([exports.artifacts(auth.accountId, mindId), exports.snapshots(auth.accountId, mindId)]);
    // A file whose bytes are gone (an upload that failed half-way on another process) is listed in uploads.json, not packed.
    const present = await Promise.all(artifacts.map(async (a) => (await this.blobs.size(a.blob_key)) !== null));
    const packed = artifacts.filter((_, i) => present[i]);
    const files = new Map(packed.map((a) => [a.id, uploadPath(a)]));
    const docs = await exports.documentsOf(snapshots.map((s) => s.id));
    const exportedAt = iso(this.rt.now());

    const entries: ExportEntry[] = [
      {
        kind: 'document',
        path: 'mind.json',
        description: "The mind: the person's name, e-mail, image and social media links as entered, its tags and digital twins.",
        unit: 'mind',
        read: () => this.minds.get(auth, mindId),
        countOf: () => 1,
      },
      {
        kind: 'document',
        path: 'consent.json',
        description: 'The consent record: status, who gave it, when and how, for which uses, until when, the evidence file, when withdrawn; and the redaction mode.',
        unit: 'record',
        read: async () => consentRecord((await this.store.repos.minds.byId(auth.accountId, mindId)) ?? row),
        countOf: () => 1,
      },
      {
        kind: 'document',
        path: 'uploads.json',
        description: 'Every file uploaded for this mind (transcripts, consent evidence): its id, type, size, when, and where it is in this archive (null: its bytes are missing).',
        unit: 'files',
        read: () =>
          Promise.resolve(
            artifacts.map((a) => ({ artifactId: a.id, fileName: a.file_name, contentType: a.content_type, sizeBytes: a.size_bytes, uploadedAt: a.uploaded_at, file: files.get(a.id) ?? null })),
          ),
        countOf: lengthOf,
      },
      ...packed.map(
        (a): ExportEntry => ({
          kind: 'file',
          path: uploadPath(a),
          description: `The file uploaded as artifact ${a.id}, as it was received.`,
          unit: 'bytes',
          size: a.size_bytes,
          open: () => this.blobs.getStream(a.blob_key),
        }),
      ),
      {
        kind: 'document',
        path: 'snapshots.json',
        description: 'Every snapshot (one processed transcript): its state, the file it was made from, who the person was among the speakers, when the conversation happened, counts, and why it failed if it did.',
        unit: 'snapshots',
        read: () => Promise.resolve(snapshots.map((s) => snapshotView(s, files))),
        countOf: lengthOf,
      },
      ...snapshots.flatMap((s) => this.snapshotEntries(s, docs)),
      ...(await this.profileEntry(mindId)),
      {
        kind: 'list',
        path: 'simulations.json',
        description: 'Every simulation (conversation) with this mind, with each message: the question put, and the answer with its analysis, confidence and the evidence it quoted.',
        unit: 'simulations',
        items: () => this.simulations(auth.accountId, mindId),
      },
      correctionsEntry(this.store.repos, mindId),
      {
        kind: 'table',
        path: 'panel-answers.csv',
        description: "Every answer this mind gave in a panel (a questionnaire put to many minds): the panel, the question, the answer, its confidence, what the person would say and the evidence's snapshot and place.",
        unit: 'answers',
        columns: PANEL_ANSWER_COLUMNS,
        rows: () => this.panelAnswers(auth.accountId, mindId),
      },
      {
        kind: 'table',
        path: 'access-log.csv',
        description: "The access log of this mind: every read of its content, simulation, panel answer, export, consent change and deletion, with when, who (an API key's id, a dashboard user, or the system), what, and the client's address.",
        unit: 'rows',
        columns: ACCESS_LOG_COLUMNS,
        rows: () => this.accessLog(auth.accountId, mindId),
      },
    ];

    return {
      mindId,
      fileName: exportFileName(row.slug, exportedAt),
      exportedAt,
      entries,
      readme: (counts) => ({
        format: EXPORT_FORMAT,
        about:
          'Everything the Mind Simulation Service stores about the person behind one mind: the files uploaded, what was made of them, ' +
          'every simulation and panel answer, the consent record and the access log. Each file is listed below with what it is, its format and what it holds.',
        mind: { id: mindId, name: row.name },
        exportedAt,
        files: entries.map((e) => ({ name: e.path, description: e.description, format: FORMAT_OF[e.kind], count: counts.get(e.path) ?? 0, unit: e.unit })),
        notIncluded: NOT_INCLUDED,
      }),
    };
  }

  /** A snapshot's parsed transcript, memories, profile, reflections and psychometrics, those it has. */
  private snapshotEntries(s: ExportSnapshotRow, docs: Awaited<ReturnType<Store['repos']['exports']['documentsOf']>>): ExportEntry[] {
    const dir = `snapshots/${s.id}`;
    const { repos } = this.store;
    const entries: ExportEntry[] = [];
    if (docs.transcripts.has(s.id)) {
      entries.push({
        kind: 'document',
        path: `${dir}/transcript.json`,
        description: 'The parsed transcript of the snapshot: its turns, who spoke and what was said (truncated: true when turns beyond the stored bound were left out).',
        unit: 'turns',
        read: async () => {
          const t = await repos.transcripts.of(s.id);
          return t ? { snapshotId: s.id, truncated: t.truncated === 1, turns: parse(t.turns) } : null;
        },
        countOf: (v) => lengthOf((v as { turns?: unknown } | null)?.turns),
      });
    }
    if (s.status === 'completed' || (s.memory_count ?? 0) > 0) {
      entries.push({
        kind: 'table',
        path: `${dir}/memories.csv`,
        description: "The memories of the snapshot: the person's sentences as stored and searched, in order, with the question they answered and where they are in the recording (seconds) or document (page).",
        unit: 'memories',
        columns: MEMORY_COLUMNS,
        rows: () => this.memories(s.id),
      });
    }
    if (docs.profiles.has(s.id)) {
      entries.push({
        kind: 'document',
        path: `${dir}/profile.json`,
        description: "The persona profile of the snapshot: topics, stances, feelings, stated behaviours, style and question-answer pairs, each with the person's words as evidence.",
        unit: 'profile',
        read: async () => parse((await repos.profiles.profilesOf([s.id]))[0]?.profile ?? null),
        countOf: lengthOf,
      });
    }
    if (docs.reflections.has(s.id)) {
      entries.push({
        kind: 'document',
        path: `${dir}/reflections.json`,
        description: 'What an LLM wrote about the person from this snapshot, as experts (psychologist, economist…) would: one text per expert, with the model.',
        unit: 'reflections',
        read: async () => (await repos.profiles.reflectionsOf([s.id])).map((r) => ({ expert: r.expert, text: r.text, model: r.model, createdAt: r.created_at })),
        countOf: lengthOf,
      });
    }
    if (docs.psychometrics.has(s.id)) {
      entries.push({
        kind: 'document',
        path: `${dir}/psychometrics.json`,
        description: "The psychometrics of the snapshot: linguistic markers counted in the person's words, and an LLM's estimates of personality traits when one was configured.",
        unit: 'records',
        read: async () => {
          const p = (await repos.psychometrics.of([s.id]))[0];
          return p ? { markers: parse(p.markers), estimates: parse(p.estimates), estimatesModel: p.estimates_model, estimatesError: p.estimates_error, createdAt: p.created_at } : null;
        },
        countOf: lengthOf,
      });
    }
    return entries;
  }

  /** The profile the mind answers with (merged over its linked completed snapshots), when it has one. */
  private async profileEntry(mindId: string): Promise<ExportEntry[]> {
    const ids = (await this.store.repos.snapshots.completedIds(mindId)).map((r) => r.id);
    if (ids.length === 0) return [];
    return [
      {
        kind: 'document',
        path: 'profile.json',
        description: "The mind's persona profile, merged over the completed snapshots linked to its twins: what simulations and the dashboard show.",
        unit: 'profile',
        read: async () => {
          const rows = await this.store.repos.profiles.profilesOf(ids);
          return { mindId, ...mergeProfiles(rows.map((r) => ({ snapshotId: r.snapshot_id, profile: JSON.parse(r.profile) as StoredSnapshotProfile }))) };
        },
        countOf: lengthOf,
      },
    ];
  }

  private async *memories(snapshotId: string): AsyncGenerator<readonly unknown[]> {
    for (let after = -1; ; ) {
      const page = await this.store.repos.exports.memories(snapshotId, after, PAGE);
      for (const m of page) yield [m.snapshot_id, m.seq, m.speaker ?? '', m.question ?? '', m.text, m.start_s ?? '', m.end_s ?? '', m.page ?? ''];
      if (page.length < PAGE) return;
      after = page[page.length - 1]?.seq ?? after;
    }
  }

  private async *simulations(accountId: string, mindId: string): AsyncGenerator<unknown> {
    const { exports, simulations } = this.store.repos;
    for (let after: { createdAt: string; id: string } | null = null; ; ) {
      const page = await exports.simulations(accountId, mindId, after, PAGE);
      for (const s of page) {
        const messages = (await simulations.messages(s.id)).map((m) => ({ role: m.role, ...(m.content satisfies MessageContent), createdAt: m.createdAt }));
        yield {
          id: s.id,
          title: s.title,
          model: s.model,
          status: s.status,
          error: s.error_code ? { code: s.error_code, message: s.error_message } : null,
          digitalTwinId: s.digital_twin_id,
          snapshotId: s.mind_assessment_id,
          createdAt: s.created_at,
          updatedAt: s.updated_at,
          messages,
        };
      }
      const last = page[page.length - 1];
      if (page.length < PAGE || !last) return;
      after = { createdAt: last.created_at, id: last.id };
    }
  }

  private async *panelAnswers(accountId: string, mindId: string): AsyncGenerator<readonly unknown[]> {
    const questions = new Map<string, Question[]>();
    for (let after: { panelId: string; questionIndex: number } | null = null; ; ) {
      const page = await this.store.repos.exports.panelAnswers(accountId, mindId, after, PAGE);
      for (const a of page) {
        if (!questions.has(a.panel_id)) questions.set(a.panel_id, JSON.parse(a.panel_questions) as Question[]);
        const q = questions.get(a.panel_id)?.[a.question_index];
        const evidence = JSON.parse(a.evidence) as Array<{ snapshotId: string; start?: number; end?: number; page?: number }>;
        yield [
          a.panel_id,
          a.panel_name,
          a.mind_name,
          q?.id ?? String(a.question_index),
          q?.text ?? '',
          q?.type ?? '',
          a.status,
          (JSON.parse(a.choices) as string[]).join('; '),
          a.value === null ? '' : Number(a.value),
          Number(a.confidence),
          a.saying,
          evidence.map((e) => e.snapshotId + (e.start !== undefined ? `@${e.start}-${e.end ?? e.start}s` : e.page !== undefined ? `#page=${e.page}` : '')).join(' | '),
          a.created_at,
        ];
      }
      const last = page[page.length - 1];
      if (page.length < PAGE || !last) return;
      after = { panelId: last.panel_id, questionIndex: last.question_index };
    }
  }

  private async *accessLog(accountId: string, mindId: string): AsyncGenerator<readonly unknown[]> {
    for (const r of await this.store.repos.accessLog.ofMind(accountId, mindId)) yield [r.at, r.actor, r.action, r.mind_id ?? '', r.resource_id ?? '', r.ip ?? ''];
  }
}
