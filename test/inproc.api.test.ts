/**
 * The in-process API suites (test/inproc/*.test.ts) in one test process: each file is its own
 * suite, with its own services, but the process starts once (the TypeScript loader, the modules,
 * wink-nlp), which is most of what a small test file costs. Each file still runs alone:
 * `node --conditions=mindsim-source --test test/inproc/api.minds.test.ts`.
 */
import { suites } from './support/suites.ts';

suites(import.meta.url, [
  'abuse.fuzz',
  'abuse.owasp',
  'abuse.inputs',
  'api.rate-limits',
  'api.snapshots',
  'api.profile',
  'api.uploads',
  'mcp',
  'api.status-cache',
  'api.schemas',
  'api.minds',
  'api.usage',
  'api.tags',
  'api.corrections',
  'api.corrections-answers',
  'api.corrections-llm',
  'api.simulations',
  'api.simulation-turns',
  'api.passages',
  'api.simulations-llm',
  'api.panels',
  'web.simulations',
  'web.panels',
  'api.snapshot-management',
  'api.psychometrics',
  'api.consent',
  'consent.queued',
  'memory-cache',
  'audit.routes',
  'audit.refusals',
  'accounts.lookalikes',
  'audit.api',
  'api.export',
  'retention',
]);
