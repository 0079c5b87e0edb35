/**
 * Builds the web pages (web/, Vite) into web/dist. Run by `npm install` / `npm ci` (the root's
 * `prepare` script), so a checkout is served complete after one command. A production install
 * without dev dependencies has no Vite: it says so and leaves the service answering 503 on /portal/.
 */
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
let vite: typeof import('vite');
try {
  vite = await import('vite');
} catch (err) {
  if ((err as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw err;
  console.warn('build-web: vite is not installed (install without dev dependencies): web assets not built');
  process.exit(0);
}
// the portal's build empties web/dist first; the console's goes into web/dist/console after it
for (const config of ['web/vite.config.ts', 'web/console.vite.config.ts']) {
  await vite.build({ configFile: path.join(root, config), logLevel: 'warn' });
}
console.log('build-web: web assets (portal, console) built into web/dist');
