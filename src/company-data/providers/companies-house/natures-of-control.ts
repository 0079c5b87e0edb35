/**
 * A PSC's `natures_of_control` state bands, not figures: "ownership-of-shares-25-to-50-percent" means
 * more than 25 % and at most 50 %. The percentage given is the band's lower bound — what the register
 * guarantees — so a 75-to-100 holder is 75, never a made-up 100. The same bands exist "as-trust",
 * "as-firm" and for LLPs and overseas entities ("...-more-than-25-percent-..."); the highest band
 * found wins. Rights to appoint directors or "significant influence" carry no percentage.
 */
const BAND =
  /^(?:part-)?(ownership-of-shares|right-to-share-surplus-assets|voting-rights)-(?:(\d+)-to-\d+|more-than-(\d+))-percent/;

export function percentages(natures: readonly string[]): {
  ownership: number | null;
  votingRights: number | null;
} {
  let ownership: number | null = null;
  let votingRights: number | null = null;
  for (const nature of natures) {
    const m = BAND.exec(nature);
    if (!m) continue;
    const lower = Number(m[2] ?? m[3]);
    // An LLP has no shares: its members' right to the surplus assets is their ownership.
    if (m[1] !== 'voting-rights') ownership = Math.max(ownership ?? 0, lower);
    else votingRights = Math.max(votingRights ?? 0, lower);
  }
  return { ownership, votingRights };
}
