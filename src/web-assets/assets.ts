/**
 * The built web pages (web/dist, made by `npm install`): reads them from disk once and keeps them,
 * with a gzip copy of the text ones. A missing build is reported (null), never cached, so a build
 * made while the service runs is picked up.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { PACKAGE_ROOT } from '../shared/package-root.ts';

export const WEB_DIST = path.join(PACKAGE_ROOT, 'web/dist');

export interface Asset {
  body: Buffer;
  gzip: Buffer | null;
  type: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json']);

/** A hashed asset's file name: letters, digits, `-`, `_`, `.`; no separator, no leading dot. */
export const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,200}$/;

export class AssetStore {
  readonly dir: string;
  private readonly cache = new Map<string, Asset>();
  constructor(dir = WEB_DIST) {
    this.dir = dir;
  }

  /** `relative` is trusted (a fixed page path, or a name that matched ASSET_NAME). */
  async get(relative: string): Promise<Asset | null> {
    const hit = this.cache.get(relative);
    if (hit) return hit;
    const ext = path.extname(relative);
    const type = TYPES[ext];
    if (!type) return null;
    let body: Buffer;
    try {
      body = await fs.readFile(path.join(this.dir, relative));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    const asset = { body, type, gzip: COMPRESSIBLE.has(ext) && body.length > 1024 ? gzipSync(body) : null };
    this.cache.set(relative, asset);
    return asset;
  }
}
