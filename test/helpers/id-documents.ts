/**
 * id_document fixtures: ICAO TD3 (passport) MRZ lines with real check digits, passport PNGs carrying
 * the MRZ and the sandbox outcome in tEXt chunks, a PNG padded past a size, and a case with one person.
 */
import assert from 'node:assert/strict';
import { crc32, makePng } from './files.ts';
import type { Client } from './harness.ts';

const charValue = (c: string) =>
  c === '<' ? 0 : /[0-9]/.test(c) ? Number(c) : c.charCodeAt(0) - 'A'.charCodeAt(0) + 10;

/** ICAO 9303 check digit (weights 7, 3, 1). */
export function checkDigit(s: string): string {
  const weights = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < s.length; i++) sum += charValue(s[i]) * weights[i % 3];
  return String(sum % 10);
}

const pad = (s: string, n: number) => (s + '<'.repeat(n)).slice(0, n);

export interface Td3Options {
  lastName?: string;
  firstName?: string;
  number?: string;
  issuing?: string;
  nationality?: string;
  /** YYMMDD */
  birth?: string;
  sex?: 'M' | 'F' | '<';
  /** YYMMDD */
  expiry?: string;
  /** Break the birth date check digit. */
  badCheckDigit?: boolean;
}

/** A passport MRZ (two lines of 44) with correct check digits unless `badCheckDigit`. */
export function td3Mrz(o: Td3Options = {}): string[] {
  const last = (o.lastName ?? 'CURIE').toUpperCase().replace(/[^A-Z]+/g, '<');
  const first = (o.firstName ?? 'MARIE').toUpperCase().replace(/[^A-Z]+/g, '<');
  const line1 = pad(`P<${o.issuing ?? 'FRA'}${last}<<${first}`, 44);
  const number = pad(o.number ?? '18AB12345', 9);
  const birth = o.birth ?? '671107';
  const expiry = o.expiry ?? '341231';
  const personal = pad('', 14);
  const numberCd = checkDigit(number);
  let birthCd = checkDigit(birth);
  if (o.badCheckDigit) birthCd = String((Number(birthCd) + 1) % 10);
  const expiryCd = checkDigit(expiry);
  const personalCd = '0';
  const composite = checkDigit(
    `${number}${numberCd}${birth}${birthCd}${expiry}${expiryCd}${personal}${personalCd}`,
  );
  const line2 = `${number}${numberCd}${o.nationality ?? 'FRA'}${birth}${birthCd}${o.sex ?? 'F'}${expiry}${expiryCd}${personal}${personalCd}${composite}`;
  assert.equal(line2.length, 44);
  return [line1, line2];
}

/**
 * A TD1 (three lines of 30) or TD2 (two lines of 36) MRZ of Marie Curie, born 1967-11-07, expiring
 * 2034-12-31, with the given document code and country (3 letters, `D<<` for Germany); check
 * digits are right.
 */
export function idCardMrz(shape: 'TD1' | 'TD2', code: string, country = 'FRA'): string[] {
  const number = 'AB1234567';
  const dates = `671107${checkDigit('671107')}F341231${checkDigit('341231')}`;
  if (shape === 'TD1') {
    const line1 = pad(`${pad(code, 2)}${country}${number}${checkDigit(number)}`, 30);
    const line2 = pad(`${dates}${country}`, 29);
    const composite = checkDigit(
      line1.slice(5, 30) + line2.slice(0, 7) + line2.slice(8, 15) + line2.slice(18, 29),
    );
    return [line1, line2 + composite, pad('CURIE<<MARIE', 30)];
  }
  const line1 = pad(`${pad(code, 2)}${country}CURIE<<MARIE`, 36);
  const body = `${number}${checkDigit(number)}${country}${dates}${'<'.repeat(7)}`;
  const composite = checkDigit(body.slice(0, 10) + body.slice(13, 20) + body.slice(21, 35));
  return [line1, body + composite];
}

/**
 * A French identity card MRZ of 1988–2021 (IDFRA, two lines of 36): no expiry date; the card number
 * starts with the issue month (YYMM). Check digits are right.
 */
export function frenchIdCardMrz(o: {
  lastName?: string;
  firstName?: string;
  issued: string;
  birth?: string;
}) {
  const line1 = `IDFRA${pad((o.lastName ?? 'CURIE').toUpperCase(), 25)}750123`;
  const number = `${o.issued}75012345`;
  const birth = o.birth ?? '671107';
  const head = `${number}${checkDigit(number)}${pad((o.firstName ?? 'MARIE').toUpperCase(), 14)}${birth}${checkDigit(birth)}F`;
  const line2 = `${head}${checkDigit(line1 + head)}`;
  assert.equal(line1.length, 36);
  assert.equal(line2.length, 36);
  return [line1, line2];
}

/**
 * A Swiss driving licence MRZ (credit-card format, ASTRA; 9 + 30 + 30, no check digit): authority
 * code and serial, language code, `FA` + state + PIN (9 digits) + version (3 digits), birth date,
 * then the name line. Marie Curie born 1967-11-07 unless told otherwise.
 */
export function swissLicenceMrz(
  o: { lastName?: string; firstName?: string; birth?: string; state?: string; code?: string } = {},
): string[] {
  const name = `${(o.lastName ?? 'CURIE').toUpperCase()}<<${(o.firstName ?? 'MARIE').toUpperCase().replace(/ /g, '<')}`;
  const lines = [
    'AAA001F<<',
    `${o.code ?? 'FA'}${o.state ?? 'CHE'}123456789001<<${o.birth ?? '671107'}<<<<<`,
    pad(name, 30),
  ];
  assert.deepEqual(
    lines.map((l) => l.length),
    [9, 30, 30],
  );
  return lines;
}

/** A small passport image: the MRZ and/or `sandbox_outcome` as PNG tEXt chunks. */
export function passportPng(
  opts: { mrz?: string[]; outcome?: string; width?: number; height?: number } = {},
) {
  const text: Record<string, string> = {};
  if (opts.mrz) text.mrz = opts.mrz.join('\n');
  if (opts.outcome) text.sandbox_outcome = opts.outcome;
  return makePng({ width: opts.width ?? 8, height: opts.height ?? 6, text });
}

/** The PNG with a private ancillary chunk (`vcPd`) inserted before IEND so the file is `totalBytes` long. */
export function padPng(png: Buffer, totalBytes: number): Buffer {
  const iend = png.length - 12;
  const dataLen = totalBytes - png.length - 12;
  assert.ok(dataLen >= 0, 'the PNG is already larger');
  const data = Buffer.alloc(dataLen, 0x61);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(dataLen);
  const type = Buffer.from('vcPd', 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(type, data));
  const out = Buffer.concat([png.subarray(0, iend), len, type, data, crc, png.subarray(iend)]);
  assert.equal(out.length, totalBytes);
  return out;
}

/** A case with one company and one individual (Marie Curie, born 1967-11-07 unless overridden). */
export async function caseWithPerson(api: Client, person: Record<string, unknown> = {}) {
  const res = await api.post('/v1/cases', {
    name: 'ID document case',
    companies: [{ name: 'Main', country: 'FR' }],
    individuals: [
      {
        first_name: 'Marie',
        last_name: 'Curie',
        birth_date: '1967-11-07',
        address: { country: 'FR' },
        relations: [{ roles: ['legal_representative'] }],
        ...person,
      },
    ],
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return {
    caseId: res.body.id as string,
    individualId: res.body.individuals[0].id as string,
    companyId: res.body.companies[0].id as string,
  };
}
