/**
 * The local-LLM recipe (compose.yaml's `llm` profile with compose.llm.env; docs/OPERATIONS.md "Using a
 * local model"), as far as it can be run here: no Docker engine and no model weights. The compose file is
 * read for its wiring, and the service is started with exactly the env file's settings, Ollama's
 * address swapped for the testkit's local server that speaks the same OpenAI chat-completions protocol.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { loadConfig } from '../src/config.ts';
import { sampleInterview, teamsVtt } from '../testkit/fixtures.ts';
import { blobOf, waitFor } from '../testkit/sdk.ts';
import { startService, type Service } from '../testkit/service.ts';
import { FULL_CONSENT } from '../testkit/consent.ts';
import { replyByName, startLlmStandIn, type LlmStandIn } from '../testkit/llm-provider.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const envFile: Record<string, string> = Object.fromEntries(
  fs
    .readFileSync(path.join(ROOT, 'compose.llm.env'), 'utf8')
    .split('\n')
    .filter((l) => /^[A-Z_]+=/.test(l))
    .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as const),
);
interface ComposeService {
  profiles?: string[];
  environment?: Record<string, string | null>;
  depends_on?: Record<string, { condition: string; required?: boolean }>;
  entrypoint?: string[];
}
const compose = parse(fs.readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
const llmKeys = Object.keys(envFile).filter((k) => k.startsWith('LLM_'));

describe('compose.yaml with compose.llm.env', () => {
  it('runs Ollama and the model pull in the llm profile, which the env file turns on', () => {
    assert.equal(envFile.COMPOSE_PROFILES, 'llm');
    assert.deepEqual(compose.services.ollama?.profiles, ['llm']);
    assert.deepEqual(compose.services['ollama-pull']?.profiles, ['llm']);
    assert.deepEqual(compose.services['ollama-pull']?.depends_on?.ollama, { condition: 'service_healthy' });
  });

  it('pulls the model the service is told to use (the same default)', () => {
    const pulled = compose.services['ollama-pull']?.environment?.MODEL ?? '';
    assert.equal(/^\$\{LLM_MODEL:-(.+)\}$/.exec(pulled)?.[1], envFile.LLM_MODEL);
    assert.match(compose.services['ollama-pull']?.entrypoint?.join(' ') ?? '', /ollama pull "\$\$MODEL"/);
  });

  for (const name of ['api', 'worker']) {
    it(`${name}: passes on every LLM_ setting of the env file, and waits for the pull only in the profile`, () => {
      const svc = compose.services[name];
      for (const k of llmKeys) assert.equal(svc?.environment?.[k], null, `${k} is passed on from the env file`);
      assert.deepEqual(svc?.depends_on?.['ollama-pull'], { condition: 'service_completed_successfully', required: false });
    });
  }

  it("points the OpenAI-compatible provider at the ollama service's /v1, and is a valid configuration", () => {
    const url = new URL(envFile.LLM_BASE_URL ?? '');
    assert.equal(url.hostname, 'ollama');
    assert.equal(url.port, '11434');
    assert.equal(url.pathname, '/v1');
    const llm = loadConfig(envFile).llm;
    assert.equal(llm?.provider, 'openai-compatible');
    assert.equal(llm?.model, envFile.LLM_MODEL);
    assert.equal(llm?.timeoutMs, Number(envFile.LLM_TIMEOUT_MS));
    assert.equal(llm?.contextWords, Number(envFile.LLM_CONTEXT_WORDS));
  });
});

/** Ollama's OpenAI-compatible endpoint, as far as the service uses it: POST /v1/chat/completions, no key. */
let ollama: LlmStandIn;
let srv: Service;
const ANSWER = { thinking: 'Focus first.', feeling: 'Calm.', saying: 'Remote, without question.', acting: 'Stays home.', confidence: 0.7 };
const REFLECTIONS = { psychologist: 'p', behaviouralEconomist: 'b', politicalScientist: 'ps', demographer: 'd' };

before(async () => {
  ollama = await startLlmStandIn(replyByName({ reflections: REFLECTIONS }, ANSWER));
  const { COMPOSE_PROFILES: _profiles, ...settings } = envFile;
  srv = await startService({ ...settings, LLM_BASE_URL: (settings.LLM_BASE_URL ?? '').replace('ollama:11434', `127.0.0.1:${ollama.port}`) });
});
after(async () => {
  await srv?.close();
  await ollama.close();
});

describe('the service with the env file, against an OpenAI-protocol stand-in for Ollama', () => {
  it('mind-reasoner-pro is available, reflections, psychometric estimates and simulations go to the model by its Ollama name', async () => {
    const sdk = srv.sdk();
    assert.equal((await sdk.models.list()).find((m) => m.id === 'mind-reasoner-pro')?.available, true);
    const { mind } = await sdk.minds.create({ name: 'Sam Okafor', consent: FULL_CONSENT });
    const snap = await sdk.snapshots.create(mind.id, { file: blobOf(teamsVtt(sampleInterview())), fileName: 'talk.vtt' });
    assert.equal((await waitFor(sdk, mind.id, snap.mindAssessmentId)).status, 'completed');
    const sim = await sdk.simulate({ mindId: mind.id, selectedSimulationModel: 'mind-reasoner-pro', scenario: { message: 'Would you go back to an office?' } });
    assert.equal(sim.model, 'mind-reasoner-pro');
    assert.equal(sim.analysis.saying, ANSWER.saying);
    assert.deepEqual(
      ollama.requests.map((r) => r.schemaName),
      ['reflections', 'psychometrics', 'simulation'],
    );
    for (const r of ollama.requests) {
      assert.equal(r.body.model, envFile.LLM_MODEL, 'the Ollama tag is sent as the model id, unchanged');
      assert.equal((r.body.response_format as { type?: string } | undefined)?.type, 'json_schema', 'structured outputs, which Ollama supports');
      assert.equal(r.headers.authorization, undefined, 'no key: Ollama needs none');
    }
  });
});
