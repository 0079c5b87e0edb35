/** The built-in document types' labels in the console's language (document-type-names.ts), as a hook. */
import { useCallback } from 'react';
import { useLang } from '../shell/i18n.tsx';
import { documentTypeLabel } from './document-type-names.ts';

export { documentTypeLabel };

export function useDocumentTypeLabel(): (label: string) => string {
  const { lang } = useLang();
  return useCallback((label: string) => documentTypeLabel(label, lang), [lang]);
}
