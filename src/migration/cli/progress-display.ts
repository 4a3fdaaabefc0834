import cliProgress from 'cli-progress';
import { describeProgressEvent, formatBytes } from '../describe-progress.js';
import type { MigrationProgressEvent } from '../types.js';

export interface ProgressDisplay {
  onProgress(event: MigrationProgressEvent): void;
  /** Stops any bar still drawn (before printing the summary or an error). */
  stop(): void;
}

/** Progress bars (cli-progress) for a terminal. */
function barDisplay(stream: NodeJS.WritableStream): ProgressDisplay {
  let bar: cliProgress.SingleBar | undefined;
  let phase: MigrationProgressEvent['phase'] | undefined;
  const stop = () => {
    bar?.stop();
    bar = undefined;
  };
  const open = (format: string, total: number, payload: object) => {
    stop();
    bar = new cliProgress.SingleBar(
      { format, stream, hideCursor: true, fps: 10, formatValue: (value) => value.toLocaleString('en-US') },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, payload);
  };
  return {
    onProgress(event) {
      if (event.phase === 'building_json') {
        if (phase !== 'building_json')
          open('building  [{bar}] {percentage}% | {value}/{total} entries', event.total, {});
        bar?.setTotal(event.total);
        bar?.update(event.processed);
      } else if (event.phase === 'uploading_json') {
        const label = { size: formatBytes(event.fileSize), attempt: event.attempt };
        if (phase !== 'uploading_json') open('uploading [{bar}] {percentage}% | {size} (attempt {attempt})', 1, label);
        bar?.update(0, label);
      } else if (event.phase === 'completed') {
        if (phase === 'uploading_json') bar?.update(1);
        stop();
      } else {
        stop();
        stream.write(`${describeProgressEvent(event)}\n`);
      }
      phase = event.phase;
    },
    stop,
  };
}

/** Plain lines for logs and CI: a line per 10% while building, one per upload attempt. */
function lineDisplay(stream: NodeJS.WritableStream): ProgressDisplay {
  let lastTenth = -1;
  return {
    onProgress(event) {
      if (event.phase === 'building_json') {
        const tenth = event.total === 0 ? 10 : Math.floor((event.processed / event.total) * 10);
        if (tenth === lastTenth) return;
        lastTenth = tenth;
      }
      if (event.phase === 'completed') return;
      stream.write(`${describeProgressEvent(event)}\n`);
    },
    stop: () => {},
  };
}

export function createProgressDisplay(stream: NodeJS.WritableStream & { isTTY?: boolean }): ProgressDisplay {
  return stream.isTTY ? barDisplay(stream) : lineDisplay(stream);
}
