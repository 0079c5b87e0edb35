/**
 * The API's types for the console: the ones generated for the SDK from the service's OpenAPI
 * document (sdk/src/schema.d.ts, `npm run sdk:generate`; test/sdk.test.ts fails when it is stale).
 * One generated file for both, so the console's calls are checked against the same document.
 */
export type { components, paths } from '../../../sdk/src/schema.d.ts';
