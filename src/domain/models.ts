import type { EngineRegistry, ResolvedModel } from '../engines/registry.ts';
import { MODEL_NAMES } from '../engines/registry.ts';
import { invalid } from '../kernel/errors.ts';

/**
 * The model and engine a request asked for (`selectedSimulationModel`), or the 400 why not: an
 * unknown name, or (with STRICT_MODELS) a model this server cannot run as itself.
 */
export function resolveModel(engines: EngineRegistry, strict: boolean, name: string | undefined): ResolvedModel {
  const resolved = engines.resolve(name);
  if (!resolved) {
    throw invalid('unknown_model', `Unknown simulation model "${name}".`, { field: 'selectedSimulationModel', allowed: [...MODEL_NAMES] });
  }
  if (strict && name && resolved.model !== name) {
    throw invalid('model_unavailable', `The model "${name}" is not configured on this server.`, {
      field: 'selectedSimulationModel',
      available: engines.list().filter((m) => m.available).map((m) => m.id),
    });
  }
  return resolved;
}
