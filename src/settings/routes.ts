import type { App, AppContext } from '../app-context.ts';
import { errors } from '../http/common-schemas.ts';
import { refuseUncoveredEkycProfiles } from './ekyc-profiles.ts';
import { getSettings, patchSettings, replaceSettings } from './repository.ts';
import { WorkspaceSettings, WorkspaceSettingsPatch } from './schemas.ts';

export function registerSettingsRoutes(app: App, ctx: AppContext): void {
  const tags = ['Workspace'];
  app.get(
    '/workspace/settings',
    {
      schema: {
        tags,
        summary: 'Read the workspace settings',
        response: { 200: WorkspaceSettings, ...errors() },
      },
    },
    (req) => getSettings(ctx.db, req.principal.workspaceId),
  );
  app.patch(
    '/workspace/settings',
    {
      schema: {
        tags,
        summary: 'Change workspace settings (deep merge)',
        body: WorkspaceSettingsPatch,
        response: { 200: WorkspaceSettings, ...errors(400) },
      },
    },
    (req) => {
      refuseUncoveredEkycProfiles(req.body);
      return patchSettings(ctx.db, req.principal.workspaceId, req.body);
    },
  );
  app.put(
    '/workspace/settings',
    {
      schema: {
        tags,
        summary: 'Replace the workspace settings (what is left out takes its default)',
        body: WorkspaceSettingsPatch,
        response: { 200: WorkspaceSettings, ...errors(400) },
      },
    },
    (req) => {
      refuseUncoveredEkycProfiles(req.body);
      return replaceSettings(ctx.db, req.principal.workspaceId, req.body);
    },
  );
}
