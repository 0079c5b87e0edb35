import type { Config } from '../config.ts';
import type { ClientPortalRow } from '../db/schema.ts';
import { serviceBaseUrl } from '../shared/service-url.ts';
import type { PORTAL_LANGUAGES, PORTAL_STATUSES } from './schemas.ts';

const iso = (d: Date | string) => new Date(d).toISOString();

/** A portal as the API shows it; its `url` on the service's base (src/shared/service-url.ts). */
export function presentClientPortal(p: ClientPortalRow, config: Pick<Config, 'publicUrl' | 'host' | 'port'>) {
  return {
    id: p.id,
    name: p.name,
    status: p.status as (typeof PORTAL_STATUSES)[number],
    default_language: p.default_language as (typeof PORTAL_LANGUAGES)[number],
    url: `${serviceBaseUrl(config)}/portal/`,
    accent_color: p.accent_color,
    logo_file_id: p.logo_file_id,
    wait_steps: p.wait_steps.map((s) => ({ key: s.key, title: s.title })),
    is_default: p.is_default,
    updated_at: iso(p.updated_at),
    created_at: iso(p.created_at),
  };
}
