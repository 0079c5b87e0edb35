/**
 * docs/compatibility.md quotes the generated report's summary counts in prose ("89 supported, 8
 * supported with a difference", ...). Written by hand, they went stale when the report changed, so
 * the report's generator rewrites them and `--check` fails when they differ.
 */

export interface GuideCounts {
  operations: number;
  supported: number;
  withDifference: number;
  notSupported: number;
  added: number;
  resources: number;
  missing: number;
  compared: number;
}

/** The counts of a rendered report, read from its summary (the lines the generator writes). */
export function reportCounts(report: string): GuideCounts {
  const ops = /\n\| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|\n/.exec(report);
  const res = /\n\| (\d+) \| \d+ \| \d+ \| \d+ \| \d+ \| \d+ \| \d+ \|\n/.exec(report);
  const among =
    /Among the resources with a counterpart: (\d+) fields compared, \d+ matching, \d+ different, (\d+) missing/.exec(
      report,
    );
  if (!ops || !res || !among) throw new Error('compatibility report: summary counts not found');
  const n = (s: string | undefined) => Number(s);
  return {
    operations: n(ops[1]),
    supported: n(ops[2]),
    withDifference: n(ops[3]),
    notSupported: n(ops[4]),
    added: n(ops[5]),
    resources: n(res[1]),
    compared: n(among[1]),
    missing: n(among[2]),
  };
}

const thousands = (n: number) => n.toLocaleString('en-US');

/** Each quoted count: where it stands in the guide's prose, and its value. */
function replacements(c: GuideCounts): [RegExp, (m: string, ...g: string[]) => string][] {
  return [
    [
      /operations: \d+ in the reference; \d+ supported, \d+ supported with a difference/,
      () =>
        `operations: ${c.operations} in the reference; ${c.supported} supported, ${c.withDifference} supported with a difference`,
    ],
    [/\), \d+ not supported \(/, () => `), ${c.notSupported} not supported (`],
    [/ours adds \d+ \(/, () => `ours adds ${c.added} (`],
    [/resources: \d+ in the reference/, () => `resources: ${c.resources} in the reference`],
    [
      /\(\d+ missing(\s+)of [\d,]+ compared\)/,
      (_m, sp) => `(${c.missing} missing${sp}of ${thousands(c.compared)} compared)`,
    ],
  ];
}

/** The guide with its quoted counts set to `counts`; throws when a quoted count is not found. */
export function syncGuideCounts(guide: string, counts: GuideCounts): string {
  let out = guide;
  for (const [re, to] of replacements(counts)) {
    if (!re.test(out)) throw new Error(`docs/compatibility.md: no count matching ${re} to keep up to date`);
    out = out.replace(re, to as (m: string, ...g: string[]) => string);
  }
  return out;
}
