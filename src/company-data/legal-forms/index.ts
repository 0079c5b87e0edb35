export { getLegalForms, HOW_TO_PROVIDE_LEGAL_FORMS } from './get-legal-forms.ts';
export { type LegalForm, LegalFormIndex, type LegalFormName } from './legal-form-index.ts';
