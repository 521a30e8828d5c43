/**
 * `lintBrCode(text)`: what a payer app will refuse (`error`: the code breaks the standard) or is
 * known to refuse or garble (`warning`: valid, yet refused by some apps), before a customer
 * finds out. Never throws. A finding names the field and the rule, never the key, document or
 * name in full: findings are pasted into tickets.
 *
 * Sources: [MAN] the BR Code manual and the payment initiation manual, as summed up in the
 * spec facts (section 10); [EMV] EMV QRCPS-MPM; [API] the service's OpenAPI; and public issue
 * threads where payer apps refused codes, cited by repository and number.
 */

import { detectKeyType } from '../keys.ts';
import { BR_CODE_GUI, type BrCodeField, crc16, hasAstral, isTemplateId, splitTlv, charLength } from './tlv.ts';
import { EMV_AMOUNT, carriesGui, carriesRecurrence, child, findDuplicate } from './parse.ts';

/** One thing lint found. `field` is the EMV ID path (`'59'`, `'26-01'`); `''` for the whole code. */
export interface BrCodeFinding {
  readonly code: string;
  readonly field: string;
  readonly severity: 'error' | 'warning';
  readonly message: string;
}

/** What `lintBrCode` returns: `ok` is false when any finding is an error. */
export interface BrCodeLint {
  readonly ok: boolean;
  readonly findings: readonly BrCodeFinding[];
}

/** A lint rule as the docs list it. */
export interface BrCodeLintRule {
  readonly code: string;
  readonly severity: 'error' | 'warning';
  readonly field: string;
  /** What it finds, in plain words. */
  readonly summary: string;
  /**
   * Where the rule comes from: [MAN] the BR Code manuals, [EMV] the EMV QRCPS-MPM specification,
   * [API] the service's OpenAPI, [REP] payer apps' refusals reported in public issue threads (each
   * rule's threads are in the repository's test/fixtures/brcode-lint-sources.json).
   */
  readonly source: string;
}

const rule = (
  code: string,
  severity: 'error' | 'warning',
  field: string,
  summary: string,
  source: string,
): BrCodeLintRule => ({
  code,
  severity,
  field,
  summary,
  source,
});

/** Every rule, errors first; the docs' table is generated from this list. */
export const LINT_RULES = [
  // [EMV] the payload is a run of ID (2 digits), length (2 digits), value.
  rule(
    'malformed-tlv',
    'error',
    'any',
    'the text is not a clean run of ID, length, value fields (or not a string)',
    '[EMV] data objects; [MAN] §1.3',
  ),
  // [EMV] 00 is the first object, value "01".
  rule(
    'payload-format',
    'error',
    '00',
    'field 00 is missing, not first, or not "01"',
    '[EMV] payload format indicator',
  ),
  // [EMV] 63 is the last object: CRC16/CCITT-FALSE, 4 hex digits.
  rule('crc-missing', 'error', '63', 'field 63 (CRC, 4 hex digits) is not the last field', '[EMV] CRC; spec facts §10'),
  rule('crc-mismatch', 'error', '63', 'the CRC does not match the content', '[EMV] CRC; spec facts §10'),
  // [EMV] an ID appears once in the payload and once in each template.
  rule('duplicate-field', 'error', 'any', 'a field or sub-field appears twice', '[EMV] data objects'),
  // [MAN] 52, 53, 58, 59, 60 are mandatory.
  rule('missing-field', 'error', '52 53 58 59 60', 'a mandatory field is missing', '[MAN] field table'),
  rule(
    'missing-gui-template',
    'error',
    '26',
    'no merchant account template (26–51) carries the GUI',
    '[MAN] GUI br.gov.bcb.pix in 26–51',
  ),
  rule(
    'missing-key-or-url',
    'error',
    '26',
    'the GUI template has neither a key (01) nor a location (25), and no recurrence',
    '[MAN] static and dynamic templates',
  ),
  rule(
    'invalid-key',
    'error',
    '26-01',
    'the key is no valid key (CPF/CNPJ digits, +55 phone, e-mail, EVP)',
    '[MAN] key formats in the BR Code',
  ),
  rule(
    'field-too-long',
    'error',
    '26-01 26-02 26-25 80-25',
    'key over 77, infoAdicional over 72 or location over 77 characters',
    '[MAN] field table',
  ),
  rule('bad-point-of-initiation', 'error', '01', 'field 01 is neither 11 nor 12', '[EMV] point of initiation method'),
  rule('bad-mcc', 'error', '52', 'the merchant category code is not 4 digits', '[EMV] MCC'),
  rule('currency-not-brl', 'error', '53', 'the currency is not 986 (BRL)', '[MAN] 53 = 986'),
  rule(
    'bad-amount',
    'error',
    '54',
    'the amount is not digits with an optional dot and up to 2 decimals',
    '[EMV] transaction amount',
  ),
  rule('zero-amount', 'error', '54', 'the amount is zero (a present amount must not be)', '[EMV] transaction amount'),
  rule('country-not-br', 'error', '58', 'the country is not BR', '[MAN] 58 = BR'),
  rule(
    'empty-field',
    'error',
    '59 60',
    'the merchant name or city is present but empty',
    '[EMV] 59, 60 length 01-25, 01-15',
  ),
  // Warnings: valid, yet refused or garbled by some payer apps.
  rule('merchant-name-too-long', 'warning', '59', 'the merchant name is over 25 characters', '[MAN] 59 ≤ 25; [REP]'),
  rule('merchant-city-too-long', 'warning', '60', 'the merchant city is over 15 characters', '[MAN] 60 ≤ 15; [REP]'),
  rule('non-ascii', 'warning', '59 60 26-02 62-05', 'a letter outside plain ASCII (an accent, ç, an emoji)', '[REP]'),
  rule(
    'missing-reference-label',
    'warning',
    '62-05',
    'no 62-05 reference label (use *** for none)',
    '[MAN] 62-05 always present; [REP]',
  ),
  rule(
    'reference-label-format',
    'warning',
    '62-05',
    'a static reference label outside [A-Za-z0-9]{1,25} or ***',
    '[MAN] 62-05; [REP]',
  ),
  rule('gui-case', 'warning', '26-00', 'the GUI is not in lower case', '[MAN] case-insensitive; [REP]'),
  rule(
    'location-scheme',
    'warning',
    '26-25 80-25',
    'the location carries a scheme (https://)',
    '[MAN] location without protocol prefix',
  ),
  rule(
    'amount-decimals',
    'warning',
    '54',
    'the amount does not have exactly 2 decimals ("10", "10.", "10.5")',
    '[REP]',
  ),
  rule('crc-lowercase', 'warning', '63', 'the CRC is written in lower case hex', '[MAN] 4 uppercase hex digits'),
  rule('postal-code-format', 'warning', '61', 'the postal code is not 8 digits', '[MAN] 61 CEP; [REP]'),
  rule('code-too-long', 'warning', '', 'the code is over 512 characters', '[API] instantCopiaECola maxLength 512'),
] as const satisfies readonly BrCodeLintRule[];

type RuleCode = (typeof LINT_RULES)[number]['code'];
const SEVERITY = new Map<string, 'error' | 'warning'>(LINT_RULES.map((r) => [r.code, r.severity]));

const PLAIN = /^[\x20-\x7E]*$/;
const STATIC_REFERENCE = /^(?:[a-zA-Z0-9]{1,25}|\*\*\*)$/;
const HAS_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//;
const MANDATORY = [
  ['52', 'merchant category code'],
  ['53', 'currency'],
  ['58', 'country'],
  ['59', 'merchant name'],
  ['60', 'merchant city'],
] as const;

/** Lints a BR Code. Never throws; see `LINT_RULES` for what it checks. */
export function lintBrCode(text: unknown): BrCodeLint {
  const findings: BrCodeFinding[] = [];
  const add = (code: RuleCode, field: string, message: string): void => {
    findings.push({ code, field, severity: SEVERITY.get(code) ?? 'error', message });
  };
  try {
    check(text, add);
  } catch {
    add('malformed-tlv', '', 'the code could not be read');
  }
  return { ok: !findings.some((f) => f.severity === 'error'), findings };
}

type Add = (code: RuleCode, field: string, message: string) => void;

function check(text: unknown, add: Add): void {
  if (typeof text !== 'string') return add('malformed-tlv', '', 'a BR Code is a string');
  const code = text.trim();
  const astral = hasAstral(code);
  const top = splitTlv(code, astral);
  if (top === undefined || top.length === 0)
    return add('malformed-tlv', '', 'not a run of ID, length, value fields: a length is wrong or the text was cut');
  if (charLength(code) > 512)
    add('code-too-long', '', `the code is ${charLength(code)} characters long; the service and many apps stop at 512`);
  if (top[0]?.id !== '00' || top[0].value !== '01')
    add('payload-format', '00', 'field 00 must come first with the value "01"');
  const last = top[top.length - 1];
  if (last?.id !== '63' || !/^[0-9A-Fa-f]{4}$/.test(last.value)) {
    add('crc-missing', '63', 'field 63 (CRC, 4 hex digits) must be the last field');
  } else {
    const expected = crc16(code.slice(0, -4));
    if (last.value.toUpperCase() !== expected)
      add('crc-mismatch', '63', `the code says CRC ${last.value}, its content gives ${expected}`);
    else if (last.value !== expected)
      add('crc-lowercase', '63', 'the CRC is in lower case hex; write it in upper case');
  }
  const duplicate = findDuplicate(top);
  if (duplicate !== undefined) add('duplicate-field', duplicate, `field ${duplicate} appears twice`);
  const fields = top.map((field): BrCodeField => {
    const children = isTemplateId(field.id) ? splitTlv(field.value, astral) : undefined;
    if (children === undefined) {
      if (field.id === '62') add('malformed-tlv', '62', 'field 62 (additional data) is not a run of sub-fields');
      return field;
    }
    const repeated = findDuplicate(children);
    if (repeated !== undefined)
      add('duplicate-field', `${field.id}-${repeated}`, `sub-field ${field.id}-${repeated} appears twice`);
    return { ...field, children };
  });
  const byId = new Map(fields.map((f) => [f.id, f.value]));
  for (const [id, name] of MANDATORY) if (!byId.has(id)) add('missing-field', id, `field ${id} (${name}) is missing`);

  const initiation = byId.get('01');
  if (initiation !== undefined && initiation !== '11' && initiation !== '12')
    add('bad-point-of-initiation', '01', 'field 01 must be 11 (reusable) or 12 (pay once)');
  const mcc = byId.get('52');
  if (mcc !== undefined && !/^\d{4}$/.test(mcc))
    add('bad-mcc', '52', 'the merchant category code must be 4 digits (0000)');
  const currency = byId.get('53');
  if (currency !== undefined && currency !== '986')
    add('currency-not-brl', '53', `the currency must be 986 (BRL), not ${currency.slice(0, 3)}`);
  const country = byId.get('58');
  if (country !== undefined && country !== 'BR') add('country-not-br', '58', 'the country must be BR');
  checkAmount(byId.get('54'), add);
  checkText(byId.get('59'), '59', 'merchant name', 25, 'merchant-name-too-long', add);
  checkText(byId.get('60'), '60', 'merchant city', 15, 'merchant-city-too-long', add);
  const postal = byId.get('61');
  if (postal !== undefined && !/^\d{8}$/.test(postal))
    add('postal-code-format', '61', 'the postal code (CEP) should be 8 digits');

  const account = fields.find(carriesGui);
  const recurrence = fields.find(carriesRecurrence);
  for (const template of [account, recurrence]) {
    const gui = child(template, 0);
    if (template !== undefined && gui !== undefined && gui !== BR_CODE_GUI) {
      add(
        'gui-case',
        `${template.id}-00`,
        `the GUI is written ${JSON.stringify(gui)}; some apps read only "${BR_CODE_GUI}"`,
      );
    }
  }
  if (account === undefined) {
    add('missing-gui-template', '26', `no merchant account template (26–51) carries the GUI ${BR_CODE_GUI}`);
  } else {
    checkAccount(account, recurrence !== undefined, add);
  }
  if (recurrence !== undefined) checkLocation(child(recurrence, 25), `${recurrence.id}-25`, add);
  const reference = child(
    fields.find((f) => f.id === '62'),
    5,
  );
  if (reference === undefined) {
    add('missing-reference-label', '62-05', 'no 62-05 reference label: write *** when there is none');
  } else {
    const isStatic = account !== undefined && child(account, 25) === undefined;
    if (isStatic && !STATIC_REFERENCE.test(reference)) {
      add(
        'reference-label-format',
        '62-05',
        `a static reference label is 1 to 25 letters and digits, or ***; this one has ${charLength(reference)} characters${/[^a-zA-Z0-9]/.test(reference) ? ' and others than letters and digits' : ''}`,
      );
    }
    if (!PLAIN.test(reference)) add('non-ascii', '62-05', 'the reference label has characters outside plain ASCII');
  }
}

function checkAmount(amount: string | undefined, add: Add): void {
  if (amount === undefined) return;
  if (!EMV_AMOUNT.test(amount))
    return add('bad-amount', '54', 'the amount must be digits with an optional dot and up to 2 decimals');
  if (!/[1-9]/.test(amount))
    add('zero-amount', '54', 'the amount is zero: leave field 54 out to let the payer type it');
  if (!/\.\d\d$/.test(amount))
    add('amount-decimals', '54', 'write the amount with exactly 2 decimals: some apps refuse "10", "10." or "10.5"');
}

function checkText(
  value: string | undefined,
  field: string,
  name: string,
  max: number,
  tooLong: RuleCode,
  add: Add,
): void {
  if (value === undefined) return;
  const length = charLength(value);
  if (length === 0) add('empty-field', field, `the ${name} is empty: it is mandatory, at least 1 character`);
  if (length > max) add(tooLong, field, `the ${name} has ${length} characters; some apps refuse over ${max}`);
  if (!PLAIN.test(value)) {
    const odd = [...value].find((c) => !PLAIN.test(c)) ?? '';
    add(
      'non-ascii',
      field,
      `the ${name} has ${JSON.stringify(odd)}, outside plain ASCII: some apps refuse or garble it`,
    );
  }
}

function checkAccount(account: BrCodeField, hasRecurrence: boolean, add: Add): void {
  const at = (id: string): string => `${account.id}-${id}`;
  const key = child(account, 1);
  const url = child(account, 25);
  if (key === undefined && url === undefined && !hasRecurrence) {
    add('missing-key-or-url', account.id, 'the merchant account template has neither a key (01) nor a location (25)');
  }
  if (key !== undefined) {
    // [MAN] e-mail and EVP keys are case-insensitive in the code.
    if (charLength(key) > 77) add('field-too-long', at('01'), `the key has ${charLength(key)} characters (at most 77)`);
    else if (detectKeyType(key) === undefined && detectKeyType(key.toLowerCase()) === undefined) {
      add('invalid-key', at('01'), 'the key is no valid key: CPF or CNPJ digits, +55 phone, e-mail or EVP');
    }
  }
  const info = child(account, 2);
  if (info !== undefined) {
    if (charLength(info) > 72)
      add('field-too-long', at('02'), `infoAdicional has ${charLength(info)} characters (at most 72)`);
    if (!PLAIN.test(info)) add('non-ascii', at('02'), 'infoAdicional has characters outside plain ASCII');
  }
  checkLocation(url, at('25'), add);
}

function checkLocation(url: string | undefined, field: string, add: Add): void {
  if (url === undefined) return;
  if (charLength(url) > 77) add('field-too-long', field, `the location has ${charLength(url)} characters (at most 77)`);
  if (HAS_SCHEME.test(url))
    add('location-scheme', field, 'write the location without its scheme: apps add https:// themselves');
}
