/**
 * The console's pages by address (under /console). A feature adds its page with one line here.
 */
import type { ComponentType } from 'react';
import { CasePage } from './features/case/CasePage.tsx';
import { CasesPage } from './features/cases/CasesPage.tsx';
import { QueuePage } from './features/cases/QueuePage.tsx';
import { NewCasePage } from './features/new-case/NewCasePage.tsx';
import { SettingsPage } from './features/settings/SettingsPage.tsx';

export interface ConsoleRoute {
  path: string;
  // biome-ignore lint/suspicious/noExplicitAny: each page takes its own route parameters
  component: ComponentType<any>;
}

export const ROUTES: ConsoleRoute[] = [
  { path: '/', component: CasesPage },
  { path: '/queue', component: QueuePage },
  { path: '/cases/new', component: NewCasePage },
  { path: '/cases/:id', component: ({ params }: { params: { id: string } }) => <CasePage id={params.id} /> },
  { path: '/settings/*?', component: SettingsPage },
];
