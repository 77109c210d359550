import type { Store } from '../store/store.ts';
import type { ReviewLinkRow } from '../store/db/repos/review-links.ts';
import type { AccessLogService, Actor } from './access-log.ts';
import type { AuthContext } from './accounts.ts';
import type { Correction } from './correction.ts';
import type { CorrectionService } from './corrections.ts';
import type { MindService } from './minds.ts';
import type { SimulationHistory } from './simulations.ts';
import { sha256 } from './secrets.ts';
import { DomainError, invalid, notFound } from '../kernel/errors.ts';
import { iso, type Runtime } from '../kernel/runtime.ts';

/** How long a link lives unless the account says otherwise, and at most. */
export const REVIEW_LINK_DEFAULT_DAYS = 14;
export const REVIEW_LINK_MAX_DAYS = 90;
/** The answers a review page shows: the mind's latest conversations' latest turns. */
export const REVIEW_ANSWERS_SHOWN = 20;
const LINKS_LISTED = 200;
const DAY_MS = 86_400_000;
/** 32 random bytes, base64url: what follows `/review/` in the link. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface ReviewLink {
  id: string;
  mindId: string;
  status: 'active' | 'expired' | 'revoked';
  expiresAt: string;
  revokedAt: string | null;
  createdAt: string;
}

/** A new link: the only time its URL (with the token) is shown. */
export interface CreatedReviewLink {
  reviewLink: ReviewLink;
  url: string;
}

/** One answer of the twin as the person reviews it: the latest turn of a conversation. */
export interface ReviewAnswer {
  simulationId: string;
  askedAt: string;
  scenario: string;
  answer: string;
  saying: string | null;
}

/** What an open link lets the person act as: the account's mind, audited as `review-link:<id>`. */
export interface OpenReviewLink {
  link: ReviewLink;
  mindName: string;
  auth: AuthContext;
  actor: Actor;
}

const linkNotFound = () => notFound('The review link', 'review_link_not_found');

/**
 * Review links (issue 32, item 5): an account makes a signed, expiring, revocable link for one mind;
 * through it the person behind the mind reads their twin's recent answers and confirms or corrects
 * them without an account. The token is 32 random bytes, shown once in the URL; only its SHA-256 is
 * stored. An unknown token is 404, an expired or revoked one 410 (expiry read from the injected
 * clock). What the person does is in the access log as `review-link:<id>`; the link reaches that
 * mind's answers and nothing else of the account.
 */
export class ReviewLinkService {
  private readonly store: Store;
  private readonly minds: MindService;
  private readonly simulations: SimulationHistory;
  private readonly corrections: CorrectionService;
  private readonly accessLog: AccessLogService;
  private readonly rt: Runtime;
  private readonly publicUrl: string;
  constructor(deps: { store: Store; minds: MindService; simulations: SimulationHistory; corrections: CorrectionService; accessLog: AccessLogService }, rt: Runtime, publicUrl: string) {
    this.store = deps.store;
    this.minds = deps.minds;
    this.simulations = deps.simulations;
    this.corrections = deps.corrections;
    this.accessLog = deps.accessLog;
    this.rt = rt;
    this.publicUrl = publicUrl;
  }

  async create(auth: AuthContext, mindId: string, opts: { expiresInDays?: number | undefined } = {}): Promise<CreatedReviewLink> {
    await this.minds.require(auth, mindId);
    const days = opts.expiresInDays ?? REVIEW_LINK_DEFAULT_DAYS;
    if (!Number.isInteger(days) || days < 1 || days > REVIEW_LINK_MAX_DAYS) {
      throw invalid('invalid_expiry', `expiresInDays must be a whole number from 1 to ${REVIEW_LINK_MAX_DAYS}.`, { field: 'expiresInDays' });
    }
    const token = this.rt.randomBytes(32).toString('base64url');
    const now = this.rt.now();
    const row: ReviewLinkRow = {
      id: this.rt.newId(),
      mind_id: mindId,
      account_id: auth.accountId,
      token_hash: sha256(token),
      expires_at: iso(new Date(now.getTime() + days * DAY_MS)),
      revoked_at: null,
      created_at: iso(now),
    };
    await this.store.transaction(async ({ repos }) => {
      if (!(await repos.minds.byId(auth.accountId, mindId))) throw notFound('The mind', 'mind_not_found');
      await repos.reviewLinks.insert(row);
    });
    return { reviewLink: this.toLink(row), url: `${this.publicUrl}/review/${token}` };
  }

  /** The mind's links, newest first, with their status now (never their tokens). */
  async list(auth: AuthContext, mindId: string): Promise<ReviewLink[]> {
    await this.minds.require(auth, mindId);
    return (await this.store.repos.reviewLinks.ofMind(auth.accountId, mindId, LINKS_LISTED)).map((r) => this.toLink(r));
  }

  /** The link stops working at once (a link already revoked keeps its first revocation time). */
  async revoke(auth: AuthContext, mindId: string, linkId: string): Promise<ReviewLink> {
    await this.minds.require(auth, mindId);
    const { reviewLinks } = this.store.repos;
    if (!(await reviewLinks.byId(auth.accountId, mindId, linkId))) throw linkNotFound();
    await reviewLinks.revoke(auth.accountId, mindId, linkId, iso(this.rt.now()));
    const row = await reviewLinks.byId(auth.accountId, mindId, linkId);
    if (!row) throw linkNotFound();
    return this.toLink(row);
  }

  /** The link a token opens: 404 when there is none (or the mind is gone), 410 when expired or revoked. */
  async open(token: string): Promise<OpenReviewLink> {
    const row = TOKEN_SHAPE.test(token) ? await this.store.repos.reviewLinks.byTokenHash(sha256(token)) : undefined;
    if (!row) throw linkNotFound();
    const link = this.toLink(row);
    if (link.status === 'revoked') throw new DomainError('gone', 'review_link_revoked', 'This review link was withdrawn by the people who sent it. Ask them for a new one if you still want to review the answers.');
    if (link.status === 'expired') throw new DomainError('gone', 'review_link_expired', `This review link expired on ${link.expiresAt.slice(0, 10)}. Ask the people who sent it for a new one.`);
    const account = await this.store.repos.accounts.byId(row.account_id);
    if (!account) throw linkNotFound();
    const auth: AuthContext = { accountId: row.account_id, tier: account.tier, apiKeyId: null };
    const mind = await this.minds.require(auth, row.mind_id).catch((err: unknown) => {
      if (err instanceof DomainError && err.kind === 'not_found') throw linkNotFound();
      throw err;
    });
    return { link, mindName: mind.name, auth, actor: `review-link:${row.id}` };
  }

  /** The twin's recent answers (each conversation's latest turn), newest first; the read is in the access log. */
  async answers(open: OpenReviewLink, ip: string | null): Promise<ReviewAnswer[]> {
    const { simulations } = await this.simulations.list(open.auth, { mindId: open.link.mindId, limit: REVIEW_ANSWERS_SHOWN, offset: 0 });
    const answers: ReviewAnswer[] = [];
    for (const sim of simulations) {
      const { messages } = await this.simulations.get(open.auth, sim.id);
      const reply = [...messages].reverse().find((m) => m.role === 'assistant');
      const asked = [...messages].reverse().find((m) => m.role === 'user');
      if (!reply || !asked) continue;
      answers.push({ simulationId: sim.id, askedAt: asked.createdAt, scenario: asked.content.text, answer: reply.content.text, saying: reply.content.analysis?.saying ?? null });
    }
    await this.record(open, 'review.read', null, ip);
    return answers;
  }

  /** The person says the answer is what they would say: recorded in the access log (`review.confirm`). */
  async confirm(open: OpenReviewLink, simulationId: string, ip: string | null): Promise<void> {
    await this.requireAnswer(open, simulationId);
    await this.record(open, 'review.confirm', simulationId, ip);
  }

  /** The person's own answer to the simulation's latest message: a correction of the mind by `review-link:<id>`. */
  async correct(open: OpenReviewLink, simulationId: string, input: { answer: string; note?: string | undefined }, ip: string | null): Promise<Correction> {
    await this.requireAnswer(open, simulationId);
    try {
      const correction = await this.corrections.fromSimulation(open.auth, simulationId, input, open.actor);
      await this.record(open, 'correction.create', correction.id, ip);
      return correction;
    } catch (err) {
      // A refused use (consent) is worth knowing of, as the audit trail logs the routes' 403s.
      if (err instanceof DomainError && err.kind === 'forbidden') await this.record(open, 'correction.create.denied', simulationId, ip);
      throw err;
    }
  }

  /** Only this mind's simulations: any other id (another mind's, another account's) is 404. */
  private async requireAnswer(open: OpenReviewLink, simulationId: string): Promise<void> {
    const { simulation } = await this.simulations.get(open.auth, simulationId);
    if (simulation.mindId !== open.link.mindId) throw notFound('The simulation', 'simulation_not_found');
  }

  private record(open: OpenReviewLink, action: string, resourceId: string | null, ip: string | null): Promise<void> {
    return this.accessLog.record([{ accountId: open.auth.accountId, actor: open.actor, action, mindId: open.link.mindId, resourceId, ip }]);
  }

  private toLink(r: ReviewLinkRow): ReviewLink {
    const now = iso(this.rt.now());
    const status = r.revoked_at !== null ? 'revoked' : r.expires_at <= now ? 'expired' : 'active';
    return { id: r.id, mindId: r.mind_id, status, expiresAt: r.expires_at, revokedAt: r.revoked_at, createdAt: r.created_at };
  }
}
