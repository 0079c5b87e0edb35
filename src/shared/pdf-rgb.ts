import type { RGB } from 'pdf-lib';

/**
 * pdf-lib's `rgb()` without importing pdf-lib: the modules that define their colours at load time
 * are imported at start-up, and pdf-lib is loaded on first use (src/shared/lazy-module.ts).
 */
export const rgb = (red: number, green: number, blue: number): RGB =>
  ({ type: 'RGB', red, green, blue }) as RGB;
