/**
 * The current FCDO "UK Sanctions List" CSV layout (`UK-Sanctions-List.csv`): a `Report Date:` line, then
 * this 58-column header, then one line per name (and per address) of each entry, grouped by Unique ID.
 * The rows the tests build are invented; the header is the publisher's.
 */
export const FCDO_UK_HEADER = [
  'Last Updated',
  'Unique ID',
  'OFSI Group ID',
  'UN Reference Number',
  'Name 6',
  'Name 1',
  'Name 2',
  'Name 3',
  'Name 4',
  'Name 5',
  'Name type',
  'Alias strength',
  'Title',
  'Name non-latin script',
  'Non-latin script type',
  'Non-latin script language',
  'Regime Name',
  'Designation Type',
  'Designation source',
  'Sanctions Imposed',
  'Other Information',
  'UK Statement of Reasons',
  'Address Line 1',
  'Address Line 2',
  'Address Line 3',
  'Address Line 4',
  'Address Line 5',
  'Address Line 6',
  'Address Postal Code',
  'Address Country',
  'Phone number',
  'Website',
  'Email address',
  'Date Designated',
  'D.O.B',
  'Nationality(/ies)',
  'National Identifier number',
  'National Identifier additional information',
  'Passport number',
  'Passport additional information',
  'Position',
  'Gender',
  'Town of birth',
  'Country of birth',
  'Type of entity',
  'Subsidiaries',
  'Parent company',
  'Business registration number (s)',
  'IMO number',
  'Current owner/operator (s)',
  'Previous owner/operator (s)',
  'Current believed flag of ship',
  'Previous flags',
  'Type of ship',
  'Tonnage of ship',
  'Length of ship',
  'Year Built',
  'Hull identification number (HIN)',
] as const;

type Column = (typeof FCDO_UK_HEADER)[number];

const quoted = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/** One line of the file: the given columns' values, empty elsewhere. */
export function fcdoUkRow(values: Partial<Record<Column, string>>): string {
  return FCDO_UK_HEADER.map((c) => quoted(values[c] ?? '')).join(',');
}

/** A whole file: report-date line, header, rows. */
export function fcdoUkCsv(reportDate: string, rows: Partial<Record<Column, string>>[]): string {
  return [`Report Date: ${reportDate}`, FCDO_UK_HEADER.join(','), ...rows.map(fcdoUkRow)].join('\r\n');
}
