import type { Module } from '../modules.ts';
import { closeBrowsers } from './chromium.ts';

/** The PDF renderer: nothing starts here (the browser starts on first render); stopping closes it. */
export const pdfRenderModule: Module = {
  name: 'pdf-render',
  install() {},
  stop: () => closeBrowsers(),
};
