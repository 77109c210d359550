/** The in-process store, ingest, memory and engine suites in one test process (see inproc.api.test.ts). */
import { suites } from './support/suites.ts';

suites(import.meta.url, [
  'uploads.contract',
  'scale.api',
  'analysis-pool',
  'ingest.vtt',
  'ingest.pdf',
  'store.contracts',
  'ingest.docx',
  'ingest.sniff',
  'profile',
  'engine.retrieval',
  'ingest.limits',
  'engine',
  'engine.fields',
  'engine.questions',
  'engine.llm-questions',
  'http.serializer',
  'memory',
  'evidence-times',
  'encoder',
  'search',
  'store.snapshot-management',
  'privacy.redact',
]);
