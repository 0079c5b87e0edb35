import { EKYC_COUNTRIES } from '../checks/types/ekyc/countries.ts';
import { ApiError } from '../http/errors.ts';

/**
 * A verification profile for a country eKYC does not cover (LU), or for no country at all (XX),
 * could never be used: an eKYC check for such an address is refused whatever the profiles say.
 * Refused when the settings are written, naming each such key, rather than stored in silence.
 */
export function refuseUncoveredEkycProfiles(body: unknown): void {
  const profiles = (body as { checks?: { ekyc?: { profiles?: Record<string, unknown> | null } } })?.checks
    ?.ekyc?.profiles;
  if (!profiles) return;
  const uncovered = Object.keys(profiles).filter((country) => !EKYC_COUNTRIES.has(country));
  if (!uncovered.length) return;
  const supported = [...EKYC_COUNTRIES].join(' ');
  const details = uncovered.map((country) => ({
    path: `checks.ekyc.profiles.${country}`,
    message: `checks.ekyc.profiles.${country}: eKYC does not cover ${country}; supported: ${supported}`,
  }));
  throw new ApiError(400, details[0].message, details);
}
