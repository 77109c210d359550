import type { FastifyInstance } from 'fastify';
import type { Services } from '../../http/services.ts';
import { viewerAuth } from '../guard.ts';
import { render } from '../render.ts';

const DAYS = 30;
const CHART = { width: 720, height: 200, top: 16, bottom: 28, left: 40, right: 24 };

/** Bars of a daily series as SVG geometry (drawn by the template; no chart script needed). */
export function barChart(days: Array<{ day: string; requests: number }>) {
  const max = Math.max(1, ...days.map((d) => d.requests));
  const plot = CHART.height - CHART.top - CHART.bottom;
  const step = (CHART.width - CHART.left - CHART.right) / Math.max(1, days.length);
  const bars = days.map((d, i) => {
    const h = Math.round((d.requests / max) * plot);
    return { ...d, x: CHART.left + i * step + 1, y: CHART.top + plot - h, w: Math.max(1, step - 2), h, label: i % 5 === 0 || i === days.length - 1 };
  });
  return { ...CHART, max, bars, baseline: CHART.top + plot };
}

/** Usage: requests per day for the last 30 days, and each key's current rate-limit window. */
export function usagePages(s: Services) {
  return async (app: FastifyInstance) => {
    app.get('/usage', async (req, reply) => {
      const auth = viewerAuth(req);
      const days = await s.usage.daily(auth.accountId, DAYS);
      const keys = await s.accounts.listApiKeys(auth.accountId);
      const windows = await Promise.all(keys.map(async (k) => ({ key: k, window: await s.rateLimits.window(k.id, auth.tier) })));
      return render(req, reply, 'usage', {
        title: 'Usage',
        days,
        total: days.reduce((n, d) => n + d.requests, 0),
        chart: barChart(days),
        limit: s.rateLimits.limitFor(auth.tier),
        windows,
      });
    });
  };
}
