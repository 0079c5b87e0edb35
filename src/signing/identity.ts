import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import type forge from 'node-forge';
import type { AppContext } from '../app-context.ts';
import type { Db } from '../db/connect.ts';

export interface SigningIdentity {
  /** PKCS#12 bytes: the private key and its certificate. */
  p12: Buffer;
  password: string;
  certificatePem: string;
  /** The certificate's subject, e.g. `CN=vericase signing service host1`. */
  subject: string;
}

const SECRET_NAME = 'signing_p12';

/** The PKCS#12's bytes and password, before anything parsed them. */
interface Material {
  p12: Buffer;
  password: string;
  /** Names the identity's origin in an error. */
  source: string;
}

/** Per context (its configuration decides which identity), read once per process. */
const materials = new WeakMap<AppContext, Promise<Material>>();
/** Per context, opened once per process, on first use. */
const opened = new WeakMap<AppContext, Promise<SigningIdentity>>();

/**
 * node-forge (about 1 MB of source, a tenth of a second to load) is needed only to open or build a
 * PKCS#12, so it is imported then: a service that never signs never holds it.
 */
const loadForge = async (): Promise<typeof forge> => (await import('node-forge')).default;

/**
 * The service's signing identity: the configured PKCS#12 (`VERICASE_SIGNING_P12` and
 * `VERICASE_SIGNING_P12_PASSWORD`), else a self-signed certificate generated the first time any
 * process needs one and kept in `service_secrets`, so every process and every restart signs with
 * the same certificate. A file that cannot be read or opened fails loudly (no silent fallback to
 * the generated one: documents would be signed by a certificate the operator did not choose).
 */
export function signingIdentity(ctx: AppContext): Promise<SigningIdentity> {
  return oncePerContext(opened, ctx, () =>
    signingMaterial(ctx).then((m) => openP12(m.p12, m.password, m.source)),
  );
}

/**
 * The identity's bytes, read (or generated and stored) without opening them. Start-up reads them
 * so that opening the identity later needs no database connection (src/signing/module.ts).
 */
export function signingMaterial(ctx: AppContext): Promise<Material> {
  return oncePerContext(materials, ctx, () =>
    ctx.config.signingP12 ? fromFile(ctx.config.signingP12) : loadOrCreate(ctx.db),
  );
}

/** `make()`'s promise, kept per context; a failure is not kept: the next call tries again (a file fixed, a database back). */
function oncePerContext<T>(
  cache: WeakMap<AppContext, Promise<T>>,
  ctx: AppContext,
  make: () => Promise<T>,
): Promise<T> {
  let promise = cache.get(ctx);
  if (!promise) {
    promise = make();
    promise.catch(() => cache.delete(ctx));
    cache.set(ctx, promise);
  }
  return promise;
}

async function fromFile(conf: { path: string; password: string }): Promise<Material> {
  try {
    return { p12: await fs.readFile(conf.path), password: conf.password, source: 'VERICASE_SIGNING_P12' };
  } catch (err) {
    throw new Error(`VERICASE_SIGNING_P12: cannot read ${conf.path}: ${(err as Error).message}`);
  }
}

/** Opens a PKCS#12 the way @signpdf's P12 signer will, so a file it cannot use fails here, clearly. */
export async function openP12(p12: Buffer, password: string, source: string): Promise<SigningIdentity> {
  const forge = await loadForge();
  let bags: { cert: forge.pki.Certificate[]; key: forge.pki.rsa.PrivateKey | null };
  try {
    const parsed = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(p12.toString('binary')), false, password);
    const certs = parsed.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? [];
    const keys =
      parsed.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[forge.pki.oids.pkcs8ShroudedKeyBag] ??
      [];
    bags = {
      cert: certs.map((b) => b.cert).filter((c): c is forge.pki.Certificate => !!c),
      key: (keys[0]?.key as forge.pki.rsa.PrivateKey | undefined) ?? null,
    };
  } catch (err) {
    throw new Error(
      `${source}: not a PKCS#12 file this service can open (wrong password, or an algorithm node-forge lacks; ` +
        `re-export it with "openssl pkcs12 -export -legacy" or -keypbe/-certpbe PBE-SHA1-3DES): ${(err as Error).message}`,
    );
  }
  const key = bags.key;
  if (!key) throw new Error(`${source}: the PKCS#12 holds no private key (a shrouded RSA key is required)`);
  const cert = bags.cert.find((c) => {
    const pub = c.publicKey as forge.pki.rsa.PublicKey;
    return pub.n?.compareTo(key.n) === 0 && pub.e?.compareTo(key.e) === 0;
  });
  if (!cert) throw new Error(`${source}: no certificate in the PKCS#12 matches its private key`);
  return { p12, password, certificatePem: forge.pki.certificateToPem(cert), subject: subjectOf(cert) };
}

/** `CN=..., O=...` in the order the certificate lists them. */
export function subjectOf(cert: forge.pki.Certificate): string {
  return cert.subject.attributes.map((a) => `${a.shortName ?? a.name ?? a.type}=${a.value}`).join(', ');
}

/**
 * Inserts a generated identity unless one is there (a concurrent process may win: its row is kept
 * and read back), outside any transaction, so a caller's rollback never loses the certificate that
 * signed a document.
 */
async function loadOrCreate(db: Db): Promise<Material> {
  const existing = await read(db);
  if (existing) return existing;
  const password = randomBytes(24).toString('base64url');
  const p12 = await generate(password);
  await db
    .insertInto('service_secrets')
    .values({ name: SECRET_NAME, value: JSON.stringify({ p12: p12.toString('base64'), password }) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const kept = await read(db);
  if (!kept) throw new Error('the generated signing certificate could not be stored');
  return kept;
}

async function read(db: Db): Promise<Material | null> {
  const row = await db
    .selectFrom('service_secrets')
    .select('value')
    .where('name', '=', SECRET_NAME)
    .executeTakeFirst();
  if (!row) return null;
  const stored = JSON.parse(row.value) as { p12: string; password: string };
  return {
    p12: Buffer.from(stored.p12, 'base64'),
    password: stored.password,
    source: 'the stored signing certificate',
  };
}

/**
 * A self-signed RSA 2048 certificate valid ten years, for document signing (digitalSignature,
 * nonRepudiation; extended key usage emailProtection and document signing), as a PKCS#12 forge can
 * read back. The key pair comes from Node's crypto (native, fast); forge builds the certificate.
 */
export async function generate(password: string, host = os.hostname()): Promise<Buffer> {
  const forge = await loadForge();
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  const publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  // a positive serial (high bit clear) of 16 random bytes
  cert.serialNumber = `01${randomBytes(15).toString('hex')}`;
  const now = new Date();
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now);
  cert.validity.notAfter.setUTCFullYear(now.getUTCFullYear() + 10);
  const attrs = [
    { shortName: 'CN', value: `vericase signing service ${host}`.slice(0, 64) },
    { shortName: 'O', value: 'vericase' },
  ];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
    // 1.3.6.1.4.1.311.10.3.12: Microsoft's document signing, which PDF readers look for
    { name: 'extKeyUsage', emailProtection: true, '1.3.6.1.4.1.311.10.3.12': true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(key, forge.md.sha256.create());
  const asn1 = forge.pkcs12.toPkcs12Asn1(key, [cert], password, {
    algorithm: '3des',
    generateLocalKeyId: true,
  });
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
}
