import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// vericase_fold(text): the text with its accented Latin letters as their base letters, and œ, æ, ß
// as two letters, for the `search` filter (`name.search=societe` finds "Société"). One SQL
// function on both databases (no unaccent extension: PGlite would need it loaded, a server would
// need it installed); immutable, so an expression index may use it. The table is
// src/shared/fold-text.ts's, which folds the searched text the same way (test/fold-text.test.ts).
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `create function vericase_fold(t text) returns text language sql immutable parallel safe as $fold$
       select replace(replace(replace(replace(replace(translate(t,
         'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžØøĐđŁłĦħıŦŧĿŀÐðÞþ',
         'AAAAAACEEEEIIIINOOOOOUUUUYaaaaaaceeeeiiiinooooouuuuyyAaAaAaCcCcCcCcDdEeEeEeEeEeGgGgGgGgHhIiIiIiIiIJjKkLlLlLlNnNnNnOoOoOoRrRrRrSsSsSsSsTtTtUuUuUuUuUuUuWwYyYZzZzZzOoDdLlHhiTtLlDdTt'),
         'Œ', 'OE'), 'œ', 'oe'), 'Æ', 'AE'), 'æ', 'ae'), 'ß', 'ss')
     $fold$;`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'drop function vericase_fold(text);');
}
