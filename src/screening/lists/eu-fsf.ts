/**
 * EU financial sanctions files (FSF) CSV: semicolon-separated, one row per name alias / address / birth
 * date / identification / citizenship combination, grouped by Entity_LogicalId. Columns are looked up
 * by header name, so column order and extra columns do not matter.
 *
 * Used: Entity_LogicalId (id), Entity_SubjectType or Entity_SubjectType_ClassificationCode (person/P →
 * person, else organisation), NameAlias_WholeName (or FirstName/MiddleName/LastName), NameAlias_Gender
 * (M/F), BirthDate_BirthDate / BirthDate_Year, Citizenship_CountryIso2Code,
 * Address_CountryIso2Code, Identification_Number (+TypeCode/TypeDescription), Entity_Regulation_Programme
 * / Entity_Programme, fileGenerationDate. The first name seen is the primary name, the others are strong
 * aliases (the EU file has no alias-quality field).
 */
import { emptyEntity, type ListLoadResult, type ScreeningEntity } from '../entity.ts';
import { parseCsvRows } from './csv.ts';
import {
  addAlias,
  addCountry,
  addIdentifier,
  contentHash,
  LoadProblems,
  parseDate,
  pushUnique,
  versionString,
} from './util.ts';

export function loadEuFsf(csv: string): ListLoadResult {
  const problems = new LoadProblems();
  const rows = parseCsvRows(csv, problems, { label: 'eu-fsf', delimiter: ';' });
  const entities: ScreeningEntity[] = [];
  let published: string | undefined;
  const header = rows.shift() ?? [];
  const col = new Map(header.map((h, i) => [h.trim(), i]));
  const get = (row: string[], name: string): string | undefined => {
    const i = col.get(name);
    if (i === undefined) return undefined;
    const v = row[i]?.trim();
    return v || undefined;
  };
  if (!col.has('Entity_LogicalId')) {
    problems.bad('eu-fsf: header has no Entity_LogicalId column');
    return {
      source: 'eu_fsf',
      version: contentHash(csv),
      entities,
      malformed: problems.malformed,
      errors: problems.errors,
    };
  }
  const byId = new Map<string, ScreeningEntity>();
  for (const [n, row] of rows.entries()) {
    // which record: counted from the header, so an operator can find it in the file
    const at = `record ${n + 1} after the header`;
    if (row.length !== header.length) {
      problems.bad(`eu-fsf: ${at} has ${row.length} fields, the header ${header.length}`);
      continue;
    }
    const id = get(row, 'Entity_LogicalId');
    if (!id) {
      problems.bad(`eu-fsf: ${at} has no Entity_LogicalId`);
      continue;
    }
    published ??= parseDate(get(row, 'fileGenerationDate'));
    const whole =
      get(row, 'NameAlias_WholeName') ??
      ([get(row, 'NameAlias_FirstName'), get(row, 'NameAlias_MiddleName'), get(row, 'NameAlias_LastName')]
        .filter(Boolean)
        .join(' ') ||
        undefined);
    let e = byId.get(id);
    if (!e) {
      if (!whole) {
        problems.bad(`eu-fsf: ${at}, the first of entity ${id}, has no name`);
        continue;
      }
      const type = (
        get(row, 'Entity_SubjectType') ??
        get(row, 'Entity_SubjectType_ClassificationCode') ??
        ''
      ).toLowerCase();
      const kind = type === 'person' || type === 'p' ? 'person' : 'organisation';
      e = emptyEntity('eu_fsf', id, kind, whole);
      e.list_types.push('sanction');
      byId.set(id, e);
      entities.push(e);
    } else if (whole) addAlias(e, whole, 'strong');
    pushUnique(e.programs, get(row, 'Entity_Regulation_Programme') ?? get(row, 'Entity_Programme'));
    const g = get(row, 'NameAlias_Gender')?.toUpperCase();
    if (g === 'M') e.gender = 'male';
    else if (g === 'F') e.gender = 'female';
    const birth = parseDate(get(row, 'BirthDate_BirthDate')) ?? parseDate(get(row, 'BirthDate_Year'));
    pushUnique(e.birth_dates, birth);
    const cit = get(row, 'Citizenship_CountryIso2Code');
    if (cit && cit !== '00') addCountry(e.nationalities, cit);
    const addrCountry = get(row, 'Address_CountryIso2Code');
    if (addrCountry && addrCountry !== '00') addCountry(e.countries, addrCountry);
    const addr = ['Address_Street', 'Address_City', 'Address_ZipCode', 'Address_CountryDescription']
      .map((c) => get(row, c))
      .filter(Boolean)
      .join(', ');
    pushUnique(e.addresses, addr || undefined);
    e.remarks ??= get(row, 'Entity_Remark');
    const idType = get(row, 'Identification_TypeDescription') ?? get(row, 'Identification_TypeCode') ?? 'id';
    addIdentifier(e, idType, get(row, 'Identification_Number'));
  }
  return {
    source: 'eu_fsf',
    version: versionString(contentHash(csv), published),
    published,
    entities,
    malformed: problems.malformed,
    errors: problems.errors,
  };
}
