import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DEFAULT_MODEL } from '../../engines/registry.ts';
import { invalid } from '../../kernel/errors.ts';
import { EventStream } from '../event-stream.ts';
import { authOf } from '../plugins/auth.ts';
import { ModelsResponse, SimulateBody, SimulateResponse, errorResponses } from '../schemas.ts';
import { QueuedSimulation } from '../schemas/simulations.ts';
import type { Services } from '../services.ts';

const STREAM_NOTE =
  'With `stream: true` the answer is `text/event-stream`: `start` {simulationId, conversationId, model}, then the answer as it is ' +
  'composed (`part` {field, text} per analysis field and `evidence` {evidence} from mind-reasoner-standard; `evidence`, then `delta` ' +
  '{field: "saying", text} per batch of tokens from mind-reasoner-pro), then `result` with the body of the synchronous answer, or ' +
  '`error` with the error body (and its HTTP `status`). Errors found before the answer starts (validation, unknown ids, no completed ' +
  'snapshot) are plain JSON errors with their status. With `runInBackground: true` the answer is at once `{simulationId, ' +
  'conversationId, status: "queued", message: "Simulation queued"}`: GET /simulations/{simulationId} shows the status and, once ' +
  'completed, the answer as its last message.';

export const simulateRoutes =
  (s: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/simulate',
      {
        schema: {
          tags: ['simulation'],
          summary: 'Simulate how the person behind a mind would think, feel, say and act in a scenario',
          description: STREAM_NOTE,
          body: SimulateBody,
          response: { 200: z.union([SimulateResponse, QueuedSimulation]), ...errorResponses(400, 401, 404, 409) },
        },
      },
      async (req, reply) => {
        const auth = authOf(req);
        const { stream, runInBackground, ...request } = req.body;
        if (stream && runInBackground) throw invalid('incompatible_options', 'Choose stream or runInBackground, not both.', { fields: ['stream', 'runInBackground'] });
        if (runInBackground) return s.simulation.enqueue(auth, request);
        if (!stream) return s.simulation.simulate(auth, request);
        // Everything a request can be refused for is checked before the stream starts: those errors keep their status.
        const turn = await s.simulation.prepare(auth, request);
        const events = new EventStream();
        events.send('start', { simulationId: turn.simulationId, conversationId: turn.simulationId, model: turn.resolved.model });
        s.simulation.answer(turn, ({ kind, ...part }) => events.send(kind, part)).then(
          (result) => {
            events.send('result', result);
            events.end();
          },
          (err: unknown) => events.fail(err, reply),
        );
        return events.open(reply);
      },
    );

    app.get(
      '/models',
      { schema: { tags: ['simulation'], summary: 'List the simulation models', response: { 200: ModelsResponse, ...errorResponses(401) } } },
      () => s.simulation.models().map((m) => ({ ...m, default: m.id === DEFAULT_MODEL })),
    );
  };
