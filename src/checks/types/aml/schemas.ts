import { type Static, Type } from 'typebox';
import { Nullable, Uuid } from '../../../http/common-schemas.ts';
import { CheckReview } from '../../review-data.ts';

/** The built-in screening engine (src/screening) is this service's AML provider. */
export const AML_VENDOR = 'screening_provider_1';

export const AML_LIST_TYPES = ['sanction', 'warning', 'fitness_probity', 'pep', 'adverse_media'] as const;
export const AML_HIT_LIST_TYPES = [
  ...AML_LIST_TYPES,
  'law_enforcement',
  'special_interest_categories',
  'regulatory_enforcement',
  'other_bodies',
] as const;
export const MATCH_STATUSES = ['no_match', 'potential_match', 'false_positive', 'true_positive'] as const;
export const MONITORING_STATUSES = ['new', 'updated', 'removed'] as const;

export const AmlSettingsCreate = Type.Object({
  fuzziness: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 1,
      description:
        'Spelling tolerance: 0 = no spelling difference between name tokens (left-out middle names still match), 1 = broadest (threshold 0.70); default 0.5 (threshold 0.85)',
    }),
  ),
  exact_match: Type.Optional(
    Type.Boolean({ description: 'Only names whose normalised tokens are exactly the subject’s' }),
  ),
  list_types: Type.Optional(
    Type.Array(Type.Enum(AML_LIST_TYPES), {
      uniqueItems: true,
      minItems: 1,
      description: 'The kinds of lists to screen against (omitted: all of them)',
    }),
  ),
  enable_entity_filter: Type.Optional(
    Type.Boolean({ description: 'Only persons for an individual, only organisations for a company' }),
  ),
});

export const AmlCreateBody = Type.Object({
  individual_id: Type.Optional(Uuid),
  company_id: Type.Optional(Uuid),
  settings: Type.Optional(AmlSettingsCreate),
});

export const AmlReview = CheckReview;

export const AmlSettings = Type.Object({
  vendor: Type.Enum([AML_VENDOR]),
  fuzziness: Type.Number(),
  exact_match: Type.Boolean(),
  list_types: Nullable(Type.Array(Type.Enum(AML_LIST_TYPES))),
  profile_id: Nullable(Type.String()),
  enable_entity_filter: Type.Boolean(),
  is_media_check_enabled: Type.Boolean({ description: 'True when list_types includes adverse_media' }),
});

const ListVersionRef = Type.Object({
  source: Type.String(),
  version: Type.String(),
  published: Nullable(Type.String()),
  origin: Type.Optional(
    Nullable(
      Type.String({
        description:
          'Which file or directory of the reference data this version was read from (sanctions/ofac-sdn-2019, sanctions/ftm/peps.ftm.jsonl): two lists of one source (several FtM files) are told apart by it. Absent on checks screened before it was recorded',
      }),
    ),
  ),
});

export const AmlVendor = Type.Object({
  name: Type.Enum([AML_VENDOR]),
  is_search_monitored: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  search_ref: Type.String({ description: 'Reference of this screening (stable across monitoring runs)' }),
  search_id: Type.String({ description: 'The same reference, under the name some providers use' }),
  search_url: Type.String({
    description:
      'Where the screening is read: this check in the API (the built-in engine has no UI of its own)',
  }),
  customer_id: Type.String({ description: 'The screened subject: the individual or company id' }),
  case_url: Type.String({
    description: 'The same address as search_url, under the name some providers use for their case view',
  }),
  results_count: Type.Object(
    {
      watchlist: Type.Integer({ description: 'Matches on sanctions, PEP, warning and other watchlists' }),
      mediacheck: Type.Integer({ description: 'Matches on adverse media' }),
    },
    { description: 'Matches of the last screening (one counted in both when it is on both kinds of list)' },
  ),
  list_versions: Type.Array(ListVersionRef, { description: 'Lists (and versions) last screened against' }),
  screened_at: Nullable(Type.String({ format: 'date-time' })),
  monitored_at: Nullable(
    Type.String({ format: 'date-time', description: 'Last re-screening after a list version change' }),
  ),
});

const HitVendor = Type.Object({
  name: Type.Enum([AML_VENDOR]),
  hit_id: Type.String({ description: '<list source>:<entity id on that list>, e.g. ofac_sdn:7970' }),
  risk_id: Type.String({ description: 'The listed entity the hit is about: the same value as hit_id' }),
  updated_by_monitoring_status: Nullable(Type.Enum(MONITORING_STATUSES)),
  updated_by_monitoring_at: Nullable(Type.String({ format: 'date-time' })),
  updated_fields: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'With updated_by_monitoring_status `updated`: the listed entity fields that changed (names as in `entity`: aliases, birth_dates, programs, ...)',
    }),
  ),
});

const PreviousHitReview = Type.Object({
  status: Type.Enum(MATCH_STATUSES),
  review: AmlReview,
  replaced_at: Type.String({ format: 'date-time', description: 'When monitoring replaced this decision' }),
  reason: Type.String({ description: 'Why the hit needs a decision again' }),
});

export const AmlHitEntity = Type.Object({
  source: Type.String(),
  id: Type.String(),
  kind: Type.Enum(['person', 'organisation', 'vessel', 'aircraft']),
  name: Type.String(),
  aliases: Type.Array(Type.String()),
  birth_dates: Type.Array(Type.String()),
  nationalities: Type.Array(Type.String()),
  countries: Type.Array(Type.String()),
  programs: Type.Array(Type.String()),
  identifiers: Type.Array(Type.Object({ type: Type.String(), value: Type.String() })),
  addresses: Type.Array(Type.String()),
  gender: Nullable(Type.Enum(['male', 'female'])),
  remarks: Type.Optional(
    Nullable(
      Type.String({
        description:
          'What the list says about the entry, as given: reason for listing and notes (OFAC Remarks, UN COMMENTS1, EU Entity_Remark, UK statement of reasons)',
      }),
    ),
  ),
  listed_on: Type.Optional(
    Nullable(Type.String({ description: 'When the entry was listed (yyyy-MM-dd), when the list says' })),
  ),
});

export const AmlHit = Type.Object({
  id: Uuid,
  name: Type.String(),
  list_types: Type.Array(Type.Enum(AML_HIT_LIST_TYPES)),
  status: Type.Enum(MATCH_STATUSES),
  review: AmlReview,
  vendor: HitVendor,
  score: Type.Number({ description: 'Match score 0..1 (at or above the threshold of the settings)' }),
  matched_name: Type.String({ description: 'The listed name or alias that matched' }),
  explanation: Type.Any({ description: 'How the score was reached (matched tokens, qualifiers)' }),
  entity: AmlHitEntity,
  previous_reviews: Type.Optional(
    Type.Array(PreviousHitReview, {
      description:
        'Decisions of this hit that monitoring replaced (a false positive the list now fits better, a hit listed again after its removal), oldest first; absent when there is none',
    }),
  ),
});

export const AmlSubject = Type.Object({
  name: Type.String(),
  kind: Type.Enum(['person', 'company']),
  birth_date: Nullable(Type.String()),
  countries: Type.Array(Type.String()),
  gender: Nullable(Type.Enum(['male', 'female'])),
  registration_number: Type.Optional(
    Nullable(
      Type.String({
        description:
          "A company's registration number, also screened: an identical registration or tax number of a listed organisation is a hit whatever the name",
      }),
    ),
  ),
});

export const AmlData = Type.Object({
  result: Nullable(Type.Enum(['approved', 'rejected', 'error'])),
  settings: AmlSettings,
  vendor: AmlVendor,
  review: AmlReview,
  match_status: Type.Enum(MATCH_STATUSES),
  hits_list_types: Type.Array(Type.Enum(AML_HIT_LIST_TYPES)),
  hits: Type.Array(AmlHit),
  subject: Nullable(AmlSubject),
});

export const ReviewHitsBody = Type.Object({
  action: Type.Enum(['confirm', 'ignore']),
  hit_ids: Type.Array(Type.String(), { minItems: 1, maxItems: 100 }),
  comment: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
});

export const UpdateMonitoringBody = Type.Object({ is_monitored: Type.Boolean() });

export type AmlDataOut = Static<typeof AmlData>;
export type AmlHitOut = Static<typeof AmlHit>;
export type AmlSettingsOut = Static<typeof AmlSettings>;
export type AmlSubjectOut = Static<typeof AmlSubject>;
export type ReviewHitsInput = Static<typeof ReviewHitsBody>;
