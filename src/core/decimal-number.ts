// Numbers in the tables users give are read only as written decimals. Number() is lenient where
// data must not be: Number('0x1') is 1, Number('') and Number(' ') are 0, Number('Infinity') is
// Infinity, Number('1_0') is NaN but Number('0b1') is 1. A cell written so is a mistake to report.

const DECIMAL = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The number a decimal numeral writes (`1`, `0.25`, `-3`, `.5`, `1e-5`), or NaN for anything else:
 * blank, spaces around it, hexadecimal, binary, octal, `Infinity`, `inf`, `1e`. Callers' range
 * checks (`v >= 0`, Number.isInteger) then refuse NaN as they refuse a value out of range.
 */
export function decimalNumber(text: string): number {
  return DECIMAL.test(text) ? Number(text) : Number.NaN;
}
