import type { presentDocumentType } from '../../../document-types/present.ts';
import { DOCUMENT_DEFAULTS, type DocumentCheckSettings } from './check-data.ts';

export interface AutomaticRulesIn {
  automatic_approval?: boolean;
  automatic_rejection?: boolean;
  document_analysis?: { automatic_approval?: boolean; automatic_rejection?: boolean } | null;
}

/**
 * Each automatic rule resolves on its own: the request's `settings.document_analysis.<rule>` (the
 * reference's spelling), else its `settings.<rule>` (as other check types take it), else the
 * workspace's `settings.checks.document.<rule>`, else the default (approval on, rejection off).
 */
export function resolveDocumentSettings(
  type: ReturnType<typeof presentDocumentType>,
  request: AutomaticRulesIn | undefined,
  workspace: Record<string, unknown>,
  previous?: DocumentCheckSettings['document_analysis'],
): DocumentCheckSettings {
  const rule = (name: 'automatic_approval' | 'automatic_rejection'): boolean => {
    const v = request?.document_analysis?.[name] ?? request?.[name] ?? previous?.[name] ?? workspace[name];
    return typeof v === 'boolean' ? v : DOCUMENT_DEFAULTS[name];
  };
  return {
    document_type: type,
    document_type_key: type.key,
    document_analysis: {
      automatic_approval: rule('automatic_approval'),
      automatic_rejection: rule('automatic_rejection'),
      parameters: null,
    },
  };
}
