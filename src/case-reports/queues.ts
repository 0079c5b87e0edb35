/** Job queue of case reports: one job per requested report, rendering and storing its PDF. */
export const CASE_REPORT_QUEUE = 'case-reports.generate';

/** Runs of a report's job after the first (storage or database trouble); then the report fails. */
export const CASE_REPORT_RETRIES = 3;

/**
 * How long the download URL sent with `CaseReport.Generated` is announced as valid. The URL is the
 * file's `GET /v1/files/{id}` (it needs the workspace's API key): it keeps working as long as the file
 * exists; clients are told to fetch the report within this time.
 */
export const DOWNLOAD_URL_VALIDITY_MS = 7 * 24 * 3600 * 1000;
