import { Type } from 'typebox';
import type { App, AppContext } from '../../app-context.ts';
import { errors } from '../../http/common-schemas.ts';
import { ApiError, badRequest } from '../../http/errors.ts';
import { directoryProblem, resolveReferenceDir } from '../../screening/service/reference-dir.ts';
import { isCountryCode } from '../../shared/countries.ts';
import { ElfCountry, EntityLegalForm } from '../schemas.ts';
import { getLegalForms, HOW_TO_PROVIDE_LEGAL_FORMS } from './get-legal-forms.ts';
import type { LegalFormIndex } from './legal-form-index.ts';
import { presentLegalForm } from './present.ts';

const Query = Type.Object({
  country: Type.Optional({ ...ElfCountry, description: 'ISO 3166-1 alpha-2 country code (e.g. FR)' }),
  subdivision: Type.Optional(
    Type.String({
      maxLength: 6,
      description:
        'ISO 3166-2 subdivision, in upper case (e.g. US-DE): only the forms of that subdivision. Its country must match `country` when both are given.',
    }),
  ),
});

const SUBDIVISION = /^([A-Z]{2})-[A-Z0-9]{1,3}$/;

async function loaded(ctx: AppContext): Promise<LegalFormIndex> {
  let index: LegalFormIndex | null;
  try {
    index = await getLegalForms(ctx);
  } catch (err) {
    throw new ApiError(503, `${(err as Error).message}. To fix it, ${HOW_TO_PROVIDE_LEGAL_FORMS}.`);
  }
  if (!index) {
    // a mistyped VERICASE_REFERENCE_DIR is said, as the screening's 503 and /readyz say it
    const { dir } = resolveReferenceDir(ctx.config);
    const problem = dir ? directoryProblem(dir) : null;
    const why = dir && problem ? `: the reference directory ${dir} ${problem}` : '';
    throw new ApiError(
      503,
      `No ISO 20275 legal-form list is available${why}. To provide one, ${HOW_TO_PROVIDE_LEGAL_FORMS}.`,
    );
  }
  return index;
}

/** The subdivision's country, after checking it is well-formed, matches `country` and has forms of its own. */
function subdivisionCountry(index: LegalFormIndex, subdivision: string, country: string | undefined): string {
  const m = SUBDIVISION.exec(subdivision);
  if (!m || !isCountryCode(m[1])) {
    // codes are compared as written, as `country` is (`fr` is a 400): `us-de` was served as US-DE
    const upper = subdivision.toUpperCase();
    const hint = upper !== subdivision && SUBDIVISION.test(upper) ? ` in upper case (${upper})` : '';
    throw badRequest(`subdivision must be an ISO 3166-2 subdivision code${hint} (e.g. US-DE)`, 'subdivision');
  }
  if (country && m[1] !== country)
    throw badRequest(`subdivision ${subdivision} is not in country ${country}`, 'subdivision');
  const known = index.subdivisionsOf(m[1]);
  if (!known.includes(subdivision)) {
    const hint = known.length
      ? `subdivisions with forms of their own in ${m[1]}: ${known.join(', ')}`
      : `${m[1]} has no subdivision-level forms; omit subdivision`;
    throw badRequest(
      `subdivision ${subdivision} has no legal forms in the ISO 20275 list (${hint})`,
      'subdivision',
    );
  }
  return m[1];
}

/** GET /v1/company-data/entity-legal-forms */
export function registerLegalFormRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/company-data/entity-legal-forms',
    {
      schema: {
        tags: ['Company data'],
        summary: 'List entity legal forms (ISO 20275)',
        description:
          'The active forms of the ISO 20275 Entity Legal Forms list (GLEIF ELF code list, read from the reference data directory). Without `country`, every form, the two placeholder codes valid in every country (8888, 9999, `country` null) included. 503 when no list is available.',
        querystring: Query,
        response: { 200: Type.Object({ data: Type.Array(EntityLegalForm) }), ...errors(400, 503) },
      },
    },
    async (req) => {
      const index = await loaded(ctx);
      if (
        req.query.country &&
        !isCountryCode(req.query.country) &&
        !index.forCountry(req.query.country).length
      )
        throw badRequest('country must be an ISO 3166-1 alpha-2 country code (e.g. FR)', 'country');
      const subdivision = req.query.subdivision;
      // a blank subdivision is refused as malformed, not read as none (it listed every form)
      const country =
        subdivision !== undefined
          ? subdivisionCountry(index, subdivision, req.query.country)
          : req.query.country;
      const forms = country ? index.forCountry(country, subdivision) : index.all();
      return { data: forms.map(presentLegalForm) };
    },
  );
}
