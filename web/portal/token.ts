/**
 * The link's token. It arrives in the URL fragment (`/portal/#token=...`, never sent to the server
 * with the page request); it is then kept in sessionStorage, so a reload of the tab still works,
 * and removed from the address bar, so it is not shared by a copied address or a screenshot.
 */
const KEY = 'vericase.portal.token';

export function takeToken(): string | null {
  const fromHash = new URLSearchParams(window.location.hash.replace(/^#/, '')).get('token');
  if (fromHash) {
    try {
      sessionStorage.setItem(KEY, fromHash);
    } catch {
      // storage refused (private mode): the token lives for this page only
    }
    history.replaceState(null, '', window.location.pathname + window.location.search);
    return fromHash;
  }
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}
