import * as v from 'valibot';

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
