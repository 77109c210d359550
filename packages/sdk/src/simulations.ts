import { ApiError } from './errors.ts';
import { API_PREFIX, type Transport } from './transport.ts';
import type { ErrorBody, Evidence, Simulation, SimulationDeleted, SimulationDetail, SimulationList } from './types.ts';

/** The events of a streamed simulation (`POST /simulate` with `stream: true`), in the order they come. */
export type SimulationEvent =
  | { event: 'start'; data: { simulationId: string; conversationId: string; model: string } }
  | { event: 'part'; data: { field: 'thinking' | 'feeling' | 'saying' | 'acting'; text: string } }
  | { event: 'delta'; data: { field: 'saying'; text: string } }
  | { event: 'evidence'; data: { evidence: Evidence[] } }
  | { event: 'result'; data: Simulation }
  | { event: 'error'; data: ErrorBody & { status: number } };

export interface SimulationListOptions {
  /** At most this many (1–200; default 50). */
  limit?: number;
  offset?: number;
  /** Only this mind's simulations. */
  mindId?: string;
  signal?: AbortSignal;
}

const enc = encodeURIComponent;

/** `/simulations`: the stored conversations of the account. */
export class Simulations {
  private readonly transport: Transport;
  constructor(transport: Transport) {
    this.transport = transport;
  }

  /** Newest first, with `count`, the total that matches. */
  list(opts: SimulationListOptions = {}): Promise<SimulationList> {
    const { limit, offset, mindId, signal } = opts;
    return this.transport.json<SimulationList>({ method: 'GET', path: `${API_PREFIX}/simulations`, query: { limit, offset, mindId }, signal });
  }

  /** The simulation and its messages, oldest first: a background turn's status, then its answer. */
  get(simulationId: string, signal?: AbortSignal): Promise<SimulationDetail> {
    return this.transport.json<SimulationDetail>({ method: 'GET', path: `${API_PREFIX}/simulations/${enc(simulationId)}`, signal });
  }

  delete(simulationId: string, signal?: AbortSignal): Promise<SimulationDeleted> {
    return this.transport.json<SimulationDeleted>({ method: 'DELETE', path: `${API_PREFIX}/simulations/${enc(simulationId)}`, signal });
  }
}

/**
 * A streamed simulation, event by event: `for await (const e of client.simulateStream({…}))`.
 * A refusal before the stream starts (validation, unknown ids, no completed snapshot) throws
 * `ApiError` like any call; a failure during it is the `error` event. Never retried (a POST).
 */
export async function* simulationEvents(transport: Transport, request: object, signal?: AbortSignal): AsyncGenerator<SimulationEvent> {
  const res = await transport.send({
    method: 'POST',
    path: `${API_PREFIX}/simulate`,
    json: { ...request, stream: true },
    headers: { accept: 'text/event-stream' },
    signal,
  });
  if (!res.body) throw new ApiError(res.status, 'empty_stream', 'The service answered without a body.', res.headers.get('x-request-id'));
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = res.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += decoder.decode(value, { stream: !done });
      let end: number;
      while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
        const event = parseEvent(block);
        if (event) yield event;
      }
      if (done) return;
    }
  } finally {
    reader.releaseLock();
    if (!signal?.aborted) await res.body.cancel().catch(() => undefined);
  }
}

/** One event block (`event:` and `data:` lines; comments and unknown fields ignored). */
function parseEvent(block: string): SimulationEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith(':')) continue;
    const at = line.indexOf(':');
    const field = at < 0 ? line : line.slice(0, at);
    const value = at < 0 ? '' : line.slice(at + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return null;
  return { event, data: JSON.parse(data.join('\n')) } as SimulationEvent;
}
