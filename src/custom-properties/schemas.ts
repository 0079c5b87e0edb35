import { type TProperties, Type } from 'typebox';
import { DateTime, Nullable } from '../http/common-schemas.ts';

export const TARGET_ENTITIES = ['case', 'company', 'individual'] as const;
export type TargetEntity = (typeof TARGET_ENTITIES)[number];
export const PROPERTY_TYPES = [
  'boolean',
  'choices',
  'countries',
  'date',
  'email',
  'numeric',
  'phone_number',
  'text',
  'url',
] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

const common = {
  id: Type.String({ format: 'uuid', description: 'Stable for a key of a target entity in the workspace' }),
  label: Type.String({
    description: 'The key made readable: first letter capitalised, underscores as spaces',
  }),
  key: Type.String({ description: 'The key used in `custom_properties`' }),
  target_entity: Type.Enum(TARGET_ENTITIES),
  created_at: Type.String({ format: 'date-time', description: 'When the key first appeared on an entity' }),
  updated_at: Type.String({
    format: 'date-time',
    description: 'Latest update of an entity carrying the key',
  }),
  archived_at: Nullable(DateTime),
};
const variant = <T extends PropertyType, P extends TProperties = Record<never, never>>(type: T, extra?: P) =>
  Type.Object({ ...common, type: Type.Literal(type), ...(extra as P) }, { title: type });

const AllowMultiple = Type.Object({ allow_multiple: Type.Boolean() });
const Option = Type.Object({ label: Type.String(), key: Type.String() });
const simple = [
  variant('boolean'),
  variant('date'),
  variant('email'),
  variant('phone_number'),
  variant('url'),
] as const;
const numeric = variant('numeric', {
  settings: Type.Object({
    format: Type.Enum(['number', 'percent', 'currency']),
    min: Nullable(Type.Number()),
    max: Nullable(Type.Number()),
    currency_code: Nullable(Type.String()),
  }),
});
const countries = variant('countries', { settings: AllowMultiple });
const text = variant('text', { settings: Type.Object({ is_multi_line: Type.Boolean() }) });

/** A custom property definition as listed (choices without their options). */
export const CustomProperty = Type.Union([
  ...simple,
  numeric,
  countries,
  text,
  variant('choices', { settings: AllowMultiple }),
]);

/** One definition in detail: choices carry their options (every value in use). */
export const CustomPropertyDetailed = Type.Union([
  ...simple,
  numeric,
  countries,
  text,
  variant('choices', {
    settings: AllowMultiple,
    options: Type.Array(Option, { description: 'Every value in use, sorted' }),
  }),
]);

export const TargetParam = Type.Object({
  target_entity: Type.Enum(TARGET_ENTITIES, { description: 'Entity kind the properties belong to' }),
});
export const TargetKeyParam = Type.Object({
  target_entity: Type.Enum(TARGET_ENTITIES, { description: 'Entity kind the properties belong to' }),
  key: Type.String({ minLength: 1, maxLength: 200, description: 'The custom property key' }),
});
