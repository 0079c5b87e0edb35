/** What this reads of an action (web/portal/api.ts's Action has it; described by shape so the file loads without the DOM). */
interface SignedAction {
  id: string;
  signature?: { document_name: string; signer: { name: string }; signed_at: string | null } | null;
}

/**
 * What tells apart signed documents of the same name (one template signed twice): the signer's
 * name when the signers differ, else when each was signed. No entry for a name no other one shares.
 */
export function signedDocumentDetails(actions: SignedAction[], lang: string): Map<string, string> {
  const details = new Map<string, string>();
  for (const a of actions) {
    const sig = a.signature;
    if (!sig) continue;
    const same = actions.filter((b) => b.signature?.document_name === sig.document_name);
    if (same.length < 2) continue;
    const signers = new Set(same.map((b) => b.signature?.signer.name));
    details.set(
      a.id,
      signers.size === same.length
        ? sig.signer.name
        : sig.signed_at
          ? new Date(sig.signed_at).toLocaleString(lang, { dateStyle: 'long', timeStyle: 'short' })
          : sig.signer.name,
    );
  }
  return details;
}
