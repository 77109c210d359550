/**
 * A mind's redaction (issue 25, item 2) as the services use it: with the mind's redaction on
 * (outbound or stored), the `TextRedaction` every prompt to the LLM provider passes through
 * (engines/llm-redacting.ts), its third parties numbered per mind by the store
 * (redaction_people: keyed hashes, never names); and for snapshots processed with it on, what
 * the analysis thread needs to redact before anything is stored.
 */
import type { TextRedaction } from '../engines/llm-redacting.ts';
import type { MindMemory } from '../memory/mind-memory.ts';
import { iso, type Runtime } from '../kernel/runtime.ts';
import type { RedactionMode } from '../privacy/kinds.ts';
import { Redactor } from '../privacy/redactor.ts';
import type { Store } from '../store/store.ts';

/** A mind as redaction needs it. */
export interface RedactedMind {
  id: string;
  name: string;
  redaction: RedactionMode;
}

export class RedactionService {
  private readonly store: Store;
  private readonly key: string;
  private readonly rt: Runtime;
  /** The speakers of each loaded memory (the person as labelled in each transcript): never third parties. */
  private readonly speakersOf = new WeakMap<MindMemory, string[]>();
  constructor(store: Store, key: string, rt: Runtime) {
    this.store = store;
    this.key = key;
    this.rt = rt;
  }

  /** The mind's prompt redaction, or undefined when its redaction is off. */
  forMind(mind: RedactedMind, memory?: MindMemory, alsoSpeakers: ReadonlyArray<string | null> = []): TextRedaction | undefined {
    if (mind.redaction === 'off') return undefined;
    const speakers = [mind.name, ...alsoSpeakers, ...(memory ? this.speakers(memory) : [])];
    return new Redactor({
      speakers,
      key: this.key,
      numbering: { numbers: (hashes) => this.store.repos.redactionPeople.assign(mind.id, hashes, iso(this.rt.now())) },
    });
  }

  /** What an analysis thread needs to redact a snapshot of the mind before it is stored (`stored` mode), or null. */
  async forIngestion(mind: RedactedMind): Promise<{ mode: RedactionMode; key: string; known: Array<[string, number]> } | null> {
    if (mind.redaction === 'off') return null;
    return { mode: mind.redaction, key: this.key, known: mind.redaction === 'stored' ? await this.store.repos.redactionPeople.known(mind.id) : [] };
  }

  private speakers(memory: MindMemory): string[] {
    let found = this.speakersOf.get(memory);
    if (!found) {
      const names = new Set<string>();
      for (const m of memory.memories) if (m.speaker) names.add(m.speaker);
      found = [...names];
      this.speakersOf.set(memory, found);
    }
    return found;
  }
}
