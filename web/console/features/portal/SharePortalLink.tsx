/**
 * Shares the client portal with one of the case's business contacts: the link is made by the API
 * (the token is in its fragment, valid VERICASE_PORTAL_LINK_TTL_HOURS) and shown to copy; sharing
 * again revokes the previous link, which the dialog says before the link is created.
 */
import { useState } from 'react';
import { api, unwrap } from '../../api/client.ts';
import { useFormatDate } from '../../shell/i18n.tsx';
import { ActFailed } from '../ActFailed.tsx';
import { useAction, useActT } from '../act-i18n.ts';
import { Dialog, DialogActions } from '../case/Dialog.tsx';

export function SharePortalLinkButton(props: {
  caseId: string;
  contacts: { id: string; name: string; email: string | null }[];
  onShared: () => void;
}) {
  const t = useActT();
  const formatDate = useFormatDate();
  const [open, setOpen] = useState(false);
  const usable = props.contacts.filter((c) => c.email);
  const [contactId, setContactId] = useState('');
  const [link, setLink] = useState<{ url: string; until: string; name: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const { busy, error, run } = useAction();

  const share = () =>
    run(async () => {
      const id = contactId || usable[0]?.id;
      const res = unwrap(
        await api.POST('/v1/cases/{id}/share-client-portal-link', {
          params: { path: { id: props.caseId } },
          body: { business_contact_id: id },
        }),
      );
      setLink({
        url: res.link,
        until: formatDate(res.expires_at),
        name: `${res.business_contact.first_name} ${res.business_contact.last_name}`,
      });
      props.onShared();
    });

  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        {t('portal.button')}
      </button>
      <Dialog
        title={t('portal.title')}
        open={open}
        onClose={() => {
          setOpen(false);
          setLink(null);
          setCopied(false);
        }}
      >
        {usable.length === 0 ? (
          <>
            <p>{t('portal.noContact')}</p>
            <div className="case-form-actions">
              <button type="button" className="case-button" onClick={() => setOpen(false)}>
                {t('act.close')}
              </button>
            </div>
          </>
        ) : link ? (
          <div className="act-form">
            <p>{t('portal.link', { name: link.name, until: link.until })}</p>
            <input
              readOnly
              value={link.url}
              aria-label={t('portal.title')}
              onFocus={(e) => e.target.select()}
            />
            {/* the dialogs' one row of actions: Close, then what the dialog is for, at the right */}
            <div className="case-form-actions">
              <button type="button" className="case-button" onClick={() => setOpen(false)}>
                {t('act.close')}
              </button>
              <button
                type="button"
                className="case-button is-primary"
                onClick={() => void navigator.clipboard?.writeText(link.url).then(() => setCopied(true))}
              >
                {copied ? t('portal.copied') : t('portal.copy')}
              </button>
            </div>
          </div>
        ) : (
          <form
            className="act-form"
            onSubmit={(e) => {
              e.preventDefault();
              void share();
            }}
          >
            <label>
              {t('portal.contact')}
              <select
                value={contactId || usable[0].id}
                onChange={(e) => setContactId(e.target.value)}
                aria-describedby="portal-share-replaces"
              >
                {usable.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name} ({c.email})
                  </option>
                ))}
              </select>
            </label>
            {/* creating a link withdraws the one sent before: said before it is done, not found out
                by the contact whose link stopped working */}
            <p className="act-form-note muted small" id="portal-share-replaces">
              {t('portal.replaces')}
            </p>
            <ActFailed error={error} />
            <DialogActions
              error={null}
              busy={busy}
              cancelLabel={t('act.close')}
              submitLabel={busy ? t('act.busy') : t('portal.share')}
              onCancel={() => setOpen(false)}
            />
          </form>
        )}
      </Dialog>
    </>
  );
}
