import type { TObject } from 'typebox';
import { type ListSpec, listQuerySchema } from '../http/list-query.ts';

/** listQuerySchema with the `sort` parameter telling the list's own default order. */
export function listQueryWithDefault(spec: ListSpec, defaultOrder: string): TObject {
  const schema = listQuerySchema(spec);
  const sort = schema.properties.sort as { description?: string } | undefined;
  if (sort)
    sort.description = `Comma-separated fields among ${spec.sort.join(', ')}; suffix \`.desc\` for descending. Default ${defaultOrder}.`;
  return schema;
}
