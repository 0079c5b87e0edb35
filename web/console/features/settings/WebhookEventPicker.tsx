/**
 * The webhook form's events: "All events" (`*`), then per family a box for the whole family
 * (`Case.*`, which also takes events added later) and a list to choose some of its events. It used
 * to be a free-text field: a typo came back as the API's list of sixty names, and the names had to
 * be known beforehand. Names subscribed through the API that the form does not offer are kept.
 */
import { useState } from 'react';
import type { SettingsKey, SettingsT } from './i18n.ts';
import { EVENT_FAMILIES, notOffered } from './webhook-events.ts';

export function WebhookEventPicker(props: {
  t: SettingsT;
  chosen: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
}) {
  const { t, chosen } = props;
  const all = chosen.has('*');
  const kept = notOffered(chosen);
  // the lists that open with the form: those where some events are chosen (not re-evaluated after,
  // so a list does not close under the pointer when its last box is unticked)
  const [openAtFirst] = useState(
    () =>
      new Set(
        EVENT_FAMILIES.filter((f) => !chosen.has(`${f.family}.*`) && f.events.some((e) => chosen.has(e))).map(
          (f) => f.family,
        ),
      ),
  );
  const toggle = (name: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(name);
    else next.delete(name);
    props.onChange(next);
  };
  return (
    <fieldset className="event-picker" aria-describedby="webhook-events-hint">
      <legend>{t('webhooks.events')}</legend>
      <p id="webhook-events-hint" className="settings-hint">
        {t('webhooks.eventsHint')}
      </p>
      <label className="check">
        <input type="checkbox" checked={all} onChange={(e) => toggle('*', e.target.checked)} />
        {t('webhooks.allEvents')} <code>*</code>
      </label>
      <div className="event-families">
        {EVENT_FAMILIES.map(({ family, events }) => {
          const wildcard = `${family}.*`;
          // a family of one event has no list: its box stands for that event too
          const single = events.length === 1 ? events[0] : null;
          const whole = all || chosen.has(wildcard) || (single !== null && chosen.has(single));
          const some = events.filter((e) => chosen.has(e)).length;
          const label = t(`webhooks.family.${family}` as SettingsKey);
          return (
            <fieldset key={family} className="event-family" disabled={all}>
              <legend>{label}</legend>
              <label className="check">
                <input
                  type="checkbox"
                  checked={whole}
                  onChange={(e) => {
                    const next = new Set(chosen);
                    if (e.target.checked) next.add(wildcard);
                    else {
                      next.delete(wildcard);
                      if (single) next.delete(single);
                    }
                    props.onChange(next);
                  }}
                />
                {t('webhooks.familyEvery')} <code>{wildcard}</code>
              </label>
              {single === null ? (
                <details open={openAtFirst.has(family)}>
                  <summary>
                    {t('webhooks.choose', { chosen: whole ? events.length : some, total: events.length })}
                  </summary>
                  <div className="event-names">
                    {events.map((name) => (
                      <label key={name} className="check">
                        <input
                          type="checkbox"
                          checked={whole || chosen.has(name)}
                          disabled={whole}
                          onChange={(e) => toggle(name, e.target.checked)}
                        />
                        <code>{name}</code>
                      </label>
                    ))}
                  </div>
                </details>
              ) : null}
            </fieldset>
          );
        })}
      </div>
      {kept.length ? <p className="settings-hint">{t('webhooks.kept', { names: kept.join(', ') })}</p> : null}
    </fieldset>
  );
}
