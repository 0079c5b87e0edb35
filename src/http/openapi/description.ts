import { GUIDES } from '../docs-guides.ts';
import { FORMAT_MESSAGES } from '../schema-formats.ts';

/** The formats our schemas use beyond JSON Schema's own, listed for validators and readers. */
export const CUSTOM_FORMATS: Readonly<Record<string, string>> = {
  'alpha-2': FORMAT_MESSAGES['alpha-2'],
  'e.164': FORMAT_MESSAGES['e.164'],
  'tag-label': FORMAT_MESSAGES['tag-label'],
};

/** The document's introduction (Markdown, shown at the top of /docs). */
export const API_DESCRIPTION = `Identity and business verification (KYB/KYC): cases, the companies and people in them, their checks, reviews and reports.

**Authentication.** Send the workspace's API key in the \`X-SERVICE-API-KEY\` header on every \`/v1\` request. The operator console uses the same API with a session cookie instead (and an \`X-CSRF-Token\` header on writes); the \`/admin\` endpoints take the operator token as a bearer token.

**Errors.** Every 4xx and 5xx answer has the same body (\`ErrorBody\`): a status, a message naming the field at fault, and details.

**Lists.** Filters take an operator suffix (\`status.in=open,draft\`), \`sort\` takes fields with an optional \`.desc\`, and \`page\`/\`limit\` page through results; the answer holds \`data\` and \`pagination\`.

**Formats.** Besides JSON Schema's formats, fields use: ${Object.entries(CUSTOM_FORMATS)
  .map(([name, text]) => `\`${name}\` (${text.replace(/^must be /, '')})`)
  .join('; ')}. They are also listed under \`x-formats\` at the top of this document.

**Webhooks.** The events the service sends, their bodies and signature headers are under \`webhooks\` (OpenAPI 3.1).

**Guides.** ${GUIDES.map((g) => `[${g.title}](/docs/guides/${g.name})`).join(' · ')}.`;
