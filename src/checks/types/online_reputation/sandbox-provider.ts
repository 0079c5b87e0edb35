import type {
  OnlineReputationProvider,
  ReputationAnalysis,
  ReputationCompany,
  ReputationRisk,
} from './provider.ts';

/**
 * Sandbox online-reputation provider (docs/sandbox.md). The company name decides the reading,
 * case-insensitively: `prohibited` → prohibited risk, `high risk` → high risk, `inconclusive` → no
 * reading, `moderate risk` → moderate risk, anything else → low risk. The report, summary and
 * sources are generated deterministically from the company's data (same company, same text).
 */
export function sandboxReading(name: string): ReputationRisk | null {
  const n = name.toLowerCase();
  if (n.includes('prohibited')) return 'prohibited';
  if (n.includes('high risk')) return 'high';
  if (n.includes('inconclusive')) return null;
  if (n.includes('moderate risk')) return 'moderate';
  return 'low';
}

const SANDBOX_HOST = 'sandbox.vericase.example';

function slug(s: string): string {
  return (
    s
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'company'
  );
}

/**
 * A source is a link: `website_url` may be stored as a bare domain (`acme.fr`, accepted on write,
 * as the reference's plain string allows), which a client would resolve as a relative path.
 */
export function absoluteWebsite(url: string): string {
  return /^https?:\/\//i.test(url) ? url : `https://${url}`;
}

function sourcesFor(c: ReputationCompany): ReputationAnalysis['sources'] {
  const s = slug(c.name);
  const out: ReputationAnalysis['sources'] = [];
  if (c.website_url) out.push({ title: `${c.name}: official website`, url: absoluteWebsite(c.website_url) });
  if (c.registration_number) {
    out.push({
      title: `Company register extract (${c.country ?? 'unknown country'}) for ${c.registration_number}`,
      url: `https://${SANDBOX_HOST}/registry/${(c.country ?? 'xx').toLowerCase()}/${encodeURIComponent(c.registration_number)}`,
    });
  }
  out.push({
    title: `Press coverage of ${c.name}`,
    url: `https://${SANDBOX_HOST}/news/search?q=${encodeURIComponent(c.name)}`,
  });
  out.push({
    title: `Customer reviews of ${c.commercial_name ?? c.name}`,
    url: `https://${SANDBOX_HOST}/reviews/${s}`,
  });
  out.push({
    title: `Regulatory notices mentioning ${c.name}`,
    url: `https://${SANDBOX_HOST}/regulators/notices?entity=${encodeURIComponent(c.name)}`,
  });
  return out;
}

const RISK_WORDS: Record<ReputationRisk, string> = {
  low: 'LOW',
  moderate: 'MODERATE',
  high: 'HIGH',
  prohibited: 'PROHIBITED',
  inconclusive: 'INCONCLUSIVE',
};

function findings(risk: ReputationRisk, c: ReputationCompany, sourceCount: number): string[] {
  const who = c.commercial_name ? `${c.name} (trading as ${c.commercial_name})` : c.name;
  const base = [
    `${sourceCount} public sources were reviewed for ${who}.`,
    c.website_url
      ? `The company operates a website at ${c.website_url}, consistent with the declared identity.`
      : 'No official website was declared; the analysis relied on third-party material only.',
  ];
  switch (risk) {
    case 'low':
      return [
        ...base,
        'Press coverage is limited to ordinary business news (products, hiring, partnerships).',
        'No adverse media, litigation, sanctions-related or regulatory enforcement material was found.',
        'Customer reviews show no pattern of complaints suggesting fraud or misconduct.',
      ];
    case 'moderate':
      return [
        ...base,
        'Press coverage includes isolated negative articles (commercial disputes, late deliveries).',
        'Customer reviews contain recurring service complaints but no allegation of fraud.',
        'No sanctions-related or regulatory enforcement material was found.',
      ];
    case 'high':
      return [
        ...base,
        'Several articles report allegations of misleading commercial practices and unpaid suppliers.',
        'A consumer-protection authority published a warning naming the company.',
        'Customer reviews contain repeated reports of payments taken for goods never delivered.',
      ];
    case 'prohibited':
      return [
        ...base,
        'Sources associate the company with activities that compliance policies commonly prohibit (unlicensed financial services offered to the public).',
        'A regulator lists the company on a public blacklist of unauthorised entities.',
        'Press coverage reports an ongoing criminal investigation involving the company and its managers.',
      ];
    default:
      return [...base];
  }
}

function conclusion(risk: ReputationRisk): string {
  switch (risk) {
    case 'low':
      return 'The public material raises no concern. Reputation risk: LOW. No action is required.';
    case 'moderate':
      return 'The public material raises minor concerns that do not call the relationship into question. Reputation risk: MODERATE. Note the findings in the file.';
    case 'high':
      return 'The public material raises serious concerns. Reputation risk: HIGH. A compliance officer should review the findings before onboarding.';
    case 'prohibited':
      return 'The public material links the company to prohibited activities. Reputation risk: PROHIBITED. The relationship should not proceed without an escalated review.';
    default:
      return 'The public material does not allow a reading. Reputation risk: INCONCLUSIVE. A compliance officer should review the company manually.';
  }
}

/** The full plain-text report (deterministic: it depends on the company's data only). */
export function buildReport(
  risk: ReputationRisk | null,
  c: ReputationCompany,
  sources: ReputationAnalysis['sources'],
): string {
  const line = (label: string, value: string | null) => `  ${label.padEnd(21)}${value ?? 'not provided'}`;
  const lines = [
    `ONLINE REPUTATION ANALYSIS: ${c.name}`,
    '',
    'Subject',
    line('Legal name:', c.name),
    line('Commercial name:', c.commercial_name),
    line('Country:', c.country),
    line('Registration number:', c.registration_number),
    line('Registration date:', c.registration_date),
    line('Legal form:', c.legal_form),
    line('City:', c.city),
    line('Website:', c.website_url),
    line('Activities:', c.activities.length ? c.activities.join('; ') : null),
    '',
    'Scope',
    '  Company website, company register, press and news archives, customer review platforms,',
    '  regulatory notices and public blacklists, searched under the legal and commercial names.',
    '',
  ];
  if (risk === null) {
    lines.push(
      'Findings',
      `  1. The searches returned no material that could be attributed to ${c.name} with confidence`,
      '     (homonyms, or no public footprint).',
      '',
      'Assessment',
      '  No reading: the public material is insufficient to assess the reputation risk.',
      '  A compliance officer should review the company manually.',
    );
  } else {
    const f = findings(risk, c, sources.length);
    lines.push('Findings', ...f.map((x, i) => `  ${i + 1}. ${x}`), '', 'Assessment', `  ${conclusion(risk)}`);
    lines.push('', 'Sources', ...sources.map((s, i) => `  [${i + 1}] ${s.title}: ${s.url}`));
  }
  return lines.join('\n');
}

function summaryFor(risk: ReputationRisk | null, c: ReputationCompany, sourceCount: number): string {
  if (risk === null)
    return `No reading: no public material could be attributed to ${c.name} with confidence.`;
  const word = RISK_WORDS[risk].toLowerCase();
  const gist: Record<ReputationRisk, string> = {
    low: 'no adverse media or regulatory material found',
    moderate: 'isolated negative coverage and service complaints, no allegation of fraud',
    high: 'allegations of misleading practices and a consumer-protection warning',
    prohibited: 'linked to prohibited activities and listed by a regulator',
    inconclusive: 'the material does not allow a reading',
  };
  return `${c.name}: ${word} reputation risk across ${sourceCount} sources; ${gist[risk]}.`;
}

export const sandboxOnlineReputationProvider: OnlineReputationProvider = {
  name: 'online_reputation_provider_1',
  async analyze(company) {
    const risk = sandboxReading(company.name);
    const sources = risk === null ? [] : sourcesFor(company);
    return {
      risk,
      report: buildReport(risk, company, sources),
      summary: summaryFor(risk, company, sources.length),
      sources,
    };
  },
};
