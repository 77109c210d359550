import cliProgress from 'cli-progress';
import type { Panel } from '@mindsim/sdk';

export interface PanelProgress {
  update(panel: Panel): void;
  stop(): void;
}

const minds = (p: Panel) => `${p.mindsDone}/${p.minds} minds`;

/**
 * Progress of a panel on `stream` (stderr): on a TTY a bar of answers stored over answers expected;
 * otherwise a plain line when the status changes, and at most every `everyMs` while answers come in.
 */
export function panelProgress(stream: NodeJS.WriteStream = process.stderr, everyMs = 5_000, now = () => Date.now()): PanelProgress {
  if (!stream.isTTY) {
    let status = '';
    let done = -1;
    let at = 0;
    return {
      update(p) {
        const changed = p.status !== status || (p.done !== done && now() - at >= everyMs);
        if (!changed) return;
        stream.write(`panel ${p.id}: ${p.status}, ${p.done}/${p.total} answers, ${minds(p)}\n`);
        [status, done, at] = [p.status, p.done, now()];
      },
      stop: () => undefined,
    };
  }
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: 'panel |{bar}| {value}/{total} answers · {minds} · {status}',
      barsize: 30,
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      fps: 10,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(p) {
      const payload = { minds: minds(p), status: p.status };
      if (!started) {
        bar.start(Math.max(p.total, 1), p.done, payload);
        started = true;
        return;
      }
      if (bar.getTotal() !== Math.max(p.total, 1)) bar.setTotal(Math.max(p.total, 1));
      bar.update(p.done, payload);
    },
    stop: () => {
      if (started) bar.stop();
      started = false;
    },
  };
}
