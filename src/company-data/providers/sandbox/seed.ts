import { createHash } from 'node:crypto';

/** Deterministic choices from a text: the same text always gives the same numbers. */
export class Seed {
  private readonly bytes: Buffer;
  private at = 0;
  constructor(text: string) {
    this.bytes = createHash('sha256').update(text).digest();
  }
  /** An integer in [0, n). */
  int(n: number): number {
    const v = this.bytes.readUInt32BE(this.at % 28);
    this.at += 4;
    return v % n;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
  digits(count: number): string {
    let out = '';
    for (let i = 0; i < count; i++) out += String(this.int(10));
    return out;
  }
}
