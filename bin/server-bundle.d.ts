// Types of bin/server-bundle.js (plain JavaScript: bin/vericase.js loads it before it knows whether
// this Node strips types).
export const ROOT: string;
export const BUNDLE_DIR: string;
export const KEEP_EXTERNAL: Set<string>;
export function keptExternal(source: string): boolean;
export function sourceFingerprint(root?: string): string;
export function currentBuild(dir?: string): { id: string; fingerprint: string } | null;
export function freshBundle(root?: string, dir?: string): string | null;
export function setCurrentBuild(id: string, fingerprint: string, dir?: string): void;
export function enableCompileCache(dir?: string): void;
export const OUTPUT_OPTIONS: {
  format: 'esm';
  sourcemap: true;
  charset: 'ascii';
  comments: false;
};
export function declareModuleBuild(buildDir: string): void;
