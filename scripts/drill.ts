/**
 * `npm run drill -- <name> [options]`: runs one reliability drill from `drills/<name>.ts` against a
 * real server process and prints its figures. What each drill proves, and its last figures, are in
 * docs/reliability.md.
 */
import fs from 'node:fs';
import path from 'node:path';

const [name, ...args] = process.argv.slice(2);
const dir = path.resolve(import.meta.dirname, '../drills');
const available = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && !f.startsWith('_'))
  .map((f) => f.slice(0, -3))
  .sort();
if (!name || name === '--help' || name === '-h' || !available.includes(name)) {
  if (name && !['--help', '-h'].includes(name)) process.stderr.write(`Unknown drill: ${name}\n`);
  process.stdout.write(`Usage: npm run drill -- <name> [options]\nDrills: ${available.join(', ')}\n`);
  process.exit(name && !['--help', '-h'].includes(name) ? 2 : 0);
}
const mod = (await import(path.join(dir, `${name}.ts`))) as { run(args: string[]): Promise<number> };
process.exit(await mod.run(args));
