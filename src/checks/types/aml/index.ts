import { randomUUID } from 'node:crypto';
import { badRequest } from '../../../http/errors.ts';
import type { CheckTypeDefinition, CreatePlan, Outcome } from '../../check-type.ts';
import { processAfter } from '../../engine/queues.ts';
import { reviewNeeded } from '../../review-data.ts';
import { resolveSettings } from '../../settings.ts';
import { noHitApprovalComment } from './approval-comment.ts';
import { hitsListTypes, matchStatus, pendingHits } from './hits.ts';
import { registerAmlRoutes } from './routes.ts';
import { AML_VENDOR, AmlCreateBody, AmlData, type AmlDataOut, type AmlSettingsOut } from './schemas.ts';
import { EMPTY_REVIEW, hitOf, screenSubject, subjectOf } from './screen.ts';
import { AML_TRANSITIONS } from './transitions.ts';

/** Why an aml check's screening could not run, for whoever reads the check (need_review, result error). */
export const SCREENING_NOT_RUN = {
  not_loaded:
    'the screening could not run: no sanctions list is loaded on this service. Nothing was screened: create the check again once an administrator has loaded the lists, or decide it yourself',
  loading:
    'the screening could not run: the sanctions lists were still loading. Nothing was screened: create the check again in a few minutes',
  failed:
    'the screening could not run: the sanctions lists could not be loaded. Nothing was screened: create the check again once an administrator has loaded them, or decide it yourself',
} as const;

/** API defaults; a workspace overrides them field by field in `settings.checks.aml`. */
export const AML_DEFAULTS = {
  fuzziness: 0.5,
  exact_match: false,
  list_types: ['sanction', 'warning', 'fitness_probity', 'pep'] as AmlSettingsOut['list_types'],
  enable_entity_filter: true,
};

function settingsFor(workspace: Record<string, unknown>, request: Partial<typeof AML_DEFAULTS> | undefined) {
  const s = resolveSettings(AML_DEFAULTS, workspace, request);
  const fuzziness = Number(s.fuzziness);
  return {
    vendor: AML_VENDOR,
    fuzziness: Number.isFinite(fuzziness) ? Math.min(1, Math.max(0, fuzziness)) : AML_DEFAULTS.fuzziness,
    exact_match: s.exact_match === true,
    list_types: Array.isArray(s.list_types) ? s.list_types : AML_DEFAULTS.list_types,
    profile_id: null,
    enable_entity_filter: s.enable_entity_filter !== false,
    is_media_check_enabled: Array.isArray(s.list_types) && s.list_types.includes('adverse_media'),
  } as AmlSettingsOut;
}

export const amlCheck: CheckTypeDefinition = {
  type: 'aml',
  docs: {
    title: 'AML screening',
    about:
      "Screens an individual or a company against the loaded sanctions, PEP and watch lists. Hits above the workspace's threshold move the check to need_review; each hit is then confirmed or ignored before the check itself can be reviewed. With monitoring on, the subject is screened again whenever a list version changes.",
  },
  targets: ['individual', 'company'],
  isInternal: false,
  createBody: AmlCreateBody,
  dataSchema: AmlData,
  transitions: AML_TRANSITIONS,
  async create({ ctx, target, body, workspaceTypeSettings, checkId }): Promise<CreatePlan> {
    const subject = subjectOf(target);
    if (!subject.name.trim()) throw badRequest('The target has no name to screen', `${target.kind}_id`);
    const now = new Date().toISOString();
    const searchRef = randomUUID();
    const data: AmlDataOut = {
      result: null,
      settings: settingsFor(workspaceTypeSettings, body.settings),
      vendor: {
        name: AML_VENDOR,
        is_search_monitored: workspaceTypeSettings.monitoring === true,
        created_at: now,
        search_ref: searchRef,
        search_id: searchRef,
        // no provider UI: the screening is read through this service's API; the screened subject
        // is the customer the engine knows
        search_url: `/v1/checks/aml/${checkId}`,
        case_url: `/v1/checks/aml/${checkId}`,
        customer_id: target.row.id,
        results_count: { watchlist: 0, mediacheck: 0 },
        list_versions: [],
        screened_at: null,
        monitored_at: null,
      },
      review: { ...EMPTY_REVIEW },
      match_status: 'no_match',
      hits_list_types: [],
      hits: [],
      subject: null,
    };
    return {
      status: 'processing',
      data,
      process: processAfter(ctx),
    };
  },
  async process({ ctx, check, target, finalAttempt }): Promise<Outcome> {
    const data = check.data as unknown as AmlDataOut;
    const subject = subjectOf(target);
    const result = await screenSubject(ctx, subject, data.settings);
    const now = new Date().toISOString();
    // Lists still loading after the wait (a worker that has just started, on a busy machine): the
    // job is retried later rather than the check sent to review in error, which took a person to
    // clear what was only a worker's start (scale-out walk). On the last attempt it is decided.
    if (!result.ok && result.loading && !finalAttempt) throw new Error(result.message);
    if (!result.ok) {
      return {
        trigger: 'screening_error',
        status: 'need_review',
        data: {
          ...data,
          result: 'error',
          // nothing was screened: the reference's enum has no "not screened" and no null, and
          // no_match would read as a subject screened clean (a client clearing subjects on it let an
          // unscreened person through). potential_match holds the subject for a person to look at,
          // with no hit (docs/compatibility.md, deliberate differences)
          match_status: 'potential_match',
          subject,
          vendor: { ...data.vendor, screened_at: now },
          // no decision was taken: a person must look (no reviewer yet, as every need_review check
          // says). The reason is the reader's (an analyst, a case report): that nothing was screened
          // and what to do; how to load the lists is the operator's, in /readyz, the start-up log and
          // the search endpoints' 503 (environment variables and admin endpoints were shown to analysts)
          review: reviewNeeded(
            result.reason === 'list_types' || result.reason === 'no_name'
              ? `the screening could not run: ${result.message}`
              : SCREENING_NOT_RUN[result.reason],
          ),
        },
      };
    }
    const hits = result.matches.map((m) => hitOf(m));
    const next: AmlDataOut = {
      ...data,
      subject,
      vendor: {
        ...data.vendor,
        results_count: result.resultsCount,
        list_versions: result.listVersions,
        screened_at: now,
      },
      hits,
      match_status: matchStatus(hits),
      hits_list_types: hitsListTypes(hits),
    };
    if (!hits.length) {
      return {
        trigger: 'screening_result',
        status: 'approved',
        data: {
          ...next,
          result: 'approved',
          // aml has no automatic_approval setting: the comment says what decided (no hit), not a rule
          review: {
            comment: noHitApprovalComment(result.listVersions, undefined, data.settings.list_types),
            reviewed_at: now,
            reviewer_type: 'system',
            user: null,
          },
        },
      };
    }
    // each hit is confirmed or ignored by a person: the comment names the first three names, and
    // counts the hits past them (two hits may share a name: "and 21 more" of 25 hits named 3)
    const shown = [...new Set(hits.map((h) => h.name))].slice(0, 3);
    const more = hits.filter((h) => !shown.includes(h.name)).length;
    const named = shown.join('; ') + (more ? ` and ${more} more` : '');
    const found =
      result.found > hits.length
        ? `${result.found} hits; the ${hits.length} closest are kept to confirm or ignore`
        : `${hits.length} ${hits.length === 1 ? 'hit' : 'hits'} to confirm or ignore`;
    return {
      trigger: 'screening_result',
      status: 'need_review',
      data: {
        ...next,
        result: null,
        review: reviewNeeded(`the screening found ${found}: ${named}`),
      },
    };
  },
  beforeReview(check) {
    const data = check.data as unknown as AmlDataOut;
    // a decision taken before the lists were searched would stand with no hits and no baseline for
    // monitoring: the screening takes a moment, the review waits for it
    if (check.status === 'processing' && !data.vendor?.screened_at) {
      throw badRequest(
        'The check is still being screened against the lists: review it once the screening has ended (Check.ReviewNeeded, or its status)',
        'status',
      );
    }
    const pending = pendingHits(data.hits ?? []);
    if (pending.length) {
      throw badRequest(
        `${pending.length === 1 ? '1 AML hit is' : `${pending.length} AML hits are`} still potential_match: confirm or ignore every hit (PATCH /v1/checks/aml/${check.id}/hits/review) before reviewing the check`,
        'hits',
      );
    }
  },
  routes: registerAmlRoutes,
};
