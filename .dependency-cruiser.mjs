/**
 * Which way dependencies point (`npm run deps`, part of `npm test`); docs/ARCHITECTURE.md draws it.
 * kernel ← domain ← http/web/mcp/jobs ← composition root; adapters (store, ingest, memory,
 * engines) depend on the kernel, ports and entities, never on domain services.
 */
export default {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'No import circles.', from: {}, to: { circular: true } },
    {
      name: 'kernel-is-the-bottom',
      severity: 'error',
      comment: 'The shared kernel (errors, runtime, paging) depends on nothing of ours.',
      from: { path: '^src/kernel/' },
      to: { path: '^src/', pathNot: '^src/kernel/' },
    },
    {
      name: 'adapters-not-to-domain-services',
      severity: 'error',
      comment: 'Adapters use ports and entities (snapshot, conversation, panel, correction, rate-limit store port, secrets, e-mail addresses), never domain services.',
      from: { path: '^src/(store|ingest|memory|engines)/' },
      to: { path: '^src/domain/', pathNot: '^src/domain/(snapshot|conversation|panel|correction|rate-limits|secrets|email)[.]ts$' },
    },
    {
      name: 'domain-not-to-delivery',
      severity: 'error',
      comment: 'The domain knows nothing of HTTP, pages, MCP, jobs or the composition root.',
      from: { path: '^src/domain/' },
      to: { path: '^src/(http|web|mcp|jobs|cli)/|^src/(composition|main)[.]ts$' },
    },
    {
      name: 'http-not-to-web',
      severity: 'error',
      comment: 'The API app does not know the dashboard: the composition root (main.ts) hands it its pages.',
      from: { path: '^src/http/' },
      to: { path: '^src/web/' },
    },
    {
      name: 'web-not-to-http-app',
      severity: 'error',
      comment: 'The dashboard uses the shared services, schemas and error mapping, never the API app itself.',
      from: { path: '^src/web/' },
      to: { path: '^src/http/(app|routes/)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
