import { parse } from 'csv-parse/sync';
import type { LoadProblems } from './util.ts';
import { stripBom } from './util.ts';

export interface CsvOptions {
  delimiter?: string;
  /** Label used in error messages, e.g. 'sdn.csv'. */
  label: string;
  fromLine?: number;
}

/**
 * Parse CSV text into string rows. Records csv-parse cannot read (bad quoting and the like) are
 * skipped and counted as malformed instead of aborting the whole file.
 */
export function parseCsvRows(text: string, problems: LoadProblems, options: CsvOptions): string[][] {
  try {
    // Legacy OFAC files may end with a DOS end-of-file character (0x1A): not a record.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: DOS EOF marker
    return parse(stripBom(text).replace(/\x1a\s*$/, ''), {
      delimiter: options.delimiter ?? ',',
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      from_line: options.fromLine ?? 1,
      on_skip: (err) => {
        problems.bad(`${options.label}: ${err?.message ?? 'unreadable record'}`);
        return undefined;
      },
    }) as string[][];
  } catch (err) {
    problems.bad(`${options.label}: ${(err as Error).message}`);
    return [];
  }
}
