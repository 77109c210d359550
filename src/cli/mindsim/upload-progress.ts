import cliProgress from 'cli-progress';

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[u]}`;
}

export interface UploadProgress {
  update(sentBytes: number): void;
  stop(): void;
}

const silent: UploadProgress = { update: () => undefined, stop: () => undefined };

/** A byte progress bar for one upload on `stream` (stderr); nothing at all when it is not a TTY. */
export function uploadProgress(fileName: string, size: number, stream: NodeJS.WriteStream = process.stderr): UploadProgress {
  if (!stream.isTTY) return silent;
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: '{file} |{bar}| {percentage}% {sent} / {size}',
      barsize: 30,
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      fps: 20,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(Math.max(size, 1), 0, { file: fileName, sent: formatBytes(0), size: formatBytes(size) });
  return {
    update: (sent) => bar.update(sent, { sent: formatBytes(sent) }),
    stop: () => bar.stop(),
  };
}
