import type { AssessmentRow } from '../store/db/repos/mind-details.ts';
import type { DigitalTwinRow, MindRow } from '../store/db/repos/minds.ts';
import type { Repos } from '../store/db/repos/index.ts';
import type { SnapshotState } from './snapshot.ts';
import { byTagName, type Tag } from './tags.ts';
import type { RedactionMode } from '../privacy/kinds.ts';
import { consentOf, type Consent } from './consent.ts';

/**
 * The Mind object as the hosted API shows it (HOSTED-API.md §2), assembled for a page of minds
 * with one query per kind of detail.
 */
export type MindScope = 'private' | 'public';

/** Links a client may keep with a mind: network name → URL or handle. */
export type SocialMedia = Record<string, string>;

/** A snapshot as listed inside its digital twin. */
export interface MindAssessment {
  id: string;
  mindId: string;
  artifactId: string;
  status: SnapshotState;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
}

export interface DigitalTwin {
  id: string;
  mindId: string;
  name: string;
  /** The twin made with the mind (its oldest). */
  isDefault: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface Mind {
  id: string;
  name: string;
  /** From the name, unique within the account; kept when the mind is renamed. */
  slug: string;
  email: string | null;
  imageUrl: string | null;
  socialMedia: SocialMedia | null;
  scope: MindScope;
  /** Always false: a mind here is built from transcripts of someone else. */
  isSelf: boolean;
  /** The person's word tokens in the memories of the completed snapshots; null until one completes. */
  tokenCount: number | null;
  /** The account the mind belongs to. */
  organizationId: string;
  createdAt: string;
  updatedAt: string;
  tags: Tag[];
  digitalTwins: Array<DigitalTwin & { mindAssessments: MindAssessment[] }>;
  /** How the person's data is redacted: off, outbound (never sent to the LLM provider) or stored (never stored either). */
  redaction: RedactionMode;
  /** The person's consent on record (domain/consent.ts): `{status: "unknown"}` until one is given. */
  consent: Consent;
}

export const toTwin = (r: DigitalTwinRow): DigitalTwin => ({
  id: r.id,
  mindId: r.mind_id,
  name: r.name,
  isDefault: Boolean(r.is_default),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toAssessment = (r: AssessmentRow): MindAssessment => ({
  id: r.id,
  mindId: r.mind_id,
  artifactId: r.artifact_id,
  status: r.status,
  createdAt: r.created_at,
  startedAt: r.started_at,
  completedAt: r.completed_at,
});

function socialMediaOf(json: string | null): SocialMedia | null {
  if (json === null) return null;
  try {
    return JSON.parse(json) as SocialMedia;
  } catch {
    return null;
  }
}

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** The Mind objects of these rows (all of the account), in the rows' order. */
export async function mindViews(repos: Repos, accountId: string, rows: readonly MindRow[]): Promise<Mind[]> {
  const ids = rows.map((r) => r.id);
  const [twins, assessments, tags, tokens] = await Promise.all([
    repos.mindDetails.twins(accountId, ids),
    repos.mindDetails.assessments(accountId, ids),
    repos.tags.ofMinds(accountId, ids),
    repos.mindDetails.tokenCounts(accountId, ids),
  ]);
  const twinsOf = groupBy(twins, (t) => t.mind_id);
  const assessmentsOf = groupBy(assessments, (a) => a.digital_twin_id ?? '');
  const tagsOf = groupBy(tags, (t) => t.mind_id);
  return rows.map((r) => {
    const counted = tokens.get(r.id);
    return {
      id: r.id,
      name: r.name,
      slug: r.slug ?? r.id,
      email: r.email,
      imageUrl: r.image_url,
      socialMedia: socialMediaOf(r.social_media),
      scope: r.scope,
      isSelf: false,
      tokenCount: counted && counted.counted > 0 ? counted.tokens : null,
      organizationId: r.account_id,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      tags: (tagsOf.get(r.id) ?? []).sort(byTagName).map((t) => ({ id: t.id, name: t.name })),
      digitalTwins: (twinsOf.get(r.id) ?? []).map((t) => ({
        ...toTwin(t),
        mindAssessments: (assessmentsOf.get(t.id) ?? []).map(toAssessment),
      })),
      consent: consentOf(r),
      redaction: r.redaction,
    };
  });
}
