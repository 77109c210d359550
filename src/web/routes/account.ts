import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DomainError } from '../../kernel/errors.ts';
import { MIN_PASSWORD } from '../../domain/logins.ts';
import type { Services } from '../../http/services.ts';
import { STATUS } from '../../http/plugins/errors.ts';
import { viewerAuth } from '../guard.ts';
import { render } from '../render.ts';

const PasswordChange = z.object({ current: z.string().max(1024).default(''), password: z.string().max(1024).default('') });

/** The account: email, tier, and a password change that ends every other session. */
export function accountPages(s: Services, attempts: { max: number; timeWindow: number }) {
  return async (app: FastifyInstance) => {
    const page = { title: 'Account', minPassword: MIN_PASSWORD };

    app.get('/account', async (req, reply) => {
      viewerAuth(req);
      return render(req, reply, 'account', page);
    });

    // Limited like log-in: the form would otherwise let a borrowed session guess the password.
    app.post('/account/password', { config: { rateLimit: attempts } }, async (req, reply) => {
      const auth = viewerAuth(req);
      const { current, password } = PasswordChange.parse(req.body ?? {});
      try {
        await s.logins.confirmPassword(auth.accountId, current);
        await s.logins.setPassword(auth.accountId, password); // ends every session of the account…
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        const message = err.code === 'wrong_credentials' ? 'The current password is wrong.' : err.message;
        return render(req, reply, 'account', { ...page, error: message }, err.code === 'wrong_credentials' ? 400 : STATUS[err.kind]);
      }
      await req.session.regenerate(); // …and this browser continues in a new one
      req.session.accountId = auth.accountId;
      return render(req, reply, 'account', { ...page, changed: true });
    });
  };
}
