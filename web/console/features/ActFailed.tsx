/**
 * The refusal of an action form (launch checks, review, add an entity, share the portal...), in the
 * console's words and announced (role alert); nothing while there is none.
 */
import { useLang } from '../shell/i18n.tsx';
import { useActT } from './act-i18n.ts';
import { useFieldLabel } from './field-label.ts';
import { isOutage, knownRefusal } from './known-refusals.ts';

export function ActFailed(props: { error: string | null | undefined }) {
  const t = useActT();
  const { lang } = useLang();
  const label = useFieldLabel();
  if (!props.error) return null;
  const message = knownRefusal(props.error, lang, label) ?? props.error;
  return (
    <p className="error" role="alert">
      {isOutage(props.error) ? message : t('act.failed', { message })}
    </p>
  );
}
