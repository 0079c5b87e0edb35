import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../http/errors.ts';
import { ASSET_NAME, type Asset, type AssetStore } from './assets.ts';

/** Sends a built file, gzipped when the client takes it and a gzip copy exists. */
export function sendAsset(req: FastifyRequest, reply: FastifyReply, asset: Asset) {
  reply.header('content-type', asset.type);
  if (asset.gzip) {
    // added to what the route already varies on (the portal page: accept-language)
    const vary = reply.getHeader('vary');
    reply.header('vary', vary ? `${vary}, accept-encoding` : 'accept-encoding');
    if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      reply.header('content-encoding', 'gzip');
      return reply.send(asset.gzip);
    }
  }
  return reply.send(asset.body);
}

/**
 * `GET <prefix>/assets/:name` for a page's hashed assets: the name carries the content hash, so the
 * file under it never changes and is cached for a year; any other name is a 404.
 */
export function hashedAssetHandler(store: AssetStore) {
  return async (req: FastifyRequest<{ Params: { name: string } }>, reply: FastifyReply) => {
    const { name } = req.params;
    const asset = ASSET_NAME.test(name) ? await store.get(`assets/${name}`) : null;
    if (!asset) return reply.code(404).send(errorBody(404, 'Asset not found'));
    reply.header('cache-control', 'public, max-age=31536000, immutable');
    reply.header('x-content-type-options', 'nosniff');
    return sendAsset(req, reply, asset);
  };
}
