import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Row types of the database, as Kysely sees them. Mirrors migrations/. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T = unknown> = ColumnType<T, string | T, string | T>;
type CustomProps = Record<string, string | number | boolean | string[] | null>;

export interface WorkspacesTable {
  id: string;
  name: string;
  settings: Json<Record<string, unknown>>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ApiKeysTable {
  id: string;
  workspace_id: string;
  key_hash: string;
  prefix: string;
  created_at: Timestamp;
  revoked_at: Date | null;
}

export interface CasesTable {
  id: string;
  workspace_id: string;
  external_id: string | null;
  name: string;
  status: string;
  template_id: string | null;
  assignee_id: string | null;
  space_slug: string | null;
  tags: ColumnType<string[], string[] | undefined, string[]>;
  flags: ColumnType<string[], string[] | undefined, string[]>;
  metadata: Json<Record<string, string> | null>;
  custom_properties: Json<CustomProps>;
  risk: Json<Record<string, unknown> | null>;
  review: Json<Record<string, unknown> | null>;
  contact_has_actions: Generated<boolean>;
  reviewer_has_actions: Generated<boolean>;
  last_contact_action_at: Date | null;
  next_review_at: string | null;
  /** A template check deleted on its own before approval: auto-approval stops (migration 0044). */
  template_check_deleted_at: Date | null;
  last_activity_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Date | null;
}

export interface CompaniesTable {
  id: string;
  workspace_id: string;
  case_id: string;
  type: string;
  name: string;
  is_relevant: Generated<boolean>;
  commercial_name: string | null;
  country: string | null;
  registration_number: string | null;
  registration_date: string | null;
  status: string;
  legal_form: string | null;
  entity_legal_form: string | null;
  address: Json<Record<string, string | null>>;
  classifications: Json<unknown[]>;
  banking_information: Json<Record<string, string | null> | null>;
  share_capital: string | null;
  tax_identification_number: string | null;
  website_url: string | null;
  employer_identification_number: string | null;
  custom_properties: Json<CustomProps>;
  last_activity_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface IndividualsTable {
  id: string;
  workspace_id: string;
  case_id: string;
  roles: ColumnType<string[], string[] | undefined, string[]>;
  is_beneficial_owner: boolean;
  is_controlling_person: boolean;
  is_business_contact: boolean;
  is_delegator: boolean;
  is_signatory: boolean;
  is_relevant: Generated<boolean>;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  maiden_name: string | null;
  email: string | null;
  birth_date: string | null;
  birth_country: string | null;
  birth_place: string | null;
  gender: string | null;
  nationalities: string[] | null;
  address: Json<Record<string, string | null>>;
  banking_information: Json<Record<string, string | null> | null>;
  tax_identification_number: string | null;
  social_security_number: string | null;
  phone_number: string | null;
  position: string | null;
  ownership_percentage: number | null;
  voting_rights_percentage: number | null;
  custom_properties: Json<CustomProps>;
  last_activity_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RelationsTable {
  id: string;
  workspace_id: string;
  case_id: string;
  from_company_id: string | null;
  from_individual_id: string | null;
  to_company_id: string;
  voting_rights_percentage: number | null;
  ownership_percentage: number | null;
  roles: ColumnType<string[], string[] | undefined, string[]>;
  position: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CaseReviewsTable {
  id: string;
  workspace_id: string;
  case_id: string;
  status: string;
  comment: string | null;
  reviewer_type: string;
  reviewed_at: Timestamp;
  next_review_at: string | null;
  created_at: Timestamp;
}

export interface RisksTable {
  id: string;
  workspace_id: string;
  case_id: string;
  mode: string;
  level: string;
  comment: string | null;
  score: number | null;
  components: Json<Record<string, number> | null>;
  flags: Json<Record<string, boolean> | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface NotesTable {
  id: string;
  workspace_id: string;
  case_id: string;
  content: string;
  author_type: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface NoteCommentsTable {
  id: string;
  workspace_id: string;
  note_id: string;
  content: string;
  author_type: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TagsTable {
  id: string;
  workspace_id: string;
  label: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface EventsTable {
  id: string;
  seq: Generated<string>;
  workspace_id: string;
  case_id: string | null;
  type: string;
  sub_event: string | null;
  payload: Json<Record<string, unknown>>;
  created_at: Timestamp;
}

export interface IdempotencyKeysTable {
  workspace_id: string;
  key: string;
  request_hash: string;
  status_code: number | null;
  response_body: string | null;
  created_at: Timestamp;
  /** When the request's change committed (set in that commit); null while it has written nothing. */
  committed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The case the request's events were about, if any (migration 0039). */
  case_id: string | null;
}

export interface ChecksTable {
  id: string;
  workspace_id: string;
  case_id: string;
  company_id: string | null;
  individual_id: string | null;
  type: string;
  status: string;
  subtype: string | null;
  is_internal: boolean;
  data: Json<Record<string, unknown>>;
  internal: Json<Record<string, unknown>>;
  attempt: Generated<number>;
  history: Json<unknown[]>;
  template_id: string | null;
  expires_at: Date | null;
  /** When the check entered need_review, kept while it stays there; null otherwise (migration 0047). */
  need_review_since: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  last_activity_at: Timestamp;
}

export interface Database {
  checks: ChecksTable;
  workspaces: WorkspacesTable;
  api_keys: ApiKeysTable;
  cases: CasesTable;
  companies: CompaniesTable;
  individuals: IndividualsTable;
  relations: RelationsTable;
  case_reviews: CaseReviewsTable;
  risks: RisksTable;
  notes: NotesTable;
  note_comments: NoteCommentsTable;
  tags: TagsTable;
  events: EventsTable;
  idempotency_keys: IdempotencyKeysTable;
  files: FilesTable;
  deleted_check_files: DeletedCheckFilesTable;
}

export type CaseRow = Selectable<CasesTable>;
export type CompanyRow = Selectable<CompaniesTable>;
export type IndividualRow = Selectable<IndividualsTable>;
export type RelationRow = Selectable<RelationsTable>;
export type NoteRow = Selectable<NotesTable>;
export type NoteCommentRow = Selectable<NoteCommentsTable>;
export type TagRow = Selectable<TagsTable>;
export type RiskRow = Selectable<RisksTable>;
export type CaseReviewRow = Selectable<CaseReviewsTable>;
export type NewCase = Insertable<CasesTable>;
export type NewCompany = Insertable<CompaniesTable>;
export type NewIndividual = Insertable<IndividualsTable>;
export type NewRelation = Insertable<RelationsTable>;
export type CaseUpdateRow = Updateable<CasesTable>;

export interface FilesTable {
  id: string;
  workspace_id: string;
  upload_ref: string;
  storage_key: string;
  size: number;
  mime: string;
  sha256: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  attached_at: Date | null;
  /** Set when the only case(s) reaching the file were soft deleted: read as absent (migration 0038). */
  withheld_at: Date | null;
}
export type FileRow = Selectable<FilesTable>;

/** Files a case held through checks since deleted (migration 0049): erased or withheld with it. */
export interface DeletedCheckFilesTable {
  case_id: string;
  file_id: string;
}
export type CheckRow = Selectable<ChecksTable>;

// --- webhooks (migration 0005); interface merging adds the tables to Database ---
/** Events waiting for the webhook dispatcher, by `seq` (migration 0028). */
export interface EventOutboxTable {
  seq: string;
  workspace_id: string;
}

export interface WebhooksTable {
  id: string;
  workspace_id: string;
  name: string;
  status: string;
  type: string;
  url: string;
  events: ColumnType<string[], string[], string[]>;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  /** `standard_webhooks` | `hmac_sha256_hex` */
  signature: Generated<string>;
  signature_header: string | null;
  failure_streak: Generated<number>;
  failure_streak_started_at: Date | null;
  last_success_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  id: string;
  workspace_id: string;
  webhook_id: string;
  event_id: string;
  event: string;
  case_id: string | null;
  company_id: string | null;
  individual_id: string | null;
  payload: string;
  status: string;
  attempt_count: Generated<number>;
  next_attempt_type: Generated<string>;
  next_attempt_at: Date | null;
  lease_until: Date | null;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  event_created_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Insertion order (migration 0036): breaks ties of due time, so a webhook's queue is in emission order. */
  seq: Generated<string>;
  /** The worker process whose claim holds it while `sending` (migration 0037; null otherwise). */
  claimed_by: Generated<string | null>;
  /** How many of its attempts were manual retries (migration 0042): the others count against the automatic ones. */
  manual_retry_count: Generated<number>;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  workspace_id: string;
  type: string;
  endpoint: string;
  status_code: number;
  request_headers: Json<Record<string, string>>;
  response_headers: Json<Record<string, string> | null>;
  response_body: string | null;
  error: string | null;
  duration_ms: number;
  attempted_at: Timestamp;
}

export interface CaseReviewDueEmissionsTable {
  case_id: string;
  next_review_at: string;
  emitted_at: Timestamp;
}

export interface Database {
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  event_outbox: EventOutboxTable;
  webhook_attempts: WebhookAttemptsTable;
  case_review_due_emissions: CaseReviewDueEmissionsTable;
}
export type WebhookRow = Selectable<WebhooksTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;

// --- templates (migration 0006) ---
export interface TemplateCheckSpec {
  type: string;
  targets: string[];
  settings: Record<string, unknown>;
}

export interface TemplatesTable {
  id: string;
  workspace_id: string;
  key: string;
  name: string;
  description: string | null;
  case_auto_approval: boolean;
  checks: Json<TemplateCheckSpec[]>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Date | null;
}

export interface CasesTable {
  /** The case's template as {id, name, key}, kept in step with template_id (renames included). */
  template: Json<{ id: string; name: string; key: string } | null>;
}

export interface Database {
  templates: TemplatesTable;
}
export type TemplateRow = Selectable<TemplatesTable>;

// --- aml screening (migration 0007) ---
export interface ScreeningListLoadsTable {
  id: string;
  versions_key: string;
  lists: Json<unknown[]>;
  reference_dir: string | null;
  process: string;
  loaded_at: Timestamp;
}

export interface Database {
  screening_list_loads: ScreeningListLoadsTable;
}

// --- users, company vendor data, event actors and activities (migrations 0009, 0010) ---
export interface UsersTable {
  id: string;
  workspace_id: string;
  first_name: string;
  last_name: string;
  email: string;
  role: string;
  password_hash: string | null;
  created_at: Timestamp;
  suspended_at: Date | null;
}

export interface CompanyVendorDataTable {
  id: string;
  workspace_id: string;
  company_id: string;
  name: string;
  raw: Json<Record<string, unknown>>;
  fetched_at: Timestamp;
}

export interface EventsTable {
  /** The activity's field-level changes (migration 0050): the tags a tags activity put on or took off. */
  activity_changes: ColumnType<ActivityChange[] | null, string | null | undefined, string | null>;
  actor_type: Generated<string>;
  actor_id: string | null;
  company_id: string | null;
  individual_id: string | null;
  activity_type: string | null;
}

/** One field-level change of an activity, as the reference writes it. */
export interface ActivityChange {
  name: string;
  previous: string | boolean | number | null;
  next: string | boolean | number | null;
}

export interface Database {
  users: UsersTable;
  company_vendor_data: CompanyVendorDataTable;
}
export type UserRow = Selectable<UsersTable>;
export type CompanyVendorDataRow = Selectable<CompanyVendorDataTable>;

// --- document orders (migration 0014) ---
export interface DocumentOrdersTable {
  id: string;
  workspace_id: string;
  case_id: string;
  company_id: string;
  vendor: string;
  country: string;
  registry_ref: string;
  product_ref: string;
  name: string;
  price_tier: string;
  status: Generated<string>;
  file_id: string | null;
  failure_reason: string | null;
  attempts: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface Database {
  document_orders: DocumentOrdersTable;
}
export type DocumentOrderRow = Selectable<DocumentOrdersTable>;

// --- company data: search refs, profile cache, monthly fetch counts (migration 0012) ---
export interface CompanyDataSearchRefsTable {
  ref: string;
  workspace_id: string;
  vendor: string;
  country: string;
  vendor_ref: string;
  candidate: Json<Record<string, unknown>>;
  created_at: Generated<Date>;
  expires_at: Date;
}

export interface CompanyDataProfilesTable {
  vendor: string;
  country: string;
  vendor_ref: string;
  profile: Json<Record<string, unknown>>;
  raw: Json<unknown>;
  fetched_at: Date;
}

export interface CompanyDataFetchCountsTable {
  workspace_id: string;
  /** Calendar month (UTC), `YYYY-MM`. */
  month: string;
  count: number;
}

export interface Database {
  company_data_search_refs: CompanyDataSearchRefsTable;
  company_data_profiles: CompanyDataProfilesTable;
  company_data_fetch_counts: CompanyDataFetchCountsTable;
}

// --- console users as authors and reviewers (migration 0015) ---
export interface NotesTable {
  author_id: ColumnType<string | null, string | null | undefined, string | null>;
}
export interface NoteCommentsTable {
  author_id: ColumnType<string | null, string | null | undefined, string | null>;
}
export interface CaseReviewsTable {
  user_id: ColumnType<string | null, string | null | undefined, string | null>;
}

// --- registry link, property origin, company monitoring state (migration 0013) ---
/**
 * Per field: whether its value came from the company registry or was given in the request; a field
 * an update changed records when, and the registry's value it replaced (`registry_value`, present
 * only when the registry had given one), so the lineage keeps both sources.
 */
export type EditedOrigin = { origin: 'input'; at: string; registry_value?: unknown };
export type PropertyOrigin = Record<string, 'registry' | 'input' | EditedOrigin>;
export interface CompaniesTable {
  registry_vendor: ColumnType<string | null, string | null | undefined, string | null>;
  registry_country: ColumnType<string | null, string | null | undefined, string | null>;
  registry_vendor_ref: ColumnType<string | null, string | null | undefined, string | null>;
  registry_linked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  property_origin: ColumnType<PropertyOrigin | null, string | null | undefined, string | null>;
}
export interface IndividualsTable {
  property_origin: ColumnType<PropertyOrigin | null, string | null | undefined, string | null>;
}
export interface CompanyMonitoringStateTable {
  company_id: string;
  workspace_id: string;
  /** The registry facts monitoring compares (src/company-data/monitoring/snapshot.ts). */
  snapshot: Json<Record<string, unknown>>;
  last_checked_at: Timestamp;
  next_check_at: Date | string;
  last_error: string | null;
}
export interface Database {
  company_monitoring_state: CompanyMonitoringStateTable;
}
export type CompanyMonitoringStateRow = Selectable<CompanyMonitoringStateTable>;

// --- document types (migration 0016) ---
export interface DocumentTypesTable {
  id: string;
  /** null: a built-in type, shared by every workspace. */
  workspace_id: string | null;
  key: string;
  label: string;
  target_entities: ColumnType<string[], string[], string[]>;
  is_internal: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
  archived_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}
export interface Database {
  document_types: DocumentTypesTable;
}
export type DocumentTypeRow = Selectable<DocumentTypesTable>;

// --- case reports (migration 0018) ---
export interface CaseReportsTable {
  id: string;
  workspace_id: string;
  case_id: string;
  status: Generated<string>;
  timezone: string;
  base_url: string;
  file_id: string | null;
  requested_at: Generated<Date>;
  generated_at: Date | null;
  error: string | null;
}
export interface Database {
  case_reports: CaseReportsTable;
}
export type CaseReportRow = Selectable<CaseReportsTable>;

// --- fraud list and check counter (migration 0017) ---
export interface ServiceSecretsTable {
  name: string;
  value: string;
  created_at: Generated<Date>;
}
export interface FraudReportsTable {
  id: string;
  workspace_id: string;
  individual_id: string | null;
  company_id: string | null;
  reason: string;
  identifier_kinds: Json<string[]>;
  created_at: Generated<Date>;
}
export interface FraudReportIdentifiersTable {
  report_id: string;
  kind: string;
  hash: string;
}
export interface CheckCountsTable {
  workspace_id: string;
  month: string;
  count: number;
}
export interface Database {
  service_secrets: ServiceSecretsTable;
  fraud_reports: FraudReportsTable;
  fraud_report_identifiers: FraudReportIdentifiersTable;
  check_counts: CheckCountsTable;
}
export type FraudReportRow = Selectable<FraudReportsTable>;

// --- client portal (migration 0019) ---
export interface ClientPortalWaitStep {
  key: string;
  title: string;
}
export interface ClientPortalsTable {
  id: string;
  workspace_id: string;
  name: string;
  /** `online` | `offline` */
  status: Generated<string>;
  default_language: Generated<string>;
  accent_color: string | null;
  logo_file_id: string | null;
  wait_steps: ColumnType<ClientPortalWaitStep[], string | undefined, string>;
  is_default: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface ClientPortalLinksTable {
  id: string;
  workspace_id: string;
  client_portal_id: string;
  case_id: string;
  individual_id: string;
  /** null: a case-wide link; set: a link for this one check. */
  check_id: string | null;
  /** SHA-256 hex of the token; the token itself is never stored. */
  token_hash: string;
  expires_at: Date;
  revoked_at: Date | null;
  created_at: Timestamp;
  last_used_at: Date | null;
}
/** Hashes of links deleted with their individual or check: the portal answers them as withdrawn. */
export interface ClientPortalWithdrawnLinksTable {
  token_hash: string;
  workspace_id: string;
  withdrawn_at: Generated<Date>;
  /** the link's own expires_at: the row is ignored after it, and dropped by a later withdrawal */
  expires_at: Date;
}
export interface ClientPortalPendingFilesTable {
  id: string;
  workspace_id: string;
  check_id: string;
  slot: string;
  file_id: string;
  upload_ref: string;
  file_name: string;
  size: number;
  created_at: Timestamp;
}
export interface CasesTable {
  client_portal_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The wait step the contact reached and waits on (emitted once), null when none. */
  client_portal_wait_step_key: ColumnType<string | null, string | null | undefined, string | null>;
  completed_wait_step_keys: ColumnType<string[], string[] | undefined, string[]>;
}
export interface Database {
  client_portals: ClientPortalsTable;
  client_portal_links: ClientPortalLinksTable;
  client_portal_pending_files: ClientPortalPendingFilesTable;
  client_portal_withdrawn_links: ClientPortalWithdrawnLinksTable;
}
export type ClientPortalRow = Selectable<ClientPortalsTable>;
export type ClientPortalLinkRow = Selectable<ClientPortalLinksTable>;
export type ClientPortalPendingFileRow = Selectable<ClientPortalPendingFilesTable>;

// --- document templates (migration 0020) ---
export interface DocumentTemplatesTable {
  id: string;
  workspace_id: string;
  key: string;
  name: string;
  /** `electronic_signature` | `report` */
  kind: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface DocumentTemplateVersionsTable {
  id: string;
  template_id: string;
  number: number;
  /** HTML with Handlebars placeholders. */
  content: string;
  /** `draft` | `published` */
  status: Generated<string>;
  published_at: Date | null;
  created_at: Timestamp;
}
export interface Database {
  document_templates: DocumentTemplatesTable;
  document_template_versions: DocumentTemplateVersionsTable;
}
export type DocumentTemplateRow = Selectable<DocumentTemplatesTable>;
export type DocumentTemplateVersionRow = Selectable<DocumentTemplateVersionsTable>;

// --- electronic signature requests (migration 0021) ---
export interface SignatureRequestsTable {
  id: string;
  workspace_id: string;
  check_id: string;
  template_version_id: string;
  /** The frozen PDF, as rendered when the signer first reached the portal. */
  document_file_id: string;
  document_sha256: string;
  document_html: string;
  document_pages: number;
  /** `ongoing` | `signed` | `declined` */
  status: string;
  /** The check-scoped portal link handed out as data.vendor.signature_link. */
  link_id: string | null;
  /** SHA-256 hex of the request id and the one-time code; never the code itself. */
  code_hash: string | null;
  code_expires_at: Date | null;
  code_attempts: Generated<number>;
  code_sent_at: Date | null;
  /** The portal link the code was asked through: once it is withdrawn or expired, the code is dead. */
  code_link_id: string | null;
  /** The address the code was mailed to: once the signer's e-mail is another, the code is dead. */
  code_email: string | null;
  code_verified_at: Date | null;
  signed_at: Date | null;
  declined_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface SignatureEventsTable {
  id: string;
  workspace_id: string;
  check_id: string;
  type: string;
  at: Timestamp;
  ip: string | null;
  user_agent: string | null;
  details: ColumnType<Record<string, unknown>, string | undefined, string>;
}
export interface Database {
  signature_requests: SignatureRequestsTable;
  signature_events: SignatureEventsTable;
}
export type SignatureRequestRow = Selectable<SignatureRequestsTable>;
export type SignatureEventRow = Selectable<SignatureEventsTable>;

// --- the operator console: users' sign-in, sessions, the audit log, named keys (migration 0022) ---
export interface UsersTable {
  password_changed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  last_login_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}
export interface ConsoleSessionsTable {
  id: string;
  workspace_id: string;
  user_id: string;
  /** SHA-256 hex of the cookie's token; never the token itself. */
  token_hash: string;
  csrf_token: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Date | string;
  revoked_at: Date | null;
  ip: string | null;
  user_agent: string | null;
}
export interface AuditLogTable {
  id: string;
  workspace_id: string;
  occurred_at: Timestamp;
  /** `user`, `api_key` or `system`. */
  actor_type: string;
  actor_id: string | null;
  /** The user's e-mail or the key's name/prefix at the time. */
  actor_label: string | null;
  action: string;
  method: string | null;
  route: string | null;
  resource_type: string | null;
  resource_id: string | null;
  status_code: number | null;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  details: ColumnType<Record<string, unknown>, string | undefined, string>;
}
export interface ApiKeysTable {
  name: ColumnType<string | null, string | null | undefined, string | null>;
  created_by_user_id: ColumnType<string | null, string | null | undefined, string | null>;
}
export interface Database {
  console_sessions: ConsoleSessionsTable;
  audit_log: AuditLogTable;
}
export type ConsoleSessionRow = Selectable<ConsoleSessionsTable>;
export type AuditLogRow = Selectable<AuditLogTable>;

// --- OpenTelemetry: the trace an event and its deliveries belong to (migration 0026) ---
export interface EventsTable {
  trace_context: ColumnType<Record<string, string> | null, string | null | undefined, string | null>;
}
export interface WebhookDeliveriesTable {
  trace_context: ColumnType<Record<string, string> | null, string | null | undefined, string | null>;
}
