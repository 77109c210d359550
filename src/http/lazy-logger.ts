import type { FastifyBaseLogger } from 'fastify';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * Fastify gives every request a child of the app's logger (`req.log`, bound to its request id).
 * pino makes a child by serialising and redacting its bindings, about a twentieth of the status
 * route's time (BENCHMARKS.md, "Status route, per stage"), for a logger most requests never write
 * to at the configured level. This factory hands out a stand-in that makes the child on the first
 * line actually written at an enabled level (or on `child`/`level`), so what is logged is the same.
 */
type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type Options = Parameters<FastifyBaseLogger['child']>[1];
/** The app's logger is pino's, which says whether a level is written. */
type Pino = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

export const lazyChildLogger = (logger: FastifyBaseLogger, bindings: Bindings, opts: Options): FastifyBaseLogger => {
  // A route with a log level of its own gets its child at once: the parent's level would not say what it writes.
  if (opts?.level) return logger.child(bindings, opts);
  let child: FastifyBaseLogger | undefined;
  const enabled = (level: Level): boolean => (logger as Pino).isLevelEnabled(level);
  const real = (): FastifyBaseLogger => (child ??= logger.child(bindings, opts));
  const at =
    (level: Level) =>
    (...args: unknown[]): void => {
      if (child || enabled(level)) (real()[level] as (...a: unknown[]) => void)(...args);
    };
  return {
    get level() {
      return real().level;
    },
    set level(value: string) {
      real().level = value;
    },
    isLevelEnabled: (level: Level) => enabled(level),
    fatal: at('fatal'),
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    trace: at('trace'),
    silent: () => undefined,
    child: (b: Bindings, o?: Options) => real().child(b, o),
  } as FastifyBaseLogger;
};
