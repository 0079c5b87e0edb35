/** Job queue of case reports: one job per requested report, rendering and storing its PDF. */
export const CASE_REPORT_QUEUE = 'case-reports.generate';

/**
 * Reports a process draws at once. Each draws in a thread of its own (about 50 MB while it runs):
 * with pg-boss's default batch, 20 reports asked at once took 20 threads, 1.36 GB, and a `GET
 * /v1/ping` waited up to 1.4 s. The others wait in the queue; more worker processes draw more.
 */
export const CASE_REPORT_RENDERS_AT_ONCE = 2;

/** Runs of a report's job after the first (storage or database trouble); then the report fails. */
export const CASE_REPORT_RETRIES = 3;

/**
 * How long the download URL sent with `CaseReport.Generated` is announced as valid. The URL is the
 * file's `GET /v1/files/{id}` (it needs the workspace's API key): it keeps working as long as the file
 * exists; clients are told to fetch the report within this time.
 */
export const DOWNLOAD_URL_VALIDITY_MS = 7 * 24 * 3600 * 1000;
