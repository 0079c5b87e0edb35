/**
 * A data field's name in the console's language (the `check.field.*` words of the act
 * dictionaries), else the field's name made readable; a path's parts each so
 * (`document.data_validation` → `Document › Data validation`).
 */
import { useCallback } from 'react';
import { hasActKey, useActT } from './act-i18n.ts';

export function useFieldLabel(): (key: string) => string {
  const t = useActT();
  return useCallback(
    (key) => {
      const k = `check.field.${key}`;
      return hasActKey(k) ? t(k) : key.replace(/_/g, ' ');
    },
    [t],
  );
}

export function usePathLabel(): (path: string) => string {
  const field = useFieldLabel();
  return useCallback((path) => path.split('.').map(field).join(' › '), [field]);
}
