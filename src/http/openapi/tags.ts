/**
 * The document's tags, in the order the docs page shows them, each with what it groups. Every tag an
 * operation uses must be here (the OpenAPI test checks it); check types are added from the registry.
 */
export const TAGS: readonly { name: string; description: string }[] = [
  { name: 'Ping', description: 'Check that the service answers and which workspace a key opens.' },
  {
    name: 'Cases',
    description:
      'A case is one onboarding: a company, the people and companies around it, their checks, notes, documents and the final decision.',
  },
  { name: 'Companies', description: 'Companies in a case: the customer itself and its affiliates.' },
  { name: 'Individuals', description: 'People in a case: owners, representatives, contacts.' },
  {
    name: 'Case relations',
    description: 'Who owns or represents whom inside a case, with roles and ownership percentages.',
  },
  {
    name: 'Checks',
    description:
      'Verifications run on a company or an individual. Each type has its own create, retrieve and review operations below.',
  },
  { name: 'Notes', description: 'Notes and comments written on a case by reviewers or by API.' },
  { name: 'Tags', description: 'Workspace labels and the cases that carry them.' },
  { name: 'Templates', description: 'Case templates: a named set of checks launched together on a case.' },
  {
    name: 'Document templates',
    description: 'Handlebars documents rendered for a case, for reports and electronic signature.',
  },
  { name: 'Files', description: 'Uploading files for checks and downloading stored files.' },
  {
    name: 'Company data',
    description:
      'Registry search and company profiles, legal forms, available documents and document orders.',
  },
  { name: 'Screening', description: 'The loaded sanctions and watch lists, and direct searches in them.' },
  { name: 'Fraud database', description: "The workspace's own list of known fraudulent identifiers." },
  {
    name: 'Client portal',
    description:
      'The page where the end customer uploads proofs, verifies identity and signs: settings and links.',
  },
  { name: 'Webhooks', description: 'Event subscriptions, their signing secrets and the delivery log.' },
  { name: 'Activities', description: 'The timeline of what happened in the workspace, by whom.' },
  {
    name: 'Audit log',
    description: 'Every write in the workspace, by API key or console user, with when and from where.',
  },
  {
    name: 'Review queue',
    description: 'What waits for a reviewer across the workspace, and case counts per status.',
  },
  { name: 'Users', description: 'Console users of the workspace and their roles.' },
  { name: 'API keys', description: "The workspace's API keys: create (shown once), list, revoke." },
  { name: 'Custom properties', description: 'Workspace-defined fields on cases, companies and individuals.' },
  { name: 'Workspace', description: "The workspace's settings." },
  {
    name: 'Admin',
    description:
      'Operator endpoints for the whole service (workspaces, keys, list reloads), enabled by VERICASE_ADMIN_TOKEN and authenticated with it as a bearer token.',
  },
];
