/**
 * Money (docs/decisions/025-commerce.md): amounts are integer øre, prices include 25% VAT, and every sum,
 * split and sign change goes through dinero.js, never through floats. Shared by the server (orders,
 * receipts) and the browser (price screens); `formatDkk` in format.ts shows an amount, `kronerToOre` reads
 * one typed in kroner.
 */
import { add, dinero, halfUp, multiply, subtract, toSnapshot, transformScale, type Dinero } from 'dinero.js';
import { DKK } from 'dinero.js/currencies';

/** The Danish VAT rate, in basis points (25%). */
export const VAT_RATE_BP = 2500;

const ore = (amount: number): Dinero<number> => {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`An amount in øre must be a whole number, got ${amount}`);
  return dinero({ amount, currency: DKK });
};
const amountOf = (value: Dinero<number>): number => toSnapshot(value).amount;

/**
 * A VAT-inclusive amount split into its net part and its VAT part (docs/decisions/025-commerce.md, "VAT
 * rounding"). With 25% VAT the VAT is a fifth of the gross price (20 %), rounded to the nearest øre with
 * half an øre rounded up, as Danish practice computes the VAT of a price that includes it; the net part is
 * the rest, so the two always add up to the gross amount exactly. 0,01 kr → 0 øre VAT; 0,03 kr → 0,01 kr;
 * 1,03 kr → 0,21 kr; 19,99 kr → 4,00 kr; 499,00 kr → 99,80 kr.
 */
export function splitGross(grossOre: number): { netOre: number; vatOre: number; grossOre: number } {
  const vat = transformScale(multiply(ore(grossOre), { amount: 20, scale: 2 }), DKK.exponent, halfUp);
  const net = subtract(ore(grossOre), vat);
  return { netOre: amountOf(net), vatOre: amountOf(vat), grossOre };
}

/** The VAT part of a VAT-inclusive amount in øre. */
export function vatOf(grossOre: number): number {
  return splitGross(grossOre).vatOre;
}

/** The sum of amounts in øre. */
export function sumOre(amounts: readonly number[]): number {
  return amountOf(amounts.reduce((total, amount) => add(total, ore(amount)), ore(0)));
}

/** a − b in øre. */
export function differenceOre(a: number, b: number): number {
  return amountOf(subtract(ore(a), ore(b)));
}

/** An amount in øre times a whole number (e.g. a quantity). */
export function timesOre(amount: number, factor: number): number {
  if (!Number.isSafeInteger(factor)) throw new RangeError(`The factor must be a whole number, got ${factor}`);
  return amountOf(multiply(ore(amount), factor));
}

/**
 * Kroner as a person types them: "499", "499,5", "499,50", "1.199,00" (dots between thousands) or "499.50"
 * (a dot before one or two digits is the decimal point); at most 9.999.999 kroner.
 */
export const KRONER_PATTERN = /^(\d{1,3}(?:\.\d{3}){1,2}|\d{1,7})(?:[,.](\d{1,2}))?$/;

/**
 * Kroner typed as KRONER_PATTERN says → øre, exactly: the kroner and the øre are read as whole numbers
 * from their digits ("1.199,5" → 119950), never through a float; null for anything else (and for '').
 */
export function kronerToOre(text: string): number | null {
  const match = KRONER_PATTERN.exec(text.trim());
  if (!match) return null;
  const kroner = Number(match[1]!.replaceAll('.', ''));
  const rest = Number((match[2] ?? '').padEnd(2, '0'));
  return amountOf(add(multiply(ore(kroner), 100), ore(rest)));
}
