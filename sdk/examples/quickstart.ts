/**
 * A typed walk through the API (type-checked by `npm run lint` in the service's repository): the
 * compiler knows each path's parameters, bodies and answers.
 *
 *   VERICASE_URL=http://localhost:3000 VERICASE_API_KEY=... node sdk/examples/quickstart.ts
 */
import { allPages, createVericaseClient, VericaseError } from '../src/index.ts';

export async function quickstart(baseUrl: string, apiKey: string): Promise<void> {
  const vc = createVericaseClient({ baseUrl, apiKey });
  const { data: created, error } = await vc.POST('/v1/cases', {
    body: {
      name: 'Acme onboarding',
      companies: [{ type: 'main', name: 'Acme SAS', country: 'FR' }],
    },
  });
  if (error) throw new VericaseError(error);
  // @ts-expect-error a case has no `title`: the compiler catches the typo
  console.log(created.title);
  const { data: detail } = await vc.GET('/v1/cases/{id}', { params: { path: { id: created.id } } });
  console.log(detail?.companies.map((c) => c.name));
  for await (const c of allPages((page) =>
    vc.GET('/v1/cases', { params: { query: { page, limit: 100 } } }),
  )) {
    console.log(c.id, c.status);
  }
}

if (import.meta.main) {
  await quickstart(process.env.VERICASE_URL ?? 'http://localhost:3000', process.env.VERICASE_API_KEY ?? '');
}
