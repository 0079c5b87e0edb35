/**
 * `vericase data pull | status`: the reference-data commands (src/screening/service/pull.ts).
 * Progress goes to stderr (a bar per file on a terminal, one line per finished file otherwise);
 * the result is printed as JSON on stdout.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '../config.ts';
import {
  currentVersion,
  PullError,
  type PullProgress,
  pullReferenceData,
  verifyChecksums,
} from '../screening/service/pull.ts';
import { directoryProblem, pulledReferenceRoot } from '../screening/service/reference-dir.ts';

const USAGE = `Usage:
  vericase data pull [--keep N]   download the official sanctions lists into $DATA_DIR/reference/<version>/
  vericase data status            show the current pulled version and verify its checksums
`;

function size(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} kB`;
}

/** Renders one file's progress line: `[3/7] ofac sdn.csv  [#######---------]  44%  1.2 MB / 2.7 MB`. */
export function progressLine(p: PullProgress, width = 24): string {
  const label = `[${p.index + 1}/${p.count}] ${p.file.label}`.padEnd(30);
  if (p.total) {
    const ratio = Math.min(1, p.received / p.total);
    const filled = Math.round(ratio * width);
    return `${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(ratio * 100)).padStart(3)}%  ${size(p.received)} / ${size(p.total)}`;
  }
  return `${label} [${'.'.repeat(width)}]       ${size(p.received)}`;
}

function progressRenderer(stream: NodeJS.WriteStream) {
  let last = 0;
  return (p: PullProgress) => {
    if (stream.isTTY) {
      const now = Date.now();
      if (!p.done && now - last < 100) return;
      last = now;
      stream.write(`\r${progressLine(p)}\x1b[K${p.done ? '\n' : ''}`);
    } else if (p.done) {
      stream.write(`${progressLine(p)}\n`);
    }
  };
}

export async function dataCommand(sub: string | undefined, args: string[], config: Config): Promise<number> {
  if (sub === 'pull') {
    const { values } = parseArgs({ args, options: { keep: { type: 'string' } } });
    const keep = values.keep === undefined ? 3 : Number(values.keep);
    if (!Number.isInteger(keep) || keep < 1) {
      process.stderr.write(`--keep must be a positive integer\n\n${USAGE}`);
      return 2;
    }
    process.stderr.write(
      `Downloading the official sanctions lists into ${pulledReferenceRoot(config.dataDir)}\n`,
    );
    try {
      const result = await pullReferenceData({
        dataDir: config.dataDir,
        keep,
        onProgress: progressRenderer(process.stderr),
      });
      process.stderr.write(
        result.status === 'unchanged'
          ? `The lists are unchanged: ${result.version} stays current.\n`
          : `Switched to ${result.version}. Running services pick it up within VERICASE_SCREENING_WATCH_SECONDS (or at once with POST /admin/screening/reload when VERICASE_ADMIN_TOKEN is set)${config.referenceDir ? '; note: VERICASE_REFERENCE_DIR is set, so services read that directory instead' : ''}.\n`,
      );
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return 0;
    } catch (err) {
      if (process.stderr.isTTY) process.stderr.write('\n');
      if (err instanceof PullError) {
        process.stderr.write(`data pull failed: ${err.message}\n`);
        return 1;
      }
      throw err;
    }
  }
  if (sub === 'status') {
    const version = await currentVersion(config.dataDir);
    if (!version) {
      // with VERICASE_REFERENCE_DIR the lists come from there: no pulled version is then no fault,
      // unless that directory cannot be read (the service answers /readyz 503 for it)
      const problem = config.referenceDir ? directoryProblem(config.referenceDir) : null;
      const message = !config.referenceDir
        ? 'No pulled version: run `vericase data pull`, or set VERICASE_REFERENCE_DIR'
        : problem
          ? `No list can be read: VERICASE_REFERENCE_DIR (${config.referenceDir}) ${problem}, and no version was pulled`
          : `No pulled version: the lists are read from VERICASE_REFERENCE_DIR (${config.referenceDir})`;
      process.stdout.write(
        `${JSON.stringify({ current: null, reference_dir: config.referenceDir, message }, null, 2)}\n`,
      );
      return config.referenceDir && !problem ? 0 : 1;
    }
    const dir = join(pulledReferenceRoot(config.dataDir), version);
    const check = await verifyChecksums(dir);
    process.stdout.write(
      `${JSON.stringify({ current: version, dir, checksums_ok: check.ok, problems: check.problems, reference_dir_override: config.referenceDir }, null, 2)}\n`,
    );
    return check.ok ? 0 : 1;
  }
  process.stderr.write(USAGE);
  return 2;
}
