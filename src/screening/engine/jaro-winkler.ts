/**
 * Jaro-Winkler similarity, hand-written on purpose: it is the innermost loop of every search (each
 * candidate name costs a token × token matrix of calls), so it works on char codes with two reusable
 * flag buffers and no per-call allocation, and it is tuned for short name tokens (≤ 64 chars; longer
 * inputs fall back to freshly allocated buffers). Library versions allocate arrays or strings per call
 * and are several times slower here.
 */

let flagsA = new Uint8Array(64);
let flagsB = new Uint8Array(64);

export function jaroWinkler(a: string, b: string, prefixScale = 0.1): number {
  if (a === b) return 1;
  const la = a.length;
  const lb = b.length;
  if (la === 0 || lb === 0) return 0;
  if (la > flagsA.length || lb > flagsB.length) {
    const n = Math.max(la, lb) * 2;
    flagsA = new Uint8Array(n);
    flagsB = new Uint8Array(n);
  }
  const fa = flagsA;
  const fb = flagsB;
  fa.fill(0, 0, la);
  fb.fill(0, 0, lb);
  const window = Math.max(0, (Math.max(la, lb) >> 1) - 1);
  let matches = 0;
  for (let i = 0; i < la; i++) {
    const lo = Math.max(0, i - window);
    const hi = Math.min(i + window + 1, lb);
    const c = a.charCodeAt(i);
    for (let j = lo; j < hi; j++) {
      if (fb[j] === 0 && b.charCodeAt(j) === c) {
        fa[i] = 1;
        fb[j] = 1;
        matches++;
        break;
      }
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  let k = 0;
  for (let i = 0; i < la; i++) {
    if (fa[i] === 0) continue;
    while (fb[k] === 0) k++;
    if (a.charCodeAt(i) !== b.charCodeAt(k)) transpositions++;
    k++;
  }
  const m = matches;
  const jaro = (m / la + m / lb + (m - transpositions / 2) / m) / 3;
  if (jaro <= 0.7) return jaro;
  let prefix = 0;
  const maxPrefix = Math.min(4, la, lb);
  while (prefix < maxPrefix && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  return jaro + prefix * prefixScale * (1 - jaro);
}
