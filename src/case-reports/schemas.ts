import { Type } from 'typebox';
import { DateTime } from '../http/common-schemas.ts';

export const DEFAULT_REPORT_TIMEZONE = 'Europe/Paris';

export const CaseReportParams = Type.Object({
  timezone: Type.Optional(
    Type.String({
      default: DEFAULT_REPORT_TIMEZONE,
      maxLength: 100,
      description:
        'IANA time zone name (`Europe/Paris`, `America/New_York`, `UTC`...): every time in the report is written in it.',
    }),
  ),
});

/** The report as `CaseReport.Generated` delivers it. */
export const CaseReport = Type.Object({
  download_url: Type.String({
    description: 'Absolute URL of the PDF: GET /v1/files/{id}, with the API key of the workspace',
  }),
  download_url_expire_at: DateTime,
  generated_at: DateTime,
});
