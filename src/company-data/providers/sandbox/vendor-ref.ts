import { RegistryError } from '../../provider.ts';

/**
 * A sandbox record is its own identifier: the vendor_ref encodes the name and registration number
 * shown by the search, so a fetch (by anyone, any time later) derives the same profile from it.
 * A bare registration number (what a company record holds when it was typed, not imported) is
 * accepted too: it is the company a search by that number finds.
 */
export interface SandboxRecord {
  name: string;
  registrationNumber: string;
}

const PREFIX = 'sbx_';

export function encodeVendorRef(record: SandboxRecord): string {
  const json = JSON.stringify({ n: record.name, r: record.registrationNumber });
  return PREFIX + Buffer.from(json, 'utf8').toString('base64url');
}

export function decodeVendorRef(vendorRef: string): SandboxRecord {
  if (!vendorRef.startsWith(PREFIX)) {
    const number = vendorRef.trim();
    if (!number) throw new RegistryError('sandbox', 'not_found', 'no sandbox company without a number');
    return { name: `Sandbox Company ${number}`, registrationNumber: number };
  }
  try {
    const v = JSON.parse(Buffer.from(vendorRef.slice(PREFIX.length), 'base64url').toString('utf8'));
    if (typeof v?.n !== 'string' || typeof v?.r !== 'string') throw new Error('shape');
    return { name: v.n, registrationNumber: v.r };
  } catch {
    throw new RegistryError('sandbox', 'not_found', `no sandbox company ${vendorRef}`);
  }
}
