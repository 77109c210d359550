import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DomainError } from '../../kernel/errors.ts';
import { MIN_PASSWORD, type Account } from '../../domain/logins.ts';
import type { Services } from '../../http/services.ts';
import { STATUS } from '../../http/plugins/errors.ts';
import { render } from '../render.ts';

const Credentials = z.object({ email: z.string().max(320).default(''), password: z.string().max(1024).default(''), next: z.string().optional() });

/** Only local paths are followed after log-in (no open redirect). */
const safeNext = (next: string | undefined) => (next && /^\/(?!\/)[\w\-/.?=&%]*$/.test(next) ? next : '/minds');

async function startSession(req: FastifyRequest, account: Account): Promise<void> {
  await req.session.regenerate(); // a new id at log-in: no session fixation
  req.session.accountId = account.id;
}

function formError(req: FastifyRequest, reply: FastifyReply, view: string, err: unknown, email: string, next?: string) {
  if (!(err instanceof DomainError)) throw err;
  return render(req, reply, view, { error: err.message, email, next, minPassword: MIN_PASSWORD }, STATUS[err.kind]);
}

/** Sign-up, log-in and log-out. */
export function authPages(s: Services, attempts: { max: number; timeWindow: number }) {
  return async (app: FastifyInstance) => {
    app.get('/', async (req, reply) => reply.redirect(req.viewer ? '/minds' : '/login'));

    app.get('/signup', async (req, reply) =>
      req.viewer ? reply.redirect('/minds') : render(req, reply, 'signup', { minPassword: MIN_PASSWORD }),
    );
    app.post('/signup', { config: { rateLimit: attempts } }, async (req, reply) => {
      const { email, password } = Credentials.parse(req.body ?? {});
      try {
        await startSession(req, await s.logins.signUp(email, password));
      } catch (err) {
        return formError(req, reply, 'signup', err, email);
      }
      return reply.redirect('/keys', 303);
    });

    app.get('/login', async (req, reply) => {
      const next = (req.query as { next?: string }).next;
      return req.viewer ? reply.redirect(safeNext(next)) : render(req, reply, 'login', { next });
    });
    app.post('/login', { config: { rateLimit: attempts } }, async (req, reply) => {
      const { email, password, next } = Credentials.parse(req.body ?? {});
      try {
        await startSession(req, await s.logins.logIn(email, password));
      } catch (err) {
        return formError(req, reply, 'login', err, email, next);
      }
      return reply.redirect(safeNext(next), 303);
    });

    app.post('/logout', async (req, reply) => {
      await req.session.destroy();
      return reply.redirect('/login', 303);
    });
  };
}
