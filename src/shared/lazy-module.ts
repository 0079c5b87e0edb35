/**
 * Heavy packages (PDF, OCR, mail, HTML sanitising, templates, XML) are loaded on first use rather than
 * at start-up: `vericase serve` answers sooner and an idle process holds less (docs/performance.md).
 * Each loader caches its module, so later calls cost a resolved promise or a property read.
 */
import { createRequire } from 'node:module';

/** `lazyImport(() => import('pdf-lib'))`: the import runs on the first call, once. */
export function lazyImport<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load();
    return loading;
  };
}

const require = createRequire(import.meta.url);

/** For synchronous callers of a package with a CommonJS build: required on the first call, once. */
export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= require(id) as T;
    return loaded;
  };
}

export const loadPdfLib = lazyImport(() => import('pdf-lib'));
export const loadUnpdf = lazyImport(() => import('unpdf'));
