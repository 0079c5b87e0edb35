export { loadEuFsf } from './eu-fsf.ts';
export { loadFtm } from './ftm.ts';
export {
  loadLegalFormsFromDirectory,
  loadOfacSdnDirectory,
  loadReferenceDirectory,
} from './load-directory.ts';
export { applyOfacRemarks, loadOfacSdn, type OfacSdnFiles } from './ofac-sdn.ts';
export { loadUkHmt } from './uk-hmt.ts';
export { loadUnConsolidated } from './un-consolidated.ts';
