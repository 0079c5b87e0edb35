import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Client, getHarness } from './harness.ts';

/** A template of `kind` with one version of `content`, published (what a signature check needs). */
export async function publishedTemplate(
  api: Client,
  key: string,
  content: string,
  kind: 'electronic_signature' | 'report' = 'electronic_signature',
): Promise<void> {
  const t = await api.post('/v1/document-templates', { key, name: `Template ${key}`, kind });
  if (t.status !== 201) throw new Error(`template: ${t.status} ${JSON.stringify(t.body)}`);
  const v = await api.post(`/v1/document-templates/${key}/versions`, { content });
  if (v.status !== 201) throw new Error(`version: ${v.status} ${JSON.stringify(v.body)}`);
  const p = await api.post(`/v1/document-templates/${key}/versions/${v.body.number}/publish`);
  if (p.status !== 200) throw new Error(`publish: ${p.status} ${JSON.stringify(p.body)}`);
}

/** POST .../render through the app, keeping the bytes (the JSON client would decode them as text). */
export async function renderPdf(api: Client, caseId: string, key: string, body?: unknown) {
  const { app } = await getHarness();
  const res = await app.inject({
    method: 'POST',
    url: `/v1/cases/${caseId}/document-templates/${key}/render`,
    headers: { 'x-service-api-key': api.key },
    ...(body !== undefined ? { payload: body as object } : {}),
  });
  const json = String(res.headers['content-type'] ?? '').includes('json') ? JSON.parse(res.body) : undefined;
  return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload, json };
}

/** The text of a PDF, read by poppler's pdftotext (layout kept). */
export function pdfText(pdf: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-pdftext-'));
  try {
    fs.writeFileSync(path.join(dir, 'd.pdf'), pdf);
    return execFileSync('pdftotext', ['-layout', path.join(dir, 'd.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A PDF's document properties as poppler's pdfinfo prints them (`Title`, `Creator`, `Producer`, ...). */
export function pdfInfo(pdf: Buffer): Record<string, string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-pdfinfo-'));
  try {
    fs.writeFileSync(path.join(dir, 'd.pdf'), pdf);
    const out = execFileSync('pdfinfo', [path.join(dir, 'd.pdf')], { encoding: 'utf8' });
    return Object.fromEntries(
      out
        .split('\n')
        .map((line) => /^([^:]+):\s*(.*)$/.exec(line))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => [m[1].trim(), m[2].trim()]),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
