import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound } from '../../kernel/errors.ts';
import type { Services } from '../../http/services.ts';
import { viewerAuth } from '../guard.ts';
import { render } from '../render.ts';

const paramsOf = (req: FastifyRequest) => req.params as { mindId: string; simulationId: string };

/** A conversation of a mind: its messages, oldest first, and a link to continue it in the playground. */
export function conversationPages(s: Services) {
  return async (app: FastifyInstance) => {
    app.get('/minds/:mindId/conversations/:simulationId', async (req, reply) => {
      const auth = viewerAuth(req);
      const { mindId, simulationId } = paramsOf(req);
      const mind = await s.minds.get(auth, mindId);
      const { simulation, messages } = await s.simulations.get(auth, simulationId);
      if (simulation.mindId !== mind.id) throw notFound('The conversation', 'conversation_not_found');
      return render(req, reply, 'conversation', { title: `${simulation.title} · ${mind.name}`, mind, simulation, messages });
    });
  };
}
