/**
 * Progress display for a multi-arm run: one cli-progress bar per arm on a TTY (step, proxy,
 * gold, KL, ETA); on a non-TTY (CI, logs) a plain line every 10% of an arm's steps.
 */
import cliProgress from 'cli-progress';
import type { ArmProgress } from './arm-runner.ts';

const fmt = (v: number | null) => (v === null || !Number.isFinite(v) ? '  -  ' : v.toFixed(3));

/** A display that arms report into. */
export class RunProgress {
  private multi: cliProgress.MultiBar | undefined;
  private bars = new Map<string, cliProgress.SingleBar>();
  private lastPrinted = new Map<string, number>();
  private stopped = false;
  /** Bars dropped by finish(): the multibar keeps redrawing (and flushing logs) after them. */
  private finished = 0;

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {
    if (stream.isTTY) {
      this.multi = new cliProgress.MultiBar(
        {
          format: '{arm} |{bar}| {value}/{total} proxy {proxy} gold {gold} kl {kl} | ETA {eta_formatted}',
          hideCursor: true,
          clearOnComplete: false,
          stream,
        },
        cliProgress.Presets.shades_classic,
      );
    }
  }

  update(p: ArmProgress): void {
    const payload = { arm: p.arm.padEnd(10), proxy: fmt(p.proxy), gold: fmt(p.gold), kl: fmt(p.kl) };
    if (this.multi) {
      let bar = this.bars.get(p.arm);
      if (!bar) {
        bar = this.multi.create(p.total, 0, payload);
        this.bars.set(p.arm, bar);
      }
      bar.update(p.step, payload);
      return;
    }
    const every = Math.max(1, Math.round(p.total / 10));
    const last = this.lastPrinted.get(p.arm) ?? 0;
    if (p.step - last >= every || p.step === p.total) {
      this.lastPrinted.set(p.arm, p.step);
      this.stream.write(`[${p.arm}] step ${p.step}/${p.total} proxy ${fmt(p.proxy)} gold ${fmt(p.gold)} kl ${fmt(p.kl)}\n`);
    }
  }

  /**
   * An arm has ended: drop its bar, so a long queue of arms (a sweep) shows one line per arm
   * still running. The non-TTY display printed its last line already.
   */
  finish(arm: string): void {
    const bar = this.bars.get(arm);
    if (!bar || !this.multi) return;
    this.multi.remove(bar);
    this.bars.delete(arm);
    this.finished++;
  }

  /** A log line that does not break the bars. */
  log(line: string): void {
    // The multibar holds log lines until its next redraw; before the first bar and after stop()
    // there is none, so it would hold them forever (and there are no bars to break).
    if (this.multi && this.bars.size + this.finished > 0 && !this.stopped)
      this.multi.log(line.endsWith('\n') ? line : line + '\n');
    else this.stream.write(line.endsWith('\n') ? line : line + '\n');
  }

  stop(): void {
    this.multi?.stop();
    this.stopped = true;
  }
}
