// Loaded with `node --import` by test/startup-background.test.ts: writes the packages this process
// loaded to RECORD_MODULES_FILE when it exits, so a test can tell which ones start-up pulled in.
import fs from 'node:fs';
import { registerHooks } from 'node:module';

const packages = new Set();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(resolved.url);
    if (m) packages.add(m[1]);
    return resolved;
  },
});
process.on('exit', () => {
  if (process.env.RECORD_MODULES_FILE)
    fs.writeFileSync(process.env.RECORD_MODULES_FILE, JSON.stringify([...packages].sort()));
});
