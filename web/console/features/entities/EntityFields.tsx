/**
 * The fields the entity and relation forms share, over the form's values: an individual's, a
 * company's, the relation's role, a shareholder's ownership and the choice of an entity. Adding asks for the names
 * (`required`: the API creates no entity without them); editing may leave them as they are.
 */
import { useActT } from '../act-i18n.ts';

export type Role = 'legal_representative' | 'shareholder';
const ROLES: Role[] = ['legal_representative', 'shareholder'];

type Values = Record<string, string>;
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
      <label>
        {t('entity.lastName')}
        <input required={required} value={f.last_name ?? ''} onChange={set('last_name')} />
      </label>
      <label>
        {t('entity.email')}
        <input type="email" value={f.email ?? ''} onChange={set('email')} />
      </label>
      <label>
        {t('entity.birthDate')}
        <input type="date" value={f.birth_date ?? ''} onChange={set('birth_date')} />
      </label>
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
      <label>
        {t('entity.registrationNumber')}
        <input value={f.registration_number ?? ''} onChange={set('registration_number')} />
      </label>
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
