/**
 * A write from a case box or dialog (a risk, a review, a tag): whether it is under way, so its
 * button is disabled and it is not sent twice, and the server's refusal in the console's words
 * (problemMessage). `send` answers whether the write went through, so the caller closes its dialog
 * or clears its field only then.
 */
import { useState } from 'react';
import { problemMessage, useCaseT } from './i18n.ts';

export function useCaseWrite() {
  const t = useCaseT();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = async (write: () => Promise<{ error?: unknown }>): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      const res = await write();
      if (res.error) {
        setError(problemMessage(res.error, t));
        return false;
      }
      return true;
    } catch {
      // no answer at all (the network, the server gone): said, and the button usable again
      setError(t('case.error'));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, send };
}
