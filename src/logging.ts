/**
 * How the service's log lines read. JSON (pino's own lines) for files, containers and log
 * shippers; pretty (pino-pretty: one line per event with its time, level and message) for a person
 * at a terminal. LOG_FORMAT decides; unset, a terminal on stdout gets pretty and anything else JSON.
 */
import type { DestinationStream } from 'pino';

export type LogFormat = 'json' | 'pretty';

/** The format in force: the configured one, else pretty on a terminal and JSON elsewhere. */
export function logFormat(configured: LogFormat | undefined, stdoutIsTTY = process.stdout.isTTY === true): LogFormat {
  return configured ?? (stdoutIsTTY ? 'pretty' : 'json');
}

/** Fastify's request lines read as `GET /minds (incoming request)` and `201 in 12 ms (request completed)`. */
export function prettyMessage(log: Record<string, unknown>, messageKey: string): string {
  const msg = String(log[messageKey] ?? '');
  const req = log.req as { method?: string; url?: string } | undefined;
  const res = log.res as { statusCode?: number } | undefined;
  if (req?.method) return `${req.method} ${req.url ?? ''} (${msg})`;
  if (res?.statusCode !== undefined && typeof log.responseTime === 'number') {
    return `${res.statusCode} in ${Math.round(log.responseTime)} ms (${msg})`;
  }
  return msg;
}

/**
 * Where pino writes in that format: undefined for JSON (pino's own stdout destination), else a
 * pino-pretty stream to stdout, written synchronously so the last lines before an exit are not lost.
 * pino-pretty is loaded only when asked for. Redaction and serializers apply before either.
 */
export async function logDestination(format: LogFormat): Promise<DestinationStream | undefined> {
  if (format === 'json') return undefined;
  const { default: pretty } = await import('pino-pretty');
  return pretty({
    sync: true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,req,res,responseTime',
    messageFormat: prettyMessage,
  });
}
