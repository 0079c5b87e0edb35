/**
 * Descriptions for operations whose route declares only a summary, keyed by operationId. A route's own
 * `description` wins; the OpenAPI test fails on an operation with neither.
 */
export const OPERATION_DESCRIPTIONS: Readonly<Record<string, string>> = {
  ping: 'Answers with the name of the workspace the key belongs to: a quick way to test a key and the base URL.',
  listCases:
    'Cases of the workspace, oldest first unless `sort` says otherwise. Filters take an operator suffix (`status.in=open,draft`, `created_at.gte=2026-01-01`); `page` and `limit` page through the results.',
  getCase:
    "The whole case: its companies and individuals with their checks, relations, review, risk, tags and flags. The path takes the case id or, failing that, its external_id. The `ETag` header is the case's version, for `If-Match` on its review and its update.",
  updateCase:
    "Changes the fields given (name, status, assignee, tags, metadata, custom properties...); the others stay. Each change is an event (Case.Updated with its sub-event). With `If-Match` (the case's ETag as it was read), a case that changed since is a 412 and nothing changes.",
  deleteCase:
    'Hides the case and revokes its client portal links; `permanent=true` erases it with its entities, checks, files and event history (activities, webhook deliveries), Case.Deleted excepted.',
  createIndividual:
    'Adds a person to a case, with its relations to companies already in it (owner, representative...); `to_company_id` left out means the main company. A person may be created with no relation (docs/case-graph.md).',
  getIndividual:
    'The individual with its checks, relations and the origin of each field (input or registry).',
  updateIndividual:
    "Changes the fields given; the others stay. Relations are not written here: use the case relation endpoints (`/v1/cases/{caseId}/relations`). An individual that becomes a target of the case's template (`is_business_contact`, `is_beneficial_owner`, `is_signatory`, `roles`) gets the template's checks it lacks in the same request; past the workspace's check limit that is a 400 `CHECK_LIMIT_REACHED` and nothing changes.",
  deleteIndividual: 'Removes the individual from its case, with its relations and checks.',
  setIndividualRelevant:
    'An individual marked not relevant is left out of the case by default (lists, flags, the client portal) but kept.',
  listIndividuals:
    'Individuals across the cases of the workspace, with the same filters and paging as cases.',
  getCompany:
    "The company with its checks, document orders, relations and each field's origin (input or registry).",
  updateCompany:
    'Changes the fields given; the others stay. Relations are not written here: use the case relation endpoints (`/v1/cases/{caseId}/relations`).',
  deleteCompany:
    'Removes the company from its case, with its relations and checks. The main company cannot be removed while the case has other companies or individuals (400).',
  setCompanyRelevant:
    'A company marked not relevant is left out of the case by default (lists, flags, the client portal) but kept. Only an affiliated company can be marked not relevant: the main company always is (400 naming `is_relevant`).',
  listCompanies: 'Companies across the cases of the workspace, with the same filters and paging as cases.',
  updateCaseRelation:
    "Changes the roles or percentages of a relation between two entities of the case. A source that becomes a target of the case's template (a `legal_representative` role) gets the template's checks it lacks in the same request; past the workspace's check limit that is a 400 `CHECK_LIMIT_REACHED` and nothing changes.",
  deleteCaseRelation:
    'Removes a relation; refused when it is the last one tying an entity to the case (remove the entity instead).',
  listChecks:
    'Check envelopes (type, status, target, dates) across the workspace, without their data: read one check for that.',
  deleteCheck: 'Removes a check from its case; the case flags are recomputed.',
  createTag: 'A workspace label (unique, case-insensitively) that cases can carry.',
  getTag: 'One tag of the workspace.',
  listTags: 'Every tag of the workspace.',
  listCaseTags: 'The tags a case carries.',
  getTemplate: 'A case template with the checks it launches and on which entities.',
  updateTemplate:
    'Changes the template; cases it already ran on keep their checks, later runs use the new list.',
  deleteTemplate: 'Removes the template; checks it created stay.',
  getWebhook: 'One subscription: its URL, events, status and delivery settings (never its secret).',
  listWebhooks: 'Every webhook subscription of the workspace.',
  deleteWebhook:
    'Stops deliveries to this endpoint and removes the subscription; its delivery log goes with it.',
  getWorkspaceSettings:
    'Settings that shape checks and cases in this workspace (screening thresholds, monitoring, review cycle...).',
  updateWorkspaceSettings:
    'Merges the given settings into the current ones, key by key; an unknown key is refused.',
  replaceWorkspaceSettings:
    'Replaces the settings with the given ones: every setting the body leaves out takes its default again (an empty object resets them all).',
  updateAmlMonitoring:
    'With monitoring on, the subject is screened again each time a sanctions list version is loaded, and new hits reopen the check.',
  reviewAmlHits:
    "Marks hits as true positives (confirmed) or false positives (ignored); each keeps its `review`: the reason given, when, and who (`api`, or the console user with `user`). Every hit must be reviewed before the check itself. With `If-Match` (the check's ETag as it was read), a check that changed since (a hit decided by someone else, a review) is a 412 and no hit changes.",
  getClientPortal: 'The portal the case contacts use: name, language, branding and whether it is online.',
  getDocumentTemplate: 'The template with its versions, and which one is published.',
  getDocumentTemplateVersion: 'One version of a template: its Handlebars body and whether it is published.',
  listDocumentTemplates: 'Document templates of the workspace, with their latest and published versions.',
  getFraudReport: 'One identifier your workspace reported as fraudulent, with its reason.',
  listFraudReports: 'Identifiers your workspace reported, newest first.',
  listScreeningLists:
    'The sanctions and watch lists this process has loaded: source, version, entity count and when each was loaded.',
  createWorkspace:
    'Creates a workspace and its first API key. The key is shown in this answer only; it is stored hashed.',
  createWorkspaceApiKey: 'Another key for a workspace, shown in this answer only.',
  revokeApiKeyAsOperator:
    'The key stops working at once on this process, and on the others within the key cache time (VERICASE_AUTH_CACHE_TTL_MS).',
  reloadScreeningLists:
    'Loads the configured sanctions lists again as a new list version, without a restart; monitored AML checks are screened again.',
  runCompanyMonitoring:
    'Reads registry-linked companies due for monitoring now instead of at their next scheduled time.',
};
