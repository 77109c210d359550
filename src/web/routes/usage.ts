import type { FastifyInstance } from 'fastify';
import type { UsageReport, UsageWindow } from '../../domain/usage-figures.ts';
import { DomainError } from '../../kernel/errors.ts';
import type { Services } from '../../http/services.ts';
import { viewerAuth } from '../guard.ts';
import { render } from '../render.ts';

const CHART = { width: 720, height: 200, top: 16, bottom: 28, left: 40, right: 24 };

/** Bars of a daily series as SVG geometry (drawn by the template; no chart script needed). */
export function barChart(days: Array<{ day: string; requests: number }>) {
  const max = Math.max(1, ...days.map((d) => d.requests));
  const plot = CHART.height - CHART.top - CHART.bottom;
  const step = (CHART.width - CHART.left - CHART.right) / Math.max(1, days.length);
  const every = Math.max(5, Math.ceil(days.length / 12));
  const bars = days.map((d, i) => {
    const h = Math.round((d.requests / max) * plot);
    return { ...d, x: CHART.left + i * step + 1, y: CHART.top + plot - h, w: Math.max(1, step - 2), h, label: i % every === 0 || i === days.length - 1 };
  });
  return { ...CHART, max, bars, baseline: CHART.top + plot };
}

/** The figures of one row of the page's table: outcomes and latency percentiles. */
const figures = (label: string, r: UsageReport) => ({
  label,
  success: r.successCount,
  errors: r.errorCount,
  p50: r.medianLatency.toFixed(1),
  p95: r.p95Latency.toFixed(1),
  p99: r.p99Latency.toFixed(1),
});

/**
 * Usage over a window of UTC days (default the last 30, `?from=&to=` as the API's `GET /usage`):
 * requests per day, each key's outcomes and latency percentiles, and each key's rate-limit window.
 */
export function usagePages(s: Services) {
  return async (app: FastifyInstance) => {
    app.get<{ Querystring: { from?: string; to?: string } }>('/usage', async (req, reply) => {
      const auth = viewerAuth(req);
      const asked = { from: req.query.from || undefined, to: req.query.to || undefined };
      let window: UsageWindow;
      let problem: string | null = null;
      try {
        window = s.usage.window(asked);
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        problem = err.message;
        window = s.usage.window({});
      }
      const days = await s.usage.daily(auth.accountId, window);
      const keys = await s.accounts.listApiKeys(auth.accountId);
      const windows = await Promise.all(keys.map(async (k) => ({ key: k, window: await s.rateLimits.window(k.id, auth.tier) })));
      const perKey = await Promise.all(
        keys.map(async (k) => figures(`${k.name ?? ''} ${k.prefix}`.trim(), await s.usage.report({ accountId: auth.accountId, apiKeyId: k.id }, window))),
      );
      const all = figures('All keys', await s.usage.report({ accountId: auth.accountId }, window));
      return render(
        req,
        reply,
        'usage',
        {
          title: 'Usage',
          window,
          problem,
          days,
          total: days.reduce((n, d) => n + d.requests, 0),
          chart: barChart(days),
          keyFigures: [...perKey, all],
          limit: s.rateLimits.limitFor(auth.tier),
          windows,
        },
        problem ? 400 : 200,
      );
    });
  };
}
