/**
 * The fields the entity and relation forms share, over the form's values: an individual's, a
 * company's, the relation's role, a shareholder's ownership and the choice of an entity. Adding asks for the names
 * (`required`: the API creates no entity without them); editing may leave them as they are.
 */
import { type FormEvent, useState } from 'react';
import { useActT } from '../act-i18n.ts';
import { formatDate } from '../case/i18n.ts';
import { FieldRefusal } from './field-refusal.tsx';

export type Role = 'legal_representative' | 'shareholder';
const ROLES: Role[] = ['legal_representative', 'shareholder'];

type Values = Record<string, string>;

/** The fields below that say a refusal naming them under themselves (ActFormDialog's `fields`). */
export const ENTITY_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'birth_date',
  'name',
  'registration_number',
  'country',
  'address.country',
] as const;

/** The earliest birth date the API takes (src/individuals/birth-date.ts: no one alive was born before). */
const EARLIEST_BIRTH_DATE = '1900-01-01';

/** Today in the browser's time zone, as a date input's value. */
function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
/** The change handler of the value named `k`. */
type Setter = (k: string) => (e: { target: { value: string } }) => void;

export function IndividualFields({ f, set, required }: { f: Values; set: Setter; required: boolean }) {
  const t = useActT();
  return (
    <>
      <label>
        {t('entity.firstName')}
        <input required={required} value={f.first_name ?? ''} onChange={set('first_name')} />
      </label>
      <FieldRefusal paths={['first_name']} />
      <label>
        {t('entity.lastName')}
        <input required={required} value={f.last_name ?? ''} onChange={set('last_name')} />
      </label>
      <FieldRefusal paths={['last_name']} />
      <label>
        {t('entity.email')}
        <input type="email" value={f.email ?? ''} onChange={set('email')} />
      </label>
      <FieldRefusal paths={['email']} />
      <BirthDateField value={f.birth_date ?? ''} onChange={set('birth_date')} />
    </>
  );
}

/**
 * A birth date between 1900 and today, as the API takes: the picker offers no other, and one typed
 * (2090 for 1990) is said under the field in the console's words before anything is sent, as the
 * server's refusal of it would be (the browser's bubble spoke its own language).
 */
function BirthDateField(props: { value: string; onChange: (e: { target: { value: string } }) => void }) {
  const t = useActT();
  const [wrong, setWrong] = useState<string | null>(null);
  const invalid = (e: FormEvent<HTMLInputElement>) => {
    const el = e.currentTarget;
    const { rangeOverflow, rangeUnderflow } = el.validity;
    // an incomplete date keeps the browser's check
    if (!rangeOverflow && !rangeUnderflow) return;
    e.preventDefault();
    setWrong(
      t(rangeOverflow ? 'entity.birthDateFuture' : 'entity.birthDateEarly', { date: formatDate(el.value) }),
    );
    el.focus();
  };
  return (
    <>
      <label>
        {t('entity.birthDate')}
        <input
          type="date"
          min={EARLIEST_BIRTH_DATE}
          max={today()}
          value={props.value}
          aria-invalid={wrong ? true : undefined}
          onInvalid={invalid}
          onChange={(e) => {
            setWrong(null);
            props.onChange(e);
          }}
        />
      </label>
      {wrong ? (
        <p className="error" role="alert">
          {wrong}
        </p>
      ) : (
        <FieldRefusal paths={['birth_date']} />
      )}
    </>
  );
}

export function CompanyFields({ f, set, required }: { f: Values; set: Setter; required: boolean }) {
  const t = useActT();
  return (
    <>
      <label>
        {t('entity.name')}
        <input required={required} value={f.name ?? ''} onChange={set('name')} />
      </label>
      <FieldRefusal paths={['name']} />
      <label>
        {t('entity.registrationNumber')}
        <input value={f.registration_number ?? ''} onChange={set('registration_number')} />
      </label>
      <FieldRefusal paths={['registration_number']} />
    </>
  );
}

export function RoleSelect({ value, onChange }: { value: Role; onChange: (role: Role) => void }) {
  const t = useActT();
  return (
    <label>
      {t('entity.role')}
      <select value={value} onChange={(e) => onChange(e.target.value as Role)}>
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {t(`role.${r}`)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The country field (an ISO code), with a refusal of it under it. */
export function CountryField({ f, set }: { f: Values; set: Setter }) {
  const t = useActT();
  return (
    <>
      <label>
        {t('entity.country')}
        <input value={f.country ?? ''} onChange={set('country')} />
      </label>
      <FieldRefusal paths={['country', 'address.country']} />
    </>
  );
}

/** A shareholder's percentage: shown only for that role. */
export function OwnershipField(props: { role: Role; value: string; onChange: (value: string) => void }) {
  const t = useActT();
  if (props.role !== 'shareholder') return null;
  return (
    <label>
      {t('entity.ownership')}
      <input
        type="number"
        min={0}
        max={100}
        step="0.01"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </label>
  );
}

/** A labelled choice among the case's entities (what a relation goes from or to). */
export function EntitySelect(props: {
  label: string;
  value: string;
  options: { id: string; name: string }[];
  onChange: (id: string) => void;
}) {
  return (
    <label>
      {props.label}
      <select value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </label>
  );
}
