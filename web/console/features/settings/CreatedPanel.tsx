/**
 * What a create dialog shows in place of its form once the server created the thing: what it
 * answered once (a new API key, a generated password) or a confirmation, and Done to close.
 */
import type { ReactNode } from 'react';
import { useSettingsT } from './i18n.ts';

export function CreatedPanel(props: { onClose: () => void; children: ReactNode }) {
  const t = useSettingsT();
  return (
    <div className="settings-form">
      {props.children}
      <div className="settings-actions">
        <button type="button" className="primary" onClick={props.onClose}>
          {t('settings.done')}
        </button>
      </div>
    </div>
  );
}
