import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { ErrorBody, SimulateResponse, SnapshotStatus, WebhookEvent } from '../../src/http/schemas.ts';
import { responseSerializerCompiler } from '../../src/http/serializer.ts';

const compile = (schema: z.ZodType) => responseSerializerCompiler({ schema, method: 'GET', url: '/x' }) as (data: unknown) => string;
const ID = '0b7d8f3e-4d2c-4e61-9a52-6f1f0f1d2a3b';
const status = {
  id: ID,
  mindId: ID,
  artifactId: ID,
  digitalTwinId: null,
  status: 'failed',
  createdAt: '2026-11-22T05:00:00.000Z',
  mindsetDate: '2026-11-21',
  startedAt: '2026-11-22T05:00:01.000Z',
  completedAt: '2026-11-22T05:00:02.000Z',
  error: { code: 'unsupported_file_type', message: 'Not a "VTT", DOCX or PDF file.' },
  fidelity: null,
};

describe('response serializer', () => {
  it('writes what the zod schema describes, as the zod-checked JSON would', () => {
    const out = compile(SnapshotStatus)(status);
    assert.deepEqual(JSON.parse(out), status);
    assert.deepEqual(SnapshotStatus.parse(JSON.parse(out)), status);
  });

  it('never lets fields outside the schema out (a row\'s other columns)', () => {
    const out = JSON.parse(compile(SnapshotStatus)({ ...status, account_id: 'secret-account', error: { ...status.error, stack: 'at x' } }));
    assert.equal(out.account_id, undefined);
    assert.deepEqual(Object.keys(out.error), ['code', 'message']);
  });

  it('fails on a missing required field instead of writing an incomplete body', () => {
    const { createdAt: _, ...partial } = status;
    assert.throws(() => compile(SnapshotStatus)(partial), /createdAt/);
  });

  it('writes free-form parts (error details, webhook payloads) whole', () => {
    const details = { fields: [{ field: 'body.scenario.message', message: 'Too small: "min" 1' }], nested: { a: [1, null, true] } };
    assert.deepEqual(JSON.parse(compile(ErrorBody)({ error: 'Bad Request', code: 'VALIDATION_FAILED', message: 'm', details })).details, details);
    for (const payload of [{ event: 'x', data: { deep: [1, 'two', { three: 3 }] } }, 'text', 42, null, [1, 2]]) {
      assert.deepEqual(JSON.parse(compile(WebhookEvent)({ id: ID, receivedAt: status.createdAt, payload })).payload, payload);
    }
  });

  it('keeps optional fields optional and nulls null', () => {
    const sim = {
      message: 'm',
      model: 'mind-reasoner-standard',
      snapshotIds: [ID],
      analysis: { thinking: 't', feeling: 'f', saying: 's', acting: 'a' },
      confidence: 0.42,
      evidence: [
        { text: 'said', speaker: null, snapshotId: ID, score: 0.5 },
        { text: 'said', speaker: 'Sam', snapshotId: ID, start: 1.25, end: 3.5, score: 0.25 },
      ],
      simulationId: ID,
      conversationId: ID,
    };
    assert.deepEqual(JSON.parse(compile(SimulateResponse)(sim)), sim);
  });
});
