/**
 * The directory of vericase's package.json. Files that ship beside the code (docs/, web/dist,
 * package.json, the OpenAPI examples) are found from here, not from a module's own directory: the
 * same module runs from src/ and from the bundled build in node_modules/.cache (scripts/build-server.ts),
 * which sit at different depths.
 */
import fs from 'node:fs';
import path from 'node:path';

function find(): string {
  let dir = import.meta.dirname;
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      try {
        if ((JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'vericase')
          return dir;
      } catch {
        // not a readable manifest: keep going up
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`vericase's package.json was not found above ${import.meta.dirname}`);
    dir = parent;
  }
}

export const PACKAGE_ROOT: string = find();

/**
 * Whether this process runs the bundled build (bin/server-bundle.js) rather than src/: logged at
 * start-up, so an operator can tell which one ran.
 */
export const CODE_SOURCE: 'bundle' | 'sources' = import.meta.dirname.startsWith(
  path.join(PACKAGE_ROOT, 'src'),
)
  ? 'sources'
  : 'bundle';
