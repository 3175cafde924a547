const WIDTH = 24;
/** At most this often: a terminal redrawn for each of thousands of small files slows the work down. */
const REDRAW_MS = 100;

/**
 * A one-line progress bar on standard error, drawn only when standard error is a terminal (a log
 * file or a pipe would fill with partial lines). `done()` clears the line so that what follows
 * starts on a clean one.
 */
export class ProgressBar {
  private readonly enabled = process.stderr.isTTY === true;
  private drawnAt = 0;
  private shown = false;

  constructor(
    private label: string,
    private total: number,
  ) {}

  /** Another stage with its own count, on the same line. */
  restart(label: string, total: number): void {
    this.label = label;
    this.total = total;
    this.drawnAt = 0;
  }

  update(done: number, detail = ''): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (done < this.total && now - this.drawnAt < REDRAW_MS) return;
    this.drawnAt = now;
    const filled = this.total === 0 ? WIDTH : Math.round((done / this.total) * WIDTH);
    const line = `${this.label} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${done}/${this.total}${detail ? `  ${detail}` : ''}`;
    // A terminal of unknown size (a pty without a window) says 0 columns.
    const columns = process.stderr.columns || 80;
    process.stderr.write(`\r${line.slice(0, columns - 1)}\x1b[K`);
    this.shown = true;
  }

  done(): void {
    if (this.shown) process.stderr.write('\r\x1b[K');
    this.shown = false;
  }
}
