/**
 * A stored simulation: one conversation with a mind, as the hosted API keeps it (`/simulations`).
 * Every simulate call is a turn of one: a message to the person and the simulated answer. This
 * module says what a simulation is, which states it moves through and which moves are allowed; the
 * repository guards each move in SQL (`UPDATE … WHERE status IN`), so a late or repeated job never
 * moves a simulation backwards and two turns never interleave.
 *
 *   (new, answered at once) ─────────────────────────▶ completed ◀──answer── completed | failed
 *   (new, runInBackground) ─▶ queued ─start─▶ running ─complete─▶ completed
 *   completed | failed ─queue─▶ queued     queued | running ─fail─▶ failed
 *   (running ─start─▶ running: a job redelivered after its worker died)
 */
import type { ConversationTurn, EvidenceItem, SimulationAnalysis } from '../engines/types.ts';

export type SimulationState = 'queued' | 'running' | 'completed' | 'failed';

export const SIMULATION_STATES = ['queued', 'running', 'completed', 'failed'] as const satisfies readonly SimulationState[];

/** The moves a simulation can make: from which states, to which one. */
export const SIMULATION_TRANSITIONS = {
  /** A turn answered in the request itself (synchronous or streamed) joins a conversation at rest. */
  answer: { from: ['completed', 'failed'], to: 'completed' },
  /** A background turn joins a conversation at rest. */
  queue: { from: ['completed', 'failed'], to: 'queued' },
  /** A worker takes the background turn (again, when a worker died holding it). */
  start: { from: ['queued', 'running'], to: 'running' },
  complete: { from: ['running'], to: 'completed' },
  fail: { from: ['queued', 'running'], to: 'failed' },
} as const satisfies Record<string, { from: readonly SimulationState[]; to: SimulationState }>;

export type SimulationMove = keyof typeof SIMULATION_TRANSITIONS;

/** A turn is waiting or being answered: the conversation takes no other turn until it ends. */
export const isBusy = (status: SimulationState): boolean => status === 'queued' || status === 'running';

export interface SimulationError {
  code: string;
  message: string;
}

export interface SimulationRecord {
  id: string;
  accountId: string;
  mindId: string;
  digitalTwinId: string | null;
  /** The latest completed snapshot the last answer drew on (null before a background turn ran). */
  mindAssessmentId: string | null;
  title: string;
  /** The model of the latest turn (the one that answered, once it has). */
  model: string;
  status: SimulationState;
  /** Why the latest turn failed (null otherwise). */
  error: SimulationError | null;
  messageCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface MessageContent {
  text: string;
  analysis?: SimulationAnalysis;
  confidence?: number;
  evidence?: EvidenceItem[];
}

export interface SimulationMessage {
  id: string;
  role: 'user' | 'assistant';
  content: MessageContent;
  createdAt: string;
}

/** What a new simulation is made of; it starts with its first message, answered or queued. */
export type NewSimulation = Pick<
  SimulationRecord,
  'id' | 'accountId' | 'mindId' | 'digitalTwinId' | 'mindAssessmentId' | 'title' | 'model' | 'status' | 'createdAt'
>;

/** A message to store: the repository numbers it after the conversation's last one. */
export type NewMessage = Pick<SimulationMessage, 'id' | 'role' | 'content' | 'createdAt'>;

/**
 * A new conversation's first turn, answered and not yet in the database (domain/pending-turns.ts
 * stores it after the answer). It is stored only while every snapshot it cites still exists: a
 * mind or snapshot deleted meanwhile takes the turn with it, as it takes the conversations that
 * cite it (repos/simulations.ts deleteCiting). Storing a turn already stored changes nothing.
 */
export interface AnsweredTurn {
  simulation: NewSimulation;
  /** The question and the answer, in that order. */
  messages: NewMessage[];
  /** The latest snapshot used (mindAssessmentId) and every snapshot the evidence quotes. */
  citedSnapshotIds: string[];
}

/** At most this many characters of the first message make the title. */
export const TITLE_CHARACTERS = 80;

/** The title of a conversation: its first message on one line, cut at a word near TITLE_CHARACTERS. */
export function titleOf(message: string): string {
  const line = message.replace(/\s+/g, ' ').trim();
  if (line.length <= TITLE_CHARACTERS) return line;
  const cut = line.slice(0, TITLE_CHARACTERS);
  const space = cut.lastIndexOf(' ');
  return `${(space > TITLE_CHARACTERS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * How much of a conversation a new turn sees (both engines): the latest HISTORY_MESSAGES
 * messages, each cut to HISTORY_MESSAGE_WORDS words, HISTORY_WORDS words in all. Older turns
 * are left out: the prompt stays within the LLM's budget and retrieval follows the recent subject.
 */
export const HISTORY_MESSAGES = 8;
export const HISTORY_MESSAGE_WORDS = 150;
export const HISTORY_WORDS = 800;

/** The earlier turns a new one is answered with, oldest first, bounded as above. */
export function recentHistory(messages: readonly SimulationMessage[]): ConversationTurn[] {
  const kept: ConversationTurn[] = [];
  let words = 0;
  for (const m of messages.slice(-HISTORY_MESSAGES).reverse()) {
    const all = m.content.text.split(/\s+/).filter(Boolean);
    const cut = all.slice(0, Math.min(HISTORY_MESSAGE_WORDS, HISTORY_WORDS - words));
    if (cut.length === 0) break;
    words += cut.length;
    kept.push({ role: m.role, text: cut.join(' ') + (cut.length < all.length ? ' …' : '') });
  }
  return kept.reverse();
}
