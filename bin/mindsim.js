#!/usr/bin/env node
// The `mindsim` CLI without a build step: tsx compiles the TypeScript entry on the fly.
// Paths are relative to this file, so it runs from any working directory.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

// The project's tsconfig maps @mindsim/sdk to its TypeScript source (packages/sdk/src).
register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
await import('../src/cli/mindsim/main.ts');
