/**
 * Money (docs/decisions/025-commerce.md): amounts are integer øre, prices include 25% VAT, and every sum,
 * split and sign change goes through dinero.js, never through floats. Shared by the server (orders,
 * receipts) and the browser (price screens); `formatDkk` in format.ts shows an amount.
 */
import { add, allocate, dinero, multiply, subtract, toSnapshot, type Dinero } from 'dinero.js';
import { DKK } from 'dinero.js/currencies';

/** The Danish VAT rate, in basis points (25%). */
export const VAT_RATE_BP = 2500;

const ore = (amount: number): Dinero<number> => {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`An amount in øre must be a whole number, got ${amount}`);
  return dinero({ amount, currency: DKK });
};
const amountOf = (value: Dinero<number>): number => toSnapshot(value).amount;

/**
 * A VAT-inclusive amount split into its net part and its VAT part. With 25% VAT the VAT is a fifth of the
 * gross price (20%); the two parts always add up to the gross amount exactly.
 */
export function splitGross(grossOre: number): { netOre: number; vatOre: number; grossOre: number } {
  const [vat, net] = allocate(ore(grossOre), [1, 4]);
  return { netOre: amountOf(net!), vatOre: amountOf(vat!), grossOre };
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
