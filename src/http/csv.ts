import { stringify, type Stringifier } from 'csv-stringify';

/**
 * The one CSV writer of the service (the panel answers' export). Text cells are written against
 * formula injection as OWASP advises (CSV Injection): a cell beginning with `=`, `+`, `-`, `@`, a
 * tab or a carriage return (or the full-width `＝ ＋ － ＠` that Apple Numbers folds) gets a leading
 * `'`, so a spreadsheet shows it as text instead of running it, and every text cell is quoted with
 * its quotes doubled (RFC 4180). csv-stringify's `escape_formulas` does the prefixing and leaves
 * cells that are numbers alone, so a negative value stays a number.
 */
export const csvWriter = (columns: readonly string[]): Stringifier =>
  stringify({ header: true, columns: [...columns], escape_formulas: true, quoted_string: true });
