import { z } from 'zod';
import { Id, PageQuery, Timestamp } from '../schemas.ts';

const Instant = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })])
  .describe('An ISO date (YYYY-MM-DD, UTC) or date-time (with Z or an offset)');

export const AuditQuery = PageQuery.extend({
  mindId: Id.optional().describe("Only this mind's rows (kept after the mind is deleted); 404 for a mind the account neither has nor has rows about"),
  from: Instant.optional().describe('From this time, included (a date: from its first moment)'),
  to: Instant.optional().describe('Until this time, included (a date: to its last moment)'),
});

export const AuditEntry = z
  .object({
    id: Id,
    at: Timestamp,
    actor: z.string().describe('`key:<API key id>`, `user:<account id>` (the dashboard), `operator` (the admin CLI) or `system` (a scheduled job)'),
    action: z
      .string()
      .describe(
        'What was done: mind.create, mind.read, mind.update, consent.change, mind.delete, mind.export, minds.list, minds.search, upload.create, ' +
          'snapshot.create, snapshot.read, snapshot.delete, profile.read, topics.read, psychometrics.read, simulate, simulations.list, simulation.read, ' +
          'simulation.delete, panel.create, panels.list, panel.read, panel.answers, panel.cancel, panel.delete, retention.erase…; a refused use (403) ends in `.denied`',
      ),
    mindId: Id.nullable().describe('The mind; null for an account-wide read (a list or search of minds)'),
    resourceId: Id.nullable().describe('The snapshot, simulation, panel or artifact, when there is one'),
    ip: z.string().nullable().describe('The client address (as TRUST_PROXY resolves it)'),
  })
  .meta({ id: 'AuditEntry' });

export const AuditList = z.object({ entries: z.array(AuditEntry).describe('Newest first') }).meta({ id: 'AuditList' });
