/**
 * The refusal of an action form (launch checks, review, add an entity, share the portal...), in the
 * console's words and announced (role alert); nothing while there is none.
 */
import { useLang } from '../shell/i18n.tsx';
import { useActT } from './act-i18n.ts';
import { knownRefusal } from './known-refusals.ts';

export function ActFailed(props: { error: string | null | undefined }) {
  const t = useActT();
  const { lang } = useLang();
  if (!props.error) return null;
  return (
    <p className="error" role="alert">
      {t('act.failed', { message: knownRefusal(props.error, lang) ?? props.error })}
    </p>
  );
}
