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
  /** The playground's current conversation (empty: a new one). */
  conversationId: z.preprocess((v) => (v === '' ? undefined : v), z.uuid().optional()),
});
/** `?conversation=<id>`: the playground continues that conversation (ignored unless it is this mind's). */
const PlaygroundQuery = z.object({ conversation: z.uuid().optional().catch(undefined) });
const CONVERSATIONS_SHOWN = 20;
const CORRECTIONS_SHOWN = 50;

/** The tags form: names separated by commas (empty: no tags). */
const TagsForm = z.object({
  tags: z
    .string()
    .max(6000)
    .default('')
    .transform((v) => v.split(',').map((n) => n.trim()).filter((n) => n.length > 0)),
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

const conversationsOf = (s: Services, auth: AuthContext, mindId: string) => s.simulations.list(auth, { mindId, limit: CONVERSATIONS_SHOWN, offset: 0 });

/** The conversation the playground continues: the one asked for, if it is this mind's. */
async function playgroundConversation(s: Services, auth: AuthContext, mindId: string, query: unknown): Promise<string | undefined> {
  const { conversation } = PlaygroundQuery.parse(query ?? {});
  if (!conversation) return undefined;
  try {
    return (await s.simulations.get(auth, conversation)).simulation.mindId === mindId ? conversation : undefined;
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'not_found') return undefined;
    throw err;
  }
}

/**
 * One mind: its snapshots with live status, their conversation dates and a delete button, upload
 * through the signed-URL flow (the browser PUTs the file straight to the signed URL, with
 * progress), the persona profile, a playground that keeps one conversation going, and the mind's
 * conversations.
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
        conversations: await conversationsOf(s, auth, mind.id),
        conversationId: await playgroundConversation(s, auth, mind.id, req.query),
        requireConsent: (await s.privacy.get(auth)).requireConsent,
        consentExpired: s.minds.consentExpired(mind),
        corrections: await s.corrections.list(auth, mind.id, CORRECTIONS_SHOWN),
        reviewLinks: await s.reviewLinks.list(auth, mind.id),
      });
    });

    /** The owner sets the mind's tags (exactly those named; missing tags are made). */
    app.post('/minds/:mindId/tags', async (req, reply) => {
      const auth = viewerAuth(req);
      const { tags } = TagsForm.parse(req.body ?? {});
      await s.minds.setTags(auth, mindIdOf(req), tags);
      return reply.redirect(`/minds/${mindIdOf(req)}`, 303);
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
      const { message, model, conversationId } = Scenario.parse(req.body ?? {});
      const mindId = mindIdOf(req);
      const result = await s.simulation.simulate(auth, { mindId, selectedSimulationModel: model, scenario: { message }, conversationId });
      // The answer, and out of band: the form's conversation (the next question continues it) and the list of conversations.
      return render(req, reply, 'partials/simulation', { result, scenario: message, mindId, conversations: await conversationsOf(s, auth, mindId) });
    });
  };
}
