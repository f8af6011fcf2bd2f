// Progress on stderr: a redrawn bar with counts and ETA on a TTY, plain lines otherwise (CI, logs).
export interface ProgressEvent {
  phase: string;
  done: number;
  total: number;
}

const BAR_WIDTH = 24;
/** Plain-line mode prints at most one line per phase per this many percent. */
const PLAIN_STEP_PERCENT = 25;

export class ProgressReporter {
  private readonly tty: boolean;
  private readonly started = Date.now();
  private phaseStarted = Date.now();
  private phase = "";
  private lastPlainPercent = -1;

  constructor(
    private readonly label: string,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {
    this.tty = stream.isTTY === true;
  }

  update(event: ProgressEvent): void {
    if (event.phase !== this.phase) {
      this.phase = event.phase;
      this.phaseStarted = Date.now();
      this.lastPlainPercent = -1;
    }
    const percent = event.total > 0 ? Math.floor((100 * event.done) / event.total) : 100;
    if (this.tty) this.stream.write(`\r\x1b[2K${this.bar(event, percent)}`);
    else if (percent >= this.lastPlainPercent + PLAIN_STEP_PERCENT || (event.done === event.total && percent !== this.lastPlainPercent)) {
      this.lastPlainPercent = percent;
      this.stream.write(`${this.label}: ${event.phase} ${event.done}/${event.total}\n`);
    }
  }

  done(summary: string): void {
    if (this.tty) this.stream.write("\r\x1b[2K");
    this.stream.write(`${this.label}: ${summary} (${((Date.now() - this.started) / 1000).toFixed(1)} s)\n`);
  }

  private bar(event: ProgressEvent, percent: number): string {
    const filled = Math.round((BAR_WIDTH * percent) / 100);
    const elapsed = Date.now() - this.phaseStarted;
    const eta = event.done > 0 && event.done < event.total ? ` ETA ${Math.ceil((elapsed * (event.total - event.done)) / event.done / 1000)}s` : "";
    return `${this.label} ${event.phase.padEnd(9)} [${"#".repeat(filled)}${".".repeat(BAR_WIDTH - filled)}] ${event.done}/${event.total}${eta}`;
  }
}
