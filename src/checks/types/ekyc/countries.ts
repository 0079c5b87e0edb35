/** Countries eKYC verifies (spec). */
export const EKYC_COUNTRIES: ReadonlySet<string> = new Set(
  'AE AR AT AU BE BR CH CL CO CZ DE DK ES FI FR GB GH ID IE IT JO JP KE KW MX MY NG NL NO OM PE PH PL PT SA SE SK TR US VN ZA'.split(
    ' ',
  ),
);
