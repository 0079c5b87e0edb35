/**
 * The currency (ISO 4217) a sandbox company's share capital is stated in, for every country the
 * service accepts (src/shared/countries.ts): a Swiss company's capital in CHF, a Swedish one's in
 * SEK, not in euros. One code per country; where ISO 4217 lists more than one, the one amounts are
 * kept in: the US dollar in dollarised Panama and El Salvador, the national unit where the rand or
 * the rupee also circulates (Lesotho, Namibia, Eswatini, Bhutan). Territories use their state's
 * currency; Antarctica, which has none, USD; Palestine, which has none of its own, ILS.
 * Bulgaria uses the euro since 1 January 2026, Croatia since 2023; Curaçao and Sint Maarten the
 * Caribbean guilder (XCG) since 2025; Zimbabwe the ZiG (ZWG) since 2024.
 */
const PAIRS =
  'AD EUR AE AED AF AFN AG XCD AI XCD AL ALL AM AMD AO AOA AQ USD AR ARS AS USD AT EUR AU AUD AW AWG ' +
  'AX EUR AZ AZN BA BAM BB BBD BD BDT BE EUR BF XOF BG EUR BH BHD BI BIF BJ XOF BL EUR BM BMD BN BND ' +
  'BO BOB BQ USD BR BRL BS BSD BT BTN BV NOK BW BWP BY BYN BZ BZD CA CAD CC AUD CD CDF CF XAF CG XAF ' +
  'CH CHF CI XOF CK NZD CL CLP CM XAF CN CNY CO COP CR CRC CU CUP CV CVE CW XCG CX AUD CY EUR CZ CZK ' +
  'DE EUR DJ DJF DK DKK DM XCD DO DOP DZ DZD EC USD EE EUR EG EGP EH MAD ER ERN ES EUR ET ETB FI EUR ' +
  'FJ FJD FK FKP FM USD FO DKK FR EUR GA XAF GB GBP GD XCD GE GEL GF EUR GG GBP GH GHS GI GIP GL DKK ' +
  'GM GMD GN GNF GP EUR GQ XAF GR EUR GS GBP GT GTQ GU USD GW XOF GY GYD HK HKD HM AUD HN HNL HR EUR ' +
  'HT HTG HU HUF ID IDR IE EUR IL ILS IM GBP IN INR IO USD IQ IQD IR IRR IS ISK IT EUR JE GBP JM JMD ' +
  'JO JOD JP JPY KE KES KG KGS KH KHR KI AUD KM KMF KN XCD KP KPW KR KRW KW KWD KY KYD KZ KZT LA LAK ' +
  'LB LBP LC XCD LI CHF LK LKR LR LRD LS LSL LT EUR LU EUR LV EUR LY LYD MA MAD MC EUR MD MDL ME EUR ' +
  'MF EUR MG MGA MH USD MK MKD ML XOF MM MMK MN MNT MO MOP MP USD MQ EUR MR MRU MS XCD MT EUR MU MUR ' +
  'MV MVR MW MWK MX MXN MY MYR MZ MZN NA NAD NC XPF NE XOF NF AUD NG NGN NI NIO NL EUR NO NOK NP NPR ' +
  'NR AUD NU NZD NZ NZD OM OMR PA USD PE PEN PF XPF PG PGK PH PHP PK PKR PL PLN PM EUR PN NZD PR USD ' +
  'PS ILS PT EUR PW USD PY PYG QA QAR RE EUR RO RON RS RSD RU RUB RW RWF SA SAR SB SBD SC SCR SD SDG ' +
  'SE SEK SG SGD SH SHP SI EUR SJ NOK SK EUR SL SLE SM EUR SN XOF SO SOS SR SRD SS SSP ST STN SV USD ' +
  'SX XCG SY SYP SZ SZL TC USD TD XAF TF EUR TG XOF TH THB TJ TJS TK NZD TL USD TM TMT TN TND TO TOP ' +
  'TR TRY TT TTD TV AUD TW TWD TZ TZS UA UAH UG UGX UM USD US USD UY UYU UZ UZS VA EUR VC XCD VE VES ' +
  'VG USD VI USD VN VND VU VUV WF XPF WS WST YE YER YT EUR ZA ZAR ZM ZMW ZW ZWG';

const CURRENCIES: ReadonlyMap<string, string> = (() => {
  const parts = PAIRS.split(' ');
  const map = new Map<string, string>();
  for (let i = 0; i < parts.length; i += 2) map.set(parts[i], parts[i + 1]);
  return map;
})();

/**
 * The country's currency. Every accepted country is listed (a test walks them all); a code that is
 * not one gets USD rather than a guess that looks national.
 */
export const currencyOf = (country: string): string => CURRENCIES.get(country) ?? 'USD';
