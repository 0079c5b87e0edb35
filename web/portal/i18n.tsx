/** The chosen language's dictionary, handed down through React context. */
import { createContext, useContext } from 'react';
import { fill } from '../shared/i18n.ts';
import { type Language, MESSAGES, type Messages } from './messages.ts';

export type Translate = (key: keyof Messages, values?: Record<string, string | number>) => string;

export function translator(lang: Language): Translate {
  const dict = MESSAGES[lang];
  return (key, values) => (values ? fill(dict[key], values, lang) : dict[key]);
}

export const I18n = createContext<{ lang: Language; t: Translate }>({ lang: 'en', t: translator('en') });

export const useI18n = () => useContext(I18n);
