import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AuthContext } from '../../domain/accounts.ts';
import { DomainError } from '../../kernel/errors.ts';
import type { Services } from '../../http/services.ts';
import { viewerAuth } from '../guard.ts';
import { render } from '../render.ts';

const UploadRequest = z.object({
  fileName: z.string().trim().min(1).max(255).optional(),
  contentType: z.string().trim().max(255).optional(),
});
const StartSnapshot = z.object({
  artifactId: z.uuid(),
  speaker: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().min(1).max(200).optional()),
});
const Scenario = z.object({
  message: z.string().trim().min(1).max(20_000),
  model: z.enum(['mind-reasoner-standard', 'mind-reasoner-pro']).default('mind-reasoner-standard'),
});

const mindIdOf = (req: FastifyRequest) => (req.params as { mindId: string }).mindId;
const FINAL = new Set(['completed', 'failed']);

async function snapshotsView(s: Services, auth: AuthContext, mindId: string) {
  const page = await s.snapshots.list(auth, mindId, 50);
  return { snapshots: page.items, live: page.items.some((x) => !FINAL.has(x.status)), mindId };
}

/** The profile, or null while no snapshot has completed. */
async function profileOf(s: Services, auth: AuthContext, mindId: string) {
  try {
    return await s.profiles.profile(auth, mindId);
  } catch (err) {
    if (err instanceof DomainError && err.code === 'snapshot_not_ready') return null;
    throw err;
  }
}

/**
 * One mind: its snapshots with live status, their conversation dates and a delete button, upload
 * through the signed-URL flow (the browser PUTs the file straight to the signed URL, with
 * progress), the persona profile, and a playground.
 */
export function mindDetailPages(s: Services) {
  return async (app: FastifyInstance) => {
    app.get('/minds/:mindId', async (req, reply) => {
      const auth = viewerAuth(req);
      const mind = await s.minds.get(auth, mindIdOf(req));
      return render(req, reply, 'mind', {
        title: mind.name,
        mind,
        ...(await snapshotsView(s, auth, mind.id)),
        profile: await profileOf(s, auth, mind.id),
        models: s.simulation.models(),
      });
    });

    /** The snapshot list alone: htmx polls it while a snapshot is pending or processing. */
    app.get('/minds/:mindId/snapshots', async (req, reply) => {
      const auth = viewerAuth(req);
      return render(req, reply, 'partials/snapshots', await snapshotsView(s, auth, mindIdOf(req)));
    });

    app.get('/minds/:mindId/profile', async (req, reply) => {
      const auth = viewerAuth(req);
      return render(req, reply, 'partials/profile', { profile: await profileOf(s, auth, mindIdOf(req)), mindId: mindIdOf(req) });
    });

    /** Step 1 of an upload (JSON, for the page's script): a signed URL for this mind. */
    app.post('/minds/:mindId/uploads', async (req) => {
      const auth = viewerAuth(req);
      const opts = UploadRequest.parse(req.body ?? {});
      return s.uploads.createSignedUrl(auth, mindIdOf(req), opts);
    });

    /** Step 3: once the bytes are at the signed URL, start the snapshot from the artifact. */
    app.post('/minds/:mindId/snapshots', async (req) => {
      const auth = viewerAuth(req);
      const { artifactId, speaker } = StartSnapshot.parse(req.body ?? {});
      return s.snapshots.createFromArtifact(auth, mindIdOf(req), artifactId, { speaker });
    });

    /** Deletes one snapshot (the form asks for confirmation first), then back to the mind. */
    app.post('/minds/:mindId/snapshots/:snapshotId/delete', async (req, reply) => {
      const auth = viewerAuth(req);
      const { snapshotId } = req.params as { snapshotId: string };
      await s.snapshots.delete(auth, mindIdOf(req), snapshotId);
      return reply.redirect(`/minds/${mindIdOf(req)}`, 303);
    });

    app.post('/minds/:mindId/simulate', async (req, reply) => {
      const auth = viewerAuth(req);
      const { message, model } = Scenario.parse(req.body ?? {});
      const result = await s.simulation.simulate(auth, { mindId: mindIdOf(req), selectedSimulationModel: model, scenario: { message } });
      return render(req, reply, 'partials/simulation', { result, scenario: message });
    });
  };
}
