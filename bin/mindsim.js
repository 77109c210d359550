#!/usr/bin/env node
// The `mindsim` CLI without a build step: Node.js (22.18 or later) runs the TypeScript entry as it
// is, its types stripped. The CLI uses the SDK of this repository from its source
// (packages/sdk/src, the package's `mindsim-source` export condition), not from a build of it.
// Paths are relative to this file, so it runs from any working directory.
import { registerHooks } from 'node:module';

registerHooks({
  resolve: (specifier, context, nextResolve) =>
    nextResolve(specifier, specifier === '@mindsim/sdk' ? { ...context, conditions: [...context.conditions, 'mindsim-source'] } : context),
});
await import('../src/cli/mindsim/main.ts');
