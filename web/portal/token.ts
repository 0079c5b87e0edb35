/**
 * The link's token. It arrives in the URL fragment (`/portal/#token=...`, never sent to the server
 * with the page request); it is then kept in sessionStorage, so a reload of the tab still works,
 * and removed from the address bar, so it is not shared by a copied address or a screenshot.
 */
import { useEffect, useState } from 'react';

const KEY = 'vericase.portal.token';

/** The fragment's token, if it has one: stored for the tab and taken out of the address bar. */
function tokenFromHash(): string | null {
  const fromHash = new URLSearchParams(window.location.hash.replace(/^#/, '')).get('token');
  if (!fromHash) return null;
  try {
    sessionStorage.setItem(KEY, fromHash);
  } catch {
    // storage refused (private mode): the token lives for this page only
  }
  history.replaceState(null, '', window.location.pathname + window.location.search);
  return fromHash;
}

export function takeToken(): string | null {
  const fromHash = tokenFromHash();
  if (fromHash) return fromHash;
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/**
 * The tab's token, and the next one: a second link opened in the same tab changes only the
 * fragment, so the page is not loaded again. It kept showing the first link's case, with the new
 * token left in the address bar; the new token now replaces it (and leaves the address bar).
 */
export function useLinkToken(): string | null {
  const [token, setToken] = useState(takeToken);
  useEffect(() => {
    const onHashChange = () => {
      const next = tokenFromHash();
      if (next) setToken(next);
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);
  return token;
}
