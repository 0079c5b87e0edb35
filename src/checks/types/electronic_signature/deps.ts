// The one place this check type reaches the document templates (publishedVersionOf,
// renderForCase), so the rest of the folder reads as the check's own logic.
export { publishedVersionOf } from '../../../document-templates/published.ts';
export { renderForCase } from '../../../pdf-render/render-for-case.ts';
