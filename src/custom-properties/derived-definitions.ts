import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { COUNTRY_CODES } from '../shared/countries.ts';
import type { PropertyType, TargetEntity } from './schemas.ts';

/**
 * Custom property definitions are derived, not stored: the reference API has no way to create or
 * change them (only to read them), so a workspace's definitions are the keys its live cases,
 * companies or individuals actually carry in `custom_properties`, typed from their values.
 */
export interface DefinitionRow {
  id: string;
  key: string;
  label: string;
  type: PropertyType;
  allow_multiple: boolean;
  is_multi_line: boolean;
  created_at: Date;
  updated_at: Date;
}

/** Entities of a kind under a live (not deleted) case of the workspace. */
function entities(workspaceId: string, target: TargetEntity): RawBuilder<unknown> {
  if (target === 'case')
    return sql`select c.created_at, c.updated_at, c.custom_properties from cases c
      where c.workspace_id = ${workspaceId} and c.deleted_at is null`;
  const table = sql.table(target === 'company' ? 'companies' : 'individuals');
  return sql`select e.created_at, e.updated_at, e.custom_properties from ${table} e
    join cases c on c.id = e.case_id
    where e.workspace_id = ${workspaceId} and c.deleted_at is null`;
}

/**
 * One row per key. The type is the narrowest that every non-null value of the key fits: all
 * booleans → boolean, all numbers → numeric, all arrays → countries when every element is an ISO
 * country code (else choices, multiple), all strings → date (yyyy-MM-dd), email, phone_number
 * (E.164), url (http/https) or countries (one code), else text; mixed kinds → text.
 */
export function definitionsQuery(workspaceId: string, target: TargetEntity): RawBuilder<DefinitionRow> {
  const countries = [...COUNTRY_CODES];
  // parenthesised: it is used as a derived table (selectFrom(definitionsQuery(...).as('cp')))
  return sql<DefinitionRow>`(
    select md5(${workspaceId}::text || '/' || ${target}::text || '/' || x.key)::uuid as id,
      x.key,
      upper(left(x.key, 1)) || replace(substr(x.key, 2), '_', ' ') as label,
      case
        when bool_and(x.t = 'boolean') then 'boolean'
        when bool_and(x.t = 'number') then 'numeric'
        when bool_and(x.t = 'array') then
          case when bool_and(x.all_countries) and bool_or(x.n > 0) then 'countries' else 'choices' end
        when bool_and(x.t = 'string') then
          case
            when bool_and(x.s ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$') then 'date'
            when bool_and(x.s ~ '^[^@[:space:]]+@[^@[:space:]]+\\.[^@[:space:]]+$') then 'email'
            when bool_and(x.s ~ '^\\+[1-9][0-9]{6,14}$') then 'phone_number'
            when bool_and(x.s ~* '^https?://[^[:space:]]+$') then 'url'
            when bool_and(x.s = any(${countries}::text[])) then 'countries'
            else 'text'
          end
        else 'text'
      end as type,
      bool_or(x.t = 'array') as allow_multiple,
      coalesce(bool_or(x.s like '%' || chr(10) || '%'), false) as is_multi_line,
      min(x.created_at) as created_at,
      max(x.updated_at) as updated_at
    from (
      select e.created_at, e.updated_at, kv.key, jsonb_typeof(kv.value) as t,
        case when jsonb_typeof(kv.value) = 'string' then kv.value #>> '{}' end as s,
        case when jsonb_typeof(kv.value) = 'array' then jsonb_array_length(kv.value) end as n,
        case when jsonb_typeof(kv.value) = 'array' then not exists (
          select 1 from jsonb_array_elements(kv.value) el
          where jsonb_typeof(el) <> 'string' or not (el #>> '{}' = any(${countries}::text[]))
        ) end as all_countries
      from (${entities(workspaceId, target)}) e,
        jsonb_each(case when jsonb_typeof(e.custom_properties) = 'object' then e.custom_properties
          else '{}'::jsonb end) kv
      where jsonb_typeof(kv.value) <> 'null'
    ) x
    group by x.key
  )`;
}

/** Every value in use for a key (array elements one by one), sorted: the options of a choices key. */
export async function valuesInUse(db: Db, workspaceId: string, target: TargetEntity, key: string) {
  const { rows } = await sql<{ v: string }>`
    select v from (
      select jsonb_array_elements_text(e.custom_properties -> ${key}) as v
      from (${entities(workspaceId, target)}) e
      where jsonb_typeof(e.custom_properties) = 'object' and jsonb_typeof(e.custom_properties -> ${key}) = 'array'
      union
      select e.custom_properties ->> ${key} as v
      from (${entities(workspaceId, target)}) e
      where jsonb_typeof(e.custom_properties) = 'object' and jsonb_typeof(e.custom_properties -> ${key}) = 'string'
    ) vals
    order by v
    limit 1000
  `.execute(db);
  return rows.map((r) => r.v);
}
