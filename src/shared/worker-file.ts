/**
 * The file of a worker's module (a worker thread's or a child process's). A worker module is named `*.worker.ts`; run from the sources
 * it is that file (the caller's directory + name), run from the bundle (scripts/build-server.ts makes
 * every `*.worker.ts` an entry of its own) it is `<name>.worker.js` in the bundle's directory.
 */
import path from 'node:path';
import { CODE_SOURCE } from './package-root.ts';

export function workerFile(callerDir: string, file: `${string}.worker.ts`): string {
  if (CODE_SOURCE === 'sources') return path.join(callerDir, file);
  // in the bundle every module shares one directory: this one's
  return path.join(import.meta.dirname, `${path.basename(file, '.ts')}.js`);
}
