import { Type } from 'typebox';
import type { App, AppContext } from '../app-context.ts';
import { errors, Nullable } from '../http/common-schemas.ts';
import { badRequest } from '../http/errors.ts';
import { isCountryCode } from '../shared/countries.ts';
import { validDay } from '../shared/time.ts';
import { countryCode } from './countries.ts';
import { normalizeText } from './normalize.ts';
import { presentListVersion, presentMatch } from './service/present.ts';
import { screeningUnavailable } from './service/unavailable.ts';

const SearchQuery = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 500, description: 'Name to screen (any script)' }),
    type: Type.Optional(Type.Enum(['person', 'company'], { description: 'Only persons / organisations' })),
    birth_date: Type.Optional(
      Type.String({ pattern: '^\\d{4}(-\\d{2}-\\d{2})?$', description: 'yyyy-MM-dd or yyyy' }),
    ),
    country: Type.Optional(
      Type.String({ minLength: 2, maxLength: 100, description: 'Nationality or country (alpha-2 or name)' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'default 10' })),
    min_score: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1, description: 'Overrides the threshold derived from fuzziness' }),
    ),
    fuzziness: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1, description: 'default 0.5 → threshold 0.85' }),
    ),
  },
  { additionalProperties: false },
);

const SearchResult = Type.Object({
  id: Type.String({ description: '<list source>:<entity id on that list>' }),
  name: Type.String(),
  matched_name: Type.String({ description: 'The name or alias that matched' }),
  aliases: Type.Array(Type.String()),
  kind: Type.Enum(['person', 'organisation', 'vessel', 'aircraft']),
  score: Type.Number(),
  list_types: Type.Array(Type.String()),
  lists: Type.Array(Type.String()),
  programs: Type.Array(Type.String()),
  birth_dates: Type.Array(Type.String()),
  countries: Type.Array(Type.String()),
  remarks: Nullable(
    Type.String({ description: 'What the list says about the entry: reason for listing, notes, as given' }),
  ),
  listed_on: Nullable(
    Type.String({ description: 'When the entry was listed (yyyy-MM-dd), when the list says' }),
  ),
  explanation: Type.Any(),
});

/** What a list's loader said of the rows it could not read (the first ten). */
export const MalformedRowErrors = Type.Array(Type.String(), {
  description: "The loader's messages for the first ten malformed rows (which row, and why)",
});

const ListVersionOut = Type.Object({
  source: Type.String(),
  version: Type.String(),
  published: Nullable(Type.String()),
  origin: Nullable(Type.String()),
  entities: Type.Integer(),
  malformed: Type.Integer(),
  errors: MalformedRowErrors,
  loaded_at: Nullable(Type.String({ format: 'date-time' })),
});

/** GET /v1/screening/lists and /v1/screening/search (beyond the reference API). */
export function registerScreeningRoutes(app: App, ctx: AppContext): void {
  const tags = ['Screening'];
  app.get(
    '/screening/lists',
    {
      schema: {
        tags,
        summary: 'Sanctions lists loaded in this process (versions, entity counts)',
        response: {
          200: Type.Object({
            status: Type.Enum(['idle', 'loading', 'ready', 'empty', 'failed']),
            message: Nullable(Type.String()),
            versions_key: Nullable(Type.String()),
            data: Type.Array(ListVersionOut),
          }),
          ...errors(),
        },
      },
    },
    async () => {
      const s = ctx.screening;
      const loadedAt = s?.loadedAt ?? null;
      return {
        status: s?.state ?? 'empty',
        message: s?.available ? s.notice : (s?.unavailableMessage() ?? null),
        versions_key: s?.versionsKey ?? null,
        data: (s?.versions ?? []).map((v) => ({ ...presentListVersion(v), loaded_at: loadedAt })),
      };
    },
  );
  app.get(
    '/screening/search',
    {
      schema: {
        tags,
        summary: 'Screen a name against the loaded sanctions lists',
        description:
          'Best first; only results at or above the threshold (fuzziness 0.5 → 0.85 by default; `min_score` overrides it). 503 while no list is loaded.',
        querystring: SearchQuery,
        response: { 200: Type.Object({ data: Type.Array(SearchResult) }), ...errors(400, 503) },
      },
    },
    async (req) => {
      const q = req.query;
      if (!q.name.trim()) throw badRequest('name must not be blank', 'name');
      // punctuation alone (`...`, `-`) normalises to no token: nothing would be screened, and an empty
      // answer would read as a clean search
      if (!normalizeText(q.name))
        throw badRequest('name has no letter or digit to screen (punctuation alone)', 'name');
      // a year alone, or a day that exists
      if (q.birth_date && q.birth_date.length !== 4 && !validDay(q.birth_date)) {
        throw badRequest(`birth_date ${q.birth_date} is not a date (yyyy-MM-dd or yyyy)`, 'birth_date');
      }
      // a birth date after today is a typo (2999 for 1999): it would only lower every score (the
      // matcher weighs a birth-date mismatch) and answer a clean search. A day of slack, as for an
      // individual's birth_date (src/individuals/birth-date.ts); a year is compared as a year.
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      if (q.birth_date && q.birth_date > tomorrow.slice(0, q.birth_date.length)) {
        throw badRequest(`birth_date must not be in the future: it is ${q.birth_date}`, 'birth_date');
      }
      // a country the matcher cannot read would only lower every score (it weighs a country mismatch)
      // two letters are a code only when one is assigned (XK: Kosovo, as the lists write it); `xx`
      // read as a code matched no one and was answered as a clean search
      const code = q.country === undefined ? undefined : countryCode(q.country);
      if (q.country !== undefined && (!code || !(isCountryCode(code) || code === 'XK'))) {
        throw badRequest(
          `country ${q.country} is not a country: give an ISO 3166-1 alpha-2 code (FR) or an English name (France)`,
          'country',
        );
      }
      const s = ctx.screening;
      if (!s?.available) throw screeningUnavailable(ctx);
      const matches = s.search({
        name: q.name,
        kind: q.type,
        birth_date: q.birth_date,
        countries: q.country ? [q.country] : undefined,
        limit: q.limit,
        min_score: q.min_score,
        fuzziness: q.fuzziness,
      });
      return { data: matches.map(presentMatch) };
    },
  );
}
