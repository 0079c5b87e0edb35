/**
 * The end of a settings form: the server's refusal (announced), then Cancel and the submit button,
 * which is disabled while the write is under way so it is not sent twice.
 */
import { ErrorNote } from './common.tsx';
import { useSettingsT } from './i18n.ts';

export function FormActions(props: {
  error: string | null;
  busy: boolean;
  submitLabel: string;
  onCancel: () => void;
}) {
  const t = useSettingsT();
  return (
    <>
      <ErrorNote message={props.error} />
      <div className="settings-actions">
        <button type="button" onClick={props.onCancel}>
          {t('settings.cancel')}
        </button>
        <button type="submit" className="primary" disabled={props.busy}>
          {props.submitLabel}
        </button>
      </div>
    </>
  );
}
