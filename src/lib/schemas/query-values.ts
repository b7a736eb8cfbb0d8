import * as v from 'valibot';
import { parseDay } from '#lib/format.ts';

/**
 * Values that several calls read from the address (GET) or a JSON body, in one shape each.
 * Messages are keys of `validation.*` in the common catalog.
 */

/** A yes or no: true, 'true' or '1' is yes; false, 'false', '0', '' or nothing is no. */
export const queryFlag = (message: string) =>
  v.optional(
    v.pipe(
      v.union([v.boolean(), v.picklist(['true', 'false', '1', '0', ''])], message),
      v.transform((value) => value === true || value === 'true' || value === '1'),
    ),
    false,
  );

/**
 * A whole number given as a number or as digits in a string (query values are strings); `message` is the
 * refusal's key.
 */
export const wholeNumber = (message: string) =>
  v.pipe(
    v.union([v.number(message), v.pipe(v.string(message), v.trim(), v.regex(/^\d{1,9}$/, message), v.transform(Number))], message),
    v.integer(message),
  );

/**
 * A database id (a PostgreSQL integer: 1 to 2,147,483,647) given as a number or as digits in a string; ids
 * from elsewhere (the old site's) may have ten digits, which `wholeNumber` refuses.
 */
export const databaseId = (message: string) =>
  v.pipe(
    v.union([v.number(message), v.pipe(v.string(message), v.trim(), v.regex(/^\d{1,10}$/, message), v.transform(Number))], message),
    v.integer(message),
    v.minValue(1, message),
    v.maxValue(2_147_483_647, message),
  );

/** A whole number (0 or more) given as a number or as digits in a string. */
const count = wholeNumber('number');

/** The first row of a page (0 when not given). */
export const querySkip = v.optional(v.pipe(count, v.minValue(0, 'range')), 0);

/** How many rows a page holds: 1 to `max`, `fallback` when not given. */
export const queryTake = (max: number, fallback: number) => v.optional(v.pipe(count, v.minValue(1, 'range'), v.maxValue(max, 'range')), fallback);

/**
 * A day as a person types it (dd-MM-yyyy, the day fields of the screens) or as an address or a call carries
 * it (yyyy-MM-dd), read as yyyy-MM-dd, a Copenhagen day; empty is `required`, anything else `date`.
 */
export const typedDay = v.pipe(v.string('date'), v.trim(), v.nonEmpty('required'), v.transform(parseDay), v.string('date'));

/** A day as `typedDay`, or nothing ('' when not given). */
export const optionalTypedDay = v.optional(v.union([v.literal(''), typedDay], 'date'), '');
