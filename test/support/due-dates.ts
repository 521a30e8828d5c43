/**
 * The official OpenAPI's examples A–G (`calendario.validadeAposVencimento`): due date, validity,
 * the first and last day the example accepts, and the day it refuses (G lists none).
 */
export const OFFICIAL_EXAMPLES = [
  { name: 'A', due: '2020-10-20', validade: 4, last: '2020-10-26', refused: '2020-10-27' },
  { name: 'B', due: '2020-12-25', validade: 0, last: '2020-12-28', refused: '2020-12-29' },
  { name: 'C', due: '2020-12-25', validade: 1, last: '2020-12-29', refused: '2020-12-30' },
  { name: 'D', due: '2020-12-25', validade: 3, last: '2020-12-31', refused: '2021-01-01' },
  { name: 'E', due: '2020-12-25', validade: 4, last: '2021-01-04', refused: '2021-01-05' },
  { name: 'F', due: '2021-08-27', validade: 5, last: '2021-09-01', refused: '2021-09-02' },
  { name: 'G', due: '2021-08-28', validade: 5, last: '2021-09-06', refused: undefined },
] as const;
