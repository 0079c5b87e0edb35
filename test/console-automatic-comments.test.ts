/**
 * The console's French wording of vericase's own review comments
 * (web/console/features/checks/automatic-comments.ts): the server's producers of these messages,
 * called here, each give a comment the table knows and words in French; messages written inline in
 * the server are named by their source file, which must still hold them (a reworded message fails
 * here until the table follows). A person's comment is never touched. The browser side is in
 * test/browser/console-checks.test.ts.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { FORCED_REVIEW_REASON } from '../src/checks/engine/force-review.ts';
import { withSystemReviewReason } from '../src/checks/engine/system-review.ts';
import { SCREENING_NOT_RUN } from '../src/checks/types/aml/index.ts';
import { decide as decideDocument } from '../src/checks/types/document/decide.ts';
import { interpretation } from '../src/checks/types/ekyc/index.ts';
import { REFUSAL_COMMENTS } from '../src/checks/types/id_document/decide.ts';
import { APPROVAL_COMMENT } from '../src/checks/types/online_reputation/index.ts';
import {
  automaticComment,
  isKnownAutomaticComment,
} from '../web/console/features/checks/automatic-comments.ts';
import { ekycReading } from '../web/console/features/checks/ekyc-reading.ts';
import { actEn } from '../web/console/i18n/act.en.ts';
import { actFr } from '../web/console/i18n/act.fr.ts';
import { fill } from '../web/shared/i18n.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
/** The console's labels (web/console/i18n/act.*.ts) for the codes a message holds. */
const dictionaries = { en: actEn, fr: actFr } as const;
const labelsIn = (lang: 'en' | 'fr') => {
  const word = (key: string, code: string) => (dictionaries[lang] as Record<string, string>)[key] ?? code;
  return {
    checkType: (t: string) => word(`check.type.${t}`, t),
    result: (v: string) => word(`check.resultValue.${v}`, v),
    reputationRisk: (r: string) => word(`check.reputationRisk.${r}`, r),
  };
};
const labels = labelsIn('fr');
const fr = (c: string, by: unknown = 'system') => automaticComment(c, by, 'fr', labels);
const en = (c: string, by: unknown = 'system') => automaticComment(c, by, 'en', labelsIn('en'));

/** English words of the messages' frames: none may be left in a translation (outside a quoted part). */
const ENGLISH = /\b(automatically|Approved|Rejected|could not|the document|Monitoring|Screening|failed)\b/;

function assertFrench(en: string, expected?: string | RegExp) {
  assert.ok(isKnownAutomaticComment(en), `the console's table does not know: ${en}`);
  const shown = fr(en);
  assert.notEqual(shown, en, en);
  assert.doesNotMatch(shown, ENGLISH, `${en} → ${shown}`);
  if (typeof expected === 'string') assert.equal(shown, expected);
  else if (expected) assert.match(shown, expected);
}

/** Inline server messages: the file that writes each, the literal start it must still hold, a sample. */
const INLINE: [file: string, literal: string, sample: string][] = [
  [
    'src/checks/types/fraud_database/index.ts',
    "'Approved automatically (automatic_approval): no match in the fraud list'",
    'Approved automatically (automatic_approval): no match in the fraud list',
  ],
  [
    'src/checks/types/fraud_database/index.ts',
    '`Rejected automatically (automatic_rejection): ${',
    'Rejected automatically (automatic_rejection): the fraud list holds email, phone of this entity',
  ],
  [
    'src/checks/types/fraud_database/index.ts',
    '`the fraud list holds ${',
    'Needs a review (automatic_rejection is off): the fraud list holds email, phone of this entity',
  ],
  [
    'src/checks/types/fraud_database/index.ts',
    "reviewNeeded('no match in the fraud list', 'automatic_approval')",
    'Needs a review (automatic_approval is off): no match in the fraud list',
  ],
  [
    'src/checks/types/fraud_database/index.ts',
    "'the entity has no identifier the fraud list holds, so nothing could be searched'",
    'Needs a review: the entity has no identifier the fraud list holds, so nothing could be searched',
  ],
  [
    'src/checks/types/id_document/decide.ts',
    "'the document provider failed to verify the document'",
    'Needs a review: the document provider failed to verify the document',
  ],
  [
    'src/checks/types/id_document/decide.ts',
    "'the document provider approved the document'",
    'Needs a review (automatic_approval is off): the document provider approved the document',
  ],
  [
    'src/checks/types/id_document/decide.ts',
    "'the document provider rejected the document'",
    'Needs a review (automatic_rejection is off): the document provider rejected the document',
  ],
  [
    'src/checks/types/id_document/decide.ts',
    "'The document data does not match the individual (data comparison failed)'",
    'Needs a review (automatic_rejection is off): The document data does not match the individual (data comparison failed)',
  ],
  [
    'src/checks/types/id_document/decide.ts',
    "'the document provider could not decide on the document'",
    'Needs a review: the document provider could not decide on the document',
  ],
  [
    'src/checks/types/id_document/decide.ts',
    '`the document provider could not decide on the document: ${',
    'Needs a review: the document provider could not decide on the document: No machine-readable zone could be read from the document: a person must look at it',
  ],
  [
    'src/checks/types/id_document/sandbox-provider.ts',
    '`The machine-readable zone was read as ${',
    'The machine-readable zone was read as P<FRACURIE<<MARIE / 18AB12345 but its check digits do not match that reading (a misreading or a wrong document): a person must look at it',
  ],
  [
    'src/checks/types/id_document/sandbox-provider.ts',
    '`The names read by OCR (${',
    "The names read by OCR (Dupont, Jeans) do not match the individual's: no check digit covers a name, so a person compares them",
  ],
  [
    'src/checks/types/id_document/sandbox-provider.ts',
    "The machine-readable zone was read and matches the individual; the document's authenticity",
    "The machine-readable zone was read and matches the individual; the document's authenticity is not evaluated: a person must look at it",
  ],
  [
    'src/checks/types/id_document/decide.ts',
    '`a third automatic rejection in a row is left to a person: ${',
    'Needs a review: a third automatic rejection in a row is left to a person: The document was rejected: expired',
  ],
  [
    'src/checks/types/ekyc/index.ts',
    '} match the declared identity`',
    'Needs a review (automatic_approval is off): the data sources for FR match the declared identity',
  ],
  [
    'src/checks/types/ekyc/index.ts',
    '} contradict the declared identity`',
    'Needs a review (automatic_rejection is off): the data sources for FR contradict the declared identity',
  ],
  [
    'src/checks/types/ekyc/index.ts',
    '} could not confirm the declared identity`',
    'Needs a review: the data sources for FR could not confirm the declared identity',
  ],
  [
    'src/checks/types/online_reputation/index.ts',
    "'the online reputation analysis could not rate the risk'",
    'Needs a review: the online reputation analysis could not rate the risk',
  ],
  [
    'src/checks/types/online_reputation/index.ts',
    '`the online reputation analysis rated the risk ${',
    'Needs a review: the online reputation analysis rated the risk high',
  ],
  [
    'src/company-data/monitoring/run-monitoring.ts',
    "no longer has the company's record; confirm the company still exists`",
    "Needs a review: the registry (company_data_provider_1) no longer has the company's record; confirm the company still exists",
  ],
  [
    'src/checks/types/aml/approval-comment.ts',
    'found no match on the sanctions and watch lists',
    'Approved automatically: the screening found no match on the sanctions and watch lists (lists: ofac_sdn, un_sc, ftm)',
  ],
  [
    'src/checks/types/aml/monitoring.ts',
    "'the re-screening after a list update'",
    'Approved automatically: the re-screening after a list update found no match on the sanctions and watch lists',
  ],
  [
    'src/checks/types/aml/index.ts',
    "'hit' : 'hits'} to confirm or ignore`",
    'Needs a review: the screening found 2 hits to confirm or ignore: Jane Doe; Acme Ltd',
  ],
  [
    'src/checks/types/aml/index.ts',
    '} closest are kept to confirm or ignore`',
    'Needs a review: the screening found 34 hits; the 25 closest are kept to confirm or ignore: Jane Doe; Acme Ltd and 23 more',
  ],
  [
    'src/checks/types/aml/approval-comment.ts',
    '`; only their ${',
    'Approved automatically: the screening found no match on the sanctions and watch lists (lists: ofac_sdn, un_sc; only their pep entries)',
  ],
  [
    'src/checks/types/electronic_signature/sign.ts',
    "'the signer signed with a valid one-time code; a person confirms the signature'",
    'Needs a review (automatic_approval is off): the signer signed with a valid one-time code; a person confirms the signature',
  ],
  [
    'src/company-data/monitoring/run-monitoring.ts',
    "`the company's registry data changed (${",
    "Needs a review: the company's registry data changed (company_status, shareholder_changes); confirm the changes",
  ],
  [
    'src/checks/types/id_verification/decide.ts',
    "'the verifier approved the identity', 'automatic_approval'",
    'Needs a review (automatic_approval is off): the verifier approved the identity',
  ],
  [
    'src/checks/types/id_verification/decide.ts',
    '`the verifier approved the identity; mode ${',
    'Needs a review: the verifier approved the identity; mode expert has a person decide',
  ],
  [
    'src/checks/types/id_verification/decide.ts',
    '} has a person decide`',
    'Needs a review: the verifier rejected the identity: sandbox_outcome rejected; mode certified has a person decide',
  ],
  [
    'src/checks/types/id_verification/decide.ts',
    '`the verifier rejected the identity${',
    'Needs a review (automatic_rejection is off): the verifier rejected the identity: sandbox_outcome rejected',
  ],
  [
    'src/checks/types/id_verification/decide.ts',
    '`the verifier could not decide${',
    'Needs a review: the verifier could not decide: sandbox_outcome undecided',
  ],
  [
    'src/checks/types/id_verification/decide.ts',
    "'the verification could not run'",
    'Needs a review: The verification could not run: timeout',
  ],

  [
    'src/checks/types/aml/monitoring.ts',
    '`Monitoring after a list version change: hits ${',
    'Monitoring after a list version change: hits 2 new, 1 updated, 0 removed',
  ],
  [
    'src/checks/types/company_monitoring/index.ts',
    "'Monitoring started: the registry data the company was linked with is the baseline'",
    'Monitoring started: the registry data the company was linked with is the baseline',
  ],
  [
    'src/checks/types/electronic_signature/sign.ts',
    "'Approved automatically: the signer signed with a valid one-time code (automatic_approval)'",
    'Approved automatically: the signer signed with a valid one-time code (automatic_approval)',
  ],
  [
    'src/checks/types/id_document/sandbox-provider.ts',
    "'The document failed the visual authenticity checks (sandbox_outcome rejected)'",
    'The document failed the visual authenticity checks (sandbox_outcome rejected)',
  ],
  [
    'src/checks/types/id_document/sandbox-provider.ts',
    "'No machine-readable zone could be read from the document: a person must look at it'",
    'No machine-readable zone could be read from the document: a person must look at it',
  ],
  [
    'src/checks/types/id_document/sandbox-provider.ts',
    '`The document was rejected: ${',
    'The document was rejected: expired',
  ],
  [
    'src/checks/types/document/analysis/analyze.ts',
    '`The document could not be read automatically (${',
    'The document could not be read automatically (no file); it needs a manual review.',
  ],
  [
    'src/checks/types/id_verification/index.ts',
    '`The verification could not run: ${',
    'The verification could not run: timeout',
  ],
];

describe("the console's French for vericase's review comments", () => {
  test("the generic rule (system-review.ts): with the provider's comment, with the result, without", () => {
    const cases: [string, 'approved' | 'rejected', Record<string, unknown>, string][] = [
      [
        'ekyc',
        'approved',
        {
          vendor: { comment: 'every criterion of the document analysis passed' },
          review: { reviewer_type: 'system' },
        },
        'Approuvé automatiquement (automatic_approval) : tous les critères de l’analyse du document sont remplis',
      ],
      [
        'ekyc',
        'rejected',
        { result: 'rejected', review: { reviewer_type: 'system' } },
        'Refusé automatiquement par la règle automatic_rejection du contrôle « eKYC » (résultat : Refusé)',
      ],
      [
        'ekyc',
        'approved',
        { review: { reviewer_type: 'system' } },
        'Approuvé automatiquement par la règle automatic_approval du contrôle « eKYC »',
      ],
    ];
    for (const [type, status, data, expected] of cases) {
      const comment = (withSystemReviewReason(type, status, data).review as { comment: string }).comment;
      assertFrench(comment, expected);
    }
    // a provider's own words inside the frame are kept as they are
    const vendor = withSystemReviewReason('ekyc', 'rejected', {
      vendor: { comment: 'Face mismatch' },
      review: { reviewer_type: 'system' },
    }).review as { comment: string };
    assert.equal(fr(vendor.comment), 'Refusé automatiquement (automatic_rejection) : Face mismatch');
  });

  test('the document check: every sandbox outcome and an analysis failure, decided or waiting', () => {
    for (const [automatic_approval, automatic_rejection] of [
      [true, true],
      [false, false],
    ]) {
      for (const outcome of ['approved', 'rejected', 'undecided', 'error'] as const) {
        const check = {
          attempt: 1,
          data: {
            settings: { document_analysis: { automatic_approval, automatic_rejection } },
            information: {},
            detailed_results: [],
          },
          internal: {},
        } as never;
        for (const finding of [
          { kind: 'sandbox', outcome },
          { kind: 'error', detail: 'EIO' },
          // an approval with a file it could not read: the file is named on the approval too
          {
            kind: 'analysis',
            analysis: {
              verdict: 'approved',
              comment: 'Not read: file 1: no text was found in the image.',
              information: {},
              detailedResults: [],
            },
          },
        ] as const) {
          const out = decideDocument(finding as never, check) as unknown as {
            data: { review: { comment: string | null } };
          };
          if (out.data.review.comment) assertFrench(out.data.review.comment);
          if (finding.kind === 'analysis') {
            assert.match(
              out.data.review.comment ?? '',
              /: every criterion of the document analysis passed on the files it read; not read: file 1: no text was found in the image$/,
            );
          }
        }
      }
    }
  });

  test("the document analysis's findings and the fraud list's identifiers read in French (the values as read)", () => {
    assertFrench(
      'Needs a review (automatic_rejection is off): Failed: address matching (expected 12 avenue Foch 75016 Paris, read 3 place Vendôme 75001 Paris). Could not be verified: name matching (expected Acme, read nothing).',
      'À revoir (automatic_rejection désactivé) : Échec : adresse (attendu 12 avenue Foch 75016 Paris, lu 3 place Vendôme 75001 Paris). Non vérifié : nom (attendu Acme, lu rien).',
    );
    assertFrench(
      'Rejected automatically (automatic_rejection): Failed: registration number matching (expected 552100554, read 123456789). The document expired on 2020-01-01.',
      'Refusé automatiquement (automatic_rejection) : Échec : numéro d’immatriculation (attendu 552100554, lu 123456789). Le document a expiré le 2020-01-01.',
    );
    assertFrench(
      'Needs a review: the fraud list holds registration_number, iban of this entity',
      'À revoir : la liste de fraude contient le numéro d’immatriculation, l’IBAN de cette entité',
    );
  });

  test('hit counts read in the singular and the plural; the older "hit(s)" comments still translate', () => {
    assertFrench(
      'Needs a review: the screening found 1 hit to confirm or ignore: Jane Doe',
      'À revoir : le criblage a trouvé 1 correspondance à confirmer ou ignorer : Jane Doe',
    );
    assertFrench(
      'Needs a review: the screening found 3 hits to confirm or ignore: Jane Doe',
      'À revoir : le criblage a trouvé 3 correspondances à confirmer ou ignorer : Jane Doe',
    );
    assertFrench(
      'Needs a review: the screening found 2 hit(s) to confirm or ignore: Jane Doe',
      'À revoir : le criblage a trouvé 2 correspondances à confirmer ou ignorer : Jane Doe',
    );
    assertFrench('Monitoring after a list version change: 2 new, 1 updated, 0 removed hit(s)');
  });

  test('fixed messages exported by the server', () => {
    for (const c of Object.values(REFUSAL_COMMENTS)) {
      assertFrench(c);
      assertFrench(`Rejected automatically (automatic_rejection): ${c}`);
    }
    assertFrench(APPROVAL_COMMENT);
    assertFrench(`Needs a review: ${FORCED_REVIEW_REASON}`);
    for (const c of Object.values(SCREENING_NOT_RUN)) {
      assertFrench(c);
      assertFrench(`Needs a review: ${c}`);
    }
  });

  test('messages written inline: still in their source, and known to the table', () => {
    for (const [file, literal, sample] of INLINE) {
      const source = fs.readFileSync(path.join(ROOT, file), 'utf8');
      assert.ok(source.includes(literal), `${file} no longer writes ${literal}: update the console's table`);
      assertFrench(sample);
    }
  });

  test('codes inside a message (a result, a risk, what changed, what the fraud list holds) read as words, in French and in English', () => {
    const rejected = (
      withSystemReviewReason('ekyc', 'rejected', {
        result: 'rejected',
        review: { reviewer_type: 'system' },
      }).review as { comment: string }
    ).comment;
    assert.equal(
      en(rejected),
      "Rejected automatically by the eKYC check's automatic_rejection rule (result: Rejected)",
    );
    for (const [risk, fr_, en_] of [
      ['high', 'élevé', 'high'],
      ['prohibited', 'interdit', 'prohibited'],
    ]) {
      const stored = `Needs a review: the online reputation analysis rated the risk ${risk}`;
      assert.equal(fr(stored), `À revoir : l’analyse de la réputation en ligne a évalué le risque : ${fr_}`);
      assert.equal(en(stored), `Needs a review: the online reputation analysis rated the risk as ${en_}`);
    }
    const changed =
      "Needs a review: the company's registry data changed (company_status, shareholder_changes); confirm the changes";
    assert.equal(
      fr(changed),
      'À revoir : les données du registre de la société ont changé (statut de la société, actionnaires) ; confirmez les changements',
    );
    assert.equal(
      en(changed),
      "Needs a review: the company's registry data changed (company status, shareholders); confirm the changes",
    );
    assert.equal(
      en(
        'Needs a review (automatic_rejection is off): the fraud list holds registration_number, name_birth_date of this entity',
      ),
      'Needs a review (automatic_rejection is off): the fraud list holds the registration number, the name and birth date of this entity',
    );
    // a value no dictionary knows yet is shown as its code rather than dropped
    assert.equal(
      fr('Needs a review: the online reputation analysis rated the risk severe'),
      'À revoir : l’analyse de la réputation en ligne a évalué le risque : severe',
    );
  });

  test("a person's or an API key's comment, and English, are shown as written", () => {
    const c = 'Approved automatically (automatic_approval): no match in the fraud list';
    assert.equal(fr(c, 'user'), c);
    assert.equal(fr(c, 'api'), c);
    assert.equal(en(c), c);
    assert.equal(
      en("Rejected automatically by the ekyc check's automatic_rejection rule (result: rejected)", 'user'),
      "Rejected automatically by the ekyc check's automatic_rejection rule (result: rejected)",
    );
    assert.equal(fr('Checked by our back office'), 'Checked by our back office');
  });

  test('the eKYC reading vericase writes is recognised from its decision, country and score, and said in French', () => {
    for (const decision of ['match', 'inconsistent', 'inconclusive']) {
      const stored = interpretation(decision, 'FR', 50);
      const known = ekycReading(stored, decision, 'FR', 50);
      assert.ok(known, `the console does not recognise: ${stored}`);
      const french = automaticLabel(actFr, known.key, known.vars);
      assert.doesNotMatch(french, /data sources|declared identity|\{/, french);
      assert.match(french, /pour FR .*score 50\/100|pour FR \(score 50\/100\)/, french);
      assert.equal(
        automaticLabel(actEn, known.key, known.vars),
        stored,
        'the English wording is the stored one',
      );
    }
    assert.equal(
      automaticLabel(actFr, 'check.ekycReading.inconclusive', { country: 'FR', score: 50 }),
      'Les sources de données pour FR n’ont pu ni confirmer ni contredire l’identité déclarée (score 50/100).',
    );
    // another country or score than the check's, or another sentence: shown as written
    assert.equal(ekycReading(interpretation('match', 'FR', 95), 'match', 'DE', 95), null);
    assert.equal(ekycReading(interpretation('match', 'FR', 95), 'match', 'FR', 90), null);
    assert.equal(ekycReading('Looks fine to us.', 'match', 'FR', 95), null);
  });
});

/** A dictionary's text with its values filled in, as the console's `t` does. */
function automaticLabel(dict: Record<string, string>, key: string, vars: Record<string, string | number>) {
  return fill(dict[key] ?? key, vars);
}
