import type { Module } from '../modules.ts';
import { closeMail, setMailLogger } from './send-mail.ts';

/** Outgoing mail: keeps the service's log for the no-SMTP fallback; stopping closes the SMTP connections. */
export const mailModule: Module = {
  name: 'mail',
  install(ctx, logger) {
    setMailLogger(ctx, logger.child({ module: 'mail' }));
  },
  stop: (ctx) => closeMail(ctx),
};
