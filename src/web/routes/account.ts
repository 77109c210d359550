import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DomainError } from '../../kernel/errors.ts';
import type { AuthContext } from '../../domain/accounts.ts';
import { MIN_PASSWORD } from '../../domain/logins.ts';
import type { Services } from '../../http/services.ts';
import { STATUS } from '../../http/plugins/errors.ts';
import { viewerAuth } from '../guard.ts';
import { render } from '../render.ts';

const PasswordChange = z.object({ current: z.string().max(1024).default(''), password: z.string().max(1024).default('') });
/** The privacy form: the checkbox is sent only when ticked; an empty number keeps everything. */
const PrivacyForm = z.object({
  requireConsent: z.string().optional().transform((v) => v === 'on' || v === 'true'),
  retentionDays: z
    .string()
    .max(10)
    .default('')
    .transform((v) => (v.trim() === '' ? null : Number(v.trim()))),
});

/** The account: email, tier, and a password change that ends every other session. */
export function accountPages(s: Services, attempts: { max: number; timeWindow: number }) {
  return async (app: FastifyInstance) => {
    const page = { title: 'Account', minPassword: MIN_PASSWORD };

    const withPrivacy = async (auth: AuthContext) => ({ ...page, privacy: await s.privacy.get(auth) });

    app.get('/account', async (req, reply) => {
      return render(req, reply, 'account', await withPrivacy(viewerAuth(req)));
    });

    /** requireConsent and retentionDays (issue 25). */
    app.post('/account/privacy', async (req, reply) => {
      const auth = viewerAuth(req);
      const { requireConsent, retentionDays } = PrivacyForm.parse(req.body ?? {});
      try {
        await s.privacy.update(auth, { requireConsent, retentionDays });
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        return render(req, reply, 'account', { ...(await withPrivacy(auth)), privacyError: err.message }, STATUS[err.kind]);
      }
      return render(req, reply, 'account', { ...(await withPrivacy(auth)), privacySaved: true });
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
        return render(req, reply, 'account', { ...(await withPrivacy(auth)), error: message }, err.code === 'wrong_credentials' ? 400 : STATUS[err.kind]);
      }
      await req.session.regenerate(); // …and this browser continues in a new one
      req.session.accountId = auth.accountId;
      return render(req, reply, 'account', { ...(await withPrivacy(auth)), changed: true });
    });
  };
}
