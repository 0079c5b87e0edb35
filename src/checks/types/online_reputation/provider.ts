/** An online-reputation provider: reads public web material about a business. */
export interface ReputationCompany {
  name: string;
  commercial_name: string | null;
  country: string | null;
  registration_number: string | null;
  website_url: string | null;
  /** Extra registry facts the analysis may quote (not exposed in `data.information.company`). */
  legal_form: string | null;
  registration_date: string | null;
  city: string | null;
  activities: string[];
}

/** `null` risk: the provider returned no reading at all. */
export type ReputationRisk = 'low' | 'moderate' | 'high' | 'prohibited' | 'inconclusive';

export interface ReputationAnalysis {
  risk: ReputationRisk | null;
  report: string | null;
  summary: string | null;
  sources: { title: string; url: string }[];
}

export interface OnlineReputationProvider {
  name: string;
  analyze(company: ReputationCompany): Promise<ReputationAnalysis>;
}
