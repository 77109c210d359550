import { WaitTimeoutError } from './errors.ts';
import { API_PREFIX, sleep, type Transport } from './transport.ts';
import type { CreatePanelRequest, Panel, PanelAnswerList, PanelAnswersQuery, PanelDeleted, PanelList } from './types.ts';

export interface PanelWaitOptions {
  /** Give up after this long (WaitTimeoutError). Default 10 minutes. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** First poll interval; it grows by half each poll up to `maxIntervalMs`. Default 250 ms. */
  intervalMs?: number;
  maxIntervalMs?: number;
  /** Called with every read of the panel (without results until it is final), e.g. for a progress bar. */
  onProgress?: (panel: Panel) => void;
}

const enc = encodeURIComponent;
const FINAL = new Set(['completed', 'failed', 'cancelled']);

/** `/panels`: a questionnaire put to many minds; its results, answers (JSON or CSV), cancel and delete. */
export class Panels {
  private readonly transport: Transport;
  constructor(transport: Transport) {
    this.transport = transport;
  }

  /** Queues the panel (202): `{panel}` with status `queued`, `total` answers expected; `wait` follows it. */
  create(request: CreatePanelRequest, signal?: AbortSignal): Promise<{ panel: Panel }> {
    return this.transport.json<{ panel: Panel }>({ method: 'POST', path: `${API_PREFIX}/panels`, json: request, signal });
  }

  /** Newest first, with `count`, without results. */
  list(opts: { limit?: number; offset?: number; signal?: AbortSignal } = {}): Promise<PanelList> {
    const { limit, offset, signal } = opts;
    return this.transport.json<PanelList>({ method: 'GET', path: `${API_PREFIX}/panels`, query: { limit, offset }, signal });
  }

  /** The panel with its progress and results per question (and per tag). */
  get(panelId: string, signal?: AbortSignal): Promise<{ panel: Panel }> {
    return this.transport.json<{ panel: Panel }>({ method: 'GET', path: `${API_PREFIX}/panels/${enc(panelId)}`, signal });
  }

  /** A page of answers (by question, then mind), optionally filtered to a question, mind, status, option or value. */
  answers(panelId: string, query: Omit<PanelAnswersQuery, 'format'> = {}, signal?: AbortSignal): Promise<PanelAnswerList> {
    return this.transport.json<PanelAnswerList>({ method: 'GET', path: `${API_PREFIX}/panels/${enc(panelId)}/answers`, query: { ...query }, signal });
  }

  /** Every matching answer as CSV text (a header row, then one row per mind × question). */
  async answersCsv(panelId: string, query: Omit<PanelAnswersQuery, 'format' | 'limit' | 'offset'> = {}, signal?: AbortSignal): Promise<string> {
    const res = await this.transport.send({ method: 'GET', path: `${API_PREFIX}/panels/${enc(panelId)}/answers`, query: { ...query, format: 'csv' }, signal });
    return res.text();
  }

  /** Stops a queued or running panel (409 when it is final already); the answers so far are kept. */
  cancel(panelId: string, signal?: AbortSignal): Promise<{ panel: Panel }> {
    return this.transport.json<{ panel: Panel }>({ method: 'POST', path: `${API_PREFIX}/panels/${enc(panelId)}/cancel`, signal });
  }

  delete(panelId: string, signal?: AbortSignal): Promise<PanelDeleted> {
    return this.transport.json<PanelDeleted>({ method: 'DELETE', path: `${API_PREFIX}/panels/${enc(panelId)}`, signal });
  }

  /** Polls with growing intervals until the panel is completed, failed or cancelled, and answers it with its results. */
  async wait(panelId: string, opts: PanelWaitOptions = {}): Promise<Panel> {
    const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
    let interval = opts.intervalMs ?? 250;
    for (;;) {
      const { panel } = await this.get(panelId, opts.signal);
      opts.onProgress?.(panel);
      if (FINAL.has(panel.status)) return panel;
      const left = deadline - Date.now();
      if (left <= 0) throw new WaitTimeoutError(`Panel ${panelId} is still ${panel.status} (${panel.done} of ${panel.total} answers).`, panel.status);
      await sleep(Math.min(interval, left), opts.signal);
      interval = Math.min(interval * 1.5, opts.maxIntervalMs ?? 5_000);
    }
  }
}
