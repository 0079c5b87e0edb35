/**
 * A process that starts a sanctions-list load in a child (loadDirectoryInChild) and prints the pids
 * of its children, then waits to be killed: test/screening-list-load-child.test.ts kills it
 * mid-load. Arguments: the reference directory, the directory for the index file.
 */
import fs from 'node:fs';
import { loadDirectoryInChild } from '../../src/screening/service/list-load.ts';

const [dir, indexDir] = process.argv.slice(2);
loadDirectoryInChild(dir, {}, { indexDir }).catch(() => {});
/** The processes whose parent is this one (`fork` has created the loader by now). */
const children = fs
  .readdirSync('/proc')
  .filter((name) => /^\d+$/.test(name))
  .filter((pid) => {
    try {
      return (
        fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1] === String(process.pid)
      );
    } catch {
      return false;
    }
  })
  .map(Number);
console.log(JSON.stringify({ children }));
setInterval(() => {}, 60_000);
