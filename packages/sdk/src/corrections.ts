import { Paginated } from './pagination.ts';
import { API_PREFIX, type Transport } from './transport.ts';
import type { CorrectSimulationRequest, Correction, CorrectionDeleted, CorrectionList, CreateCorrectionRequest, CreatedReviewLink, ReviewLink } from './types.ts';

const enc = encodeURIComponent;

export interface CorrectionListOptions {
  /** Page size (1–200; the service's default is 50). */
  limit?: number;
  cursor?: string;
  signal?: AbortSignal;
}

/**
 * `client.minds.corrections`: what the person would really say to a scenario. The mind answers from
 * a correction whenever it is asked that scenario or a paraphrase of it: it leads the answer and its
 * evidence (`source: "correction"`), over what the transcript says.
 */
export class Corrections {
  private readonly transport: () => Transport;
  constructor(transport: () => Transport) {
    this.transport = transport;
  }

  /** `{scenario, answer, simulationId?, note?}` → the correction (400 on empty or over-long text). */
  async create(mindId: string, correction: CreateCorrectionRequest, signal?: AbortSignal): Promise<Correction> {
    const body = await this.transport().json<{ correction: Correction }>({ method: 'POST', path: `${API_PREFIX}/minds/${enc(mindId)}/corrections`, json: correction, signal });
    return body.correction;
  }

  /** Corrects a simulation's answer: the scenario is the simulation's latest message to the person. */
  async fromSimulation(simulationId: string, correction: CorrectSimulationRequest, signal?: AbortSignal): Promise<Correction> {
    const body = await this.transport().json<{ correction: Correction }>({ method: 'POST', path: `${API_PREFIX}/simulations/${enc(simulationId)}/corrections`, json: correction, signal });
    return body.correction;
  }

  /** Newest first, every page (`for await`, `.all()`); `.first()` is the first page's `{corrections, count}`. */
  list(mindId: string, opts: CorrectionListOptions = {}): Paginated<Correction, CorrectionList> {
    return new Paginated<Correction, CorrectionList>(this.transport(), `${API_PREFIX}/minds/${enc(mindId)}/corrections`, { limit: opts.limit, cursor: opts.cursor }, opts.signal, (b) => b.corrections);
  }

  async get(mindId: string, correctionId: string, signal?: AbortSignal): Promise<Correction> {
    const body = await this.transport().json<{ correction: Correction }>({ method: 'GET', path: `${API_PREFIX}/minds/${enc(mindId)}/corrections/${enc(correctionId)}`, signal });
    return body.correction;
  }

  /** The mind answers from its transcript again: `{message, correctionId}`. */
  delete(mindId: string, correctionId: string, signal?: AbortSignal): Promise<CorrectionDeleted> {
    return this.transport().json<CorrectionDeleted>({ method: 'DELETE', path: `${API_PREFIX}/minds/${enc(mindId)}/corrections/${enc(correctionId)}`, signal });
  }
}

/**
 * `client.minds.reviewLinks`: a signed, expiring, revocable link for the person behind one mind, who
 * reads its recent answers and confirms or corrects them without an account.
 */
export class ReviewLinks {
  private readonly transport: () => Transport;
  constructor(transport: () => Transport) {
    this.transport = transport;
  }

  /** A new link (default 14 days, at most 90): its `url` is in this answer only. */
  create(mindId: string, opts: { expiresInDays?: number; signal?: AbortSignal } = {}): Promise<CreatedReviewLink> {
    const json = opts.expiresInDays === undefined ? {} : { expiresInDays: opts.expiresInDays };
    return this.transport().json<CreatedReviewLink>({ method: 'POST', path: `${API_PREFIX}/minds/${enc(mindId)}/review-links`, json, signal: opts.signal });
  }

  /** The mind's links, newest first, with their status (`active`, `expired`, `revoked`), never their URLs. */
  async list(mindId: string, signal?: AbortSignal): Promise<ReviewLink[]> {
    return (await this.transport().json<{ reviewLinks: ReviewLink[] }>({ method: 'GET', path: `${API_PREFIX}/minds/${enc(mindId)}/review-links`, signal })).reviewLinks;
  }

  /** The link stops opening at once (the person gets 410). */
  async revoke(mindId: string, linkId: string, signal?: AbortSignal): Promise<ReviewLink> {
    return (await this.transport().json<{ reviewLink: ReviewLink }>({ method: 'DELETE', path: `${API_PREFIX}/minds/${enc(mindId)}/review-links/${enc(linkId)}`, signal })).reviewLink;
  }
}
