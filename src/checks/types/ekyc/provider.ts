/** An eKYC data-source provider: matches declared identity attributes against its sources. */
export interface EkycIdentity {
  first_name: string;
  last_name: string;
  birth_date: string;
  country: string;
  address: Record<string, string | null>;
}

export interface EkycProviderResult {
  decision: 'match' | 'inconclusive' | 'inconsistent';
  score: number;
}

export interface EkycProvider {
  name: string;
  verify(identity: EkycIdentity, profile: { profile_id: string }): Promise<EkycProviderResult>;
}
