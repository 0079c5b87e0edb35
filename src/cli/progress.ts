/**
 * Progress of a long command-line step, on stderr (stdout stays the command's JSON result).
 * On a terminal: one line redrawn in place, a spinner and the elapsed time, replaced by the outcome.
 * Otherwise (CI, a pipe, a log file): one plain line when the step starts or changes, one when it ends.
 */

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface Step {
  /** Says what the step is doing now (a new line when not on a terminal). */
  update(text: string): void;
  /** Ends the step with its outcome. */
  done(text: string): void;
  /** Ends the step without an outcome line (the error is reported by the caller). */
  fail(): void;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export function startStep(text: string, stream: NodeJS.WriteStream = process.stderr): Step {
  const started = Date.now();
  let current = text;
  if (!stream.isTTY) {
    stream.write(`${text}\n`);
    return {
      update(t) {
        current = t;
        stream.write(`${t}\n`);
      },
      done(t) {
        stream.write(`${t} (${seconds(Date.now() - started)})\n`);
      },
      fail() {},
    };
  }
  let frame = 0;
  const draw = () => {
    stream.write(`\r${FRAMES[frame % FRAMES.length]} ${current}  ${seconds(Date.now() - started)}\x1b[K`);
    frame += 1;
  };
  draw();
  const timer = setInterval(draw, 100);
  timer.unref();
  return {
    update(t) {
      current = t;
      draw();
    },
    done(t) {
      clearInterval(timer);
      stream.write(`\r✔ ${t} (${seconds(Date.now() - started)})\x1b[K\n`);
    },
    fail() {
      clearInterval(timer);
      stream.write(`\r✖ ${current}\x1b[K\n`);
    },
  };
}
