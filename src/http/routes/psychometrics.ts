import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../plugins/auth.ts';
import { MindParams, SnapshotParams, errorResponses } from '../schemas.ts';
import { Psychometrics, Topics } from '../schemas/snapshots.ts';
import type { Services } from '../services.ts';

const PSYCHOMETRICS =
  "Linguistic markers of the person's own words (certainty vs hedging, sentiment, I vs we, question rate, talkativeness), each with its value, " +
  'how it is computed, the words it rests on and example sentences: measurements, not personality scores. With a language model configured ' +
  'when the snapshot was processed, also its Big Five estimates and the expert reflections’ judgements, each with the statements it rests on, ' +
  'labelled `llm_estimate`.';
const TOPICS = 'The topics of the persona profile (noun phrases the person talks about), each with its mentions, affect, stances and passages as evidence.';

/** Psychometrics and topic analysis of one completed snapshot, or of a mind (its linked completed snapshots). */
export const psychometricsRoutes =
  (s: Services): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['psychometrics and topics'];
    app.get(
      '/minds/:mindId/snapshots/:snapshotId/psychometrics',
      { schema: { tags, summary: 'Psychometrics of a snapshot', description: PSYCHOMETRICS, params: SnapshotParams, response: { 200: Psychometrics, ...errorResponses(400, 401, 404, 409) } } },
      (req) => s.psychometrics.ofSnapshot(authOf(req), req.params.mindId, req.params.snapshotId),
    );
    app.get(
      '/minds/:mindId/snapshots/:snapshotId/topics',
      { schema: { tags, summary: 'Topic analysis of a snapshot', description: TOPICS, params: SnapshotParams, response: { 200: Topics, ...errorResponses(400, 401, 404, 409) } } },
      (req) => s.profiles.snapshotTopics(authOf(req), req.params.mindId, req.params.snapshotId),
    );
    app.get(
      '/minds/:mindId/psychometrics',
      { schema: { tags, summary: 'Psychometrics of a mind, over its linked completed snapshots', description: PSYCHOMETRICS, params: MindParams, response: { 200: Psychometrics, ...errorResponses(400, 401, 404, 409) } } },
      (req) => s.psychometrics.ofMind(authOf(req), req.params.mindId),
    );
    app.get(
      '/minds/:mindId/topics',
      { schema: { tags, summary: 'Topic analysis of a mind, over its linked completed snapshots', description: TOPICS, params: MindParams, response: { 200: Topics, ...errorResponses(400, 401, 404, 409) } } },
      (req) => s.profiles.topics(authOf(req), req.params.mindId),
    );
  };
