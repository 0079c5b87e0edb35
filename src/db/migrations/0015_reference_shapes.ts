import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// Shapes of the reference product that need stored data:
// - which console user wrote a note or comment, or confirmed a case review: the reference names them
//   (`author`, `user`) as a NestedUser read from the users table. Rows written through the API keep
//   null (their author_type / reviewer_type says `api`). Users are suspended, never deleted; the
//   foreign keys only guard against ids of nobody.
// - aml checks written before: `data.vendor.results_count` becomes {watchlist, mediacheck} (counted
//   from the stored hits), `data.vendor.case_url` is the search_url, and each hit's `vendor.risk_id`
//   is its hit_id, as new checks have them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `alter table notes add column author_id uuid references users(id) on delete set null;
     alter table note_comments add column author_id uuid references users(id) on delete set null;
     alter table case_reviews add column user_id uuid references users(id) on delete set null;
     update checks set data = jsonb_set(
         jsonb_set(
           jsonb_set(data, '{vendor,case_url}', coalesce(data->'vendor'->'search_url', to_jsonb(''::text))),
           '{vendor,results_count}',
           jsonb_build_object(
             'watchlist', (select count(*) from jsonb_array_elements(coalesce(data->'hits', '[]'::jsonb)) h
                           where exists (select 1 from jsonb_array_elements_text(h->'list_types') t
                                         where t <> 'adverse_media')),
             'mediacheck', (select count(*) from jsonb_array_elements(coalesce(data->'hits', '[]'::jsonb)) h
                            where h->'list_types' ? 'adverse_media'))),
         '{hits}',
         (select coalesce(jsonb_agg(jsonb_set(h, '{vendor,risk_id}', coalesce(h->'vendor'->'hit_id', to_jsonb(''::text))) order by n), '[]'::jsonb)
            from jsonb_array_elements(coalesce(data->'hits', '[]'::jsonb)) with ordinality as x(h, n)))
       where type = 'aml' and jsonb_typeof(data->'vendor'->'results_count') = 'number'`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `alter table case_reviews drop column user_id;
     alter table note_comments drop column author_id;
     alter table notes drop column author_id`,
  );
}
