/**
 * Puts the captured examples (src/http/openapi/examples.json, written by
 * scripts/openapi-examples.ts from the running service) on the operations: the request body's
 * example, and the example of the response with the captured status.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../shared/package-root.ts';

type Captured = { request?: unknown; status: number; response?: unknown };
type Examples = Record<string, { success?: Captured; error?: Captured }>;

interface Media {
  schema?: unknown;
  example?: unknown;
}
interface Operation {
  operationId?: string;
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
}

let cached: Examples | undefined;
function examples(): Examples {
  cached ??= JSON.parse(
    fs.readFileSync(path.join(PACKAGE_ROOT, 'src/http/openapi/examples.json'), 'utf8'),
  ) as Examples;
  return cached;
}

function attach(op: Operation, c: Captured, withRequest: boolean): void {
  const body = op.requestBody?.content?.['application/json'];
  if (withRequest && body && c.request !== undefined) body.example = c.request;
  const media = op.responses?.[String(c.status)]?.content?.['application/json'];
  if (media && c.response !== undefined) media.example = c.response;
}

export function attachExamples(op: Operation): void {
  const found = op.operationId ? examples()[op.operationId] : undefined;
  if (!found) return;
  if (found.success) attach(op, found.success, true);
  if (found.error) attach(op, found.error, !found.success);
}
