import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * A list of ids as one `integer[]` parameter. Drizzle's `inArray` binds one parameter per id; with
 * hundreds of ids that costs PGlite hundreds of megabytes while planning (measured: an IN list of 500
 * in the search refresh took 238 MB, `= any(array)` a few). Only integers are accepted.
 */
export function idArray(ids: readonly number[]): SQL {
  for (const id of ids) {
    if (!Number.isSafeInteger(id)) throw new TypeError(`idArray: not an integer id: ${String(id)}`);
  }
  return sql`${`{${ids.join(',')}}`}::integer[]`;
}

/** `column = any($1::integer[])`: the condition to use instead of `inArray` for lists of ids. */
export function anyOf(column: AnyColumn | SQL, ids: readonly number[]): SQL {
  return sql`${column} = any(${idArray(ids)})`;
}

/**
 * A list of strings as one `text[]` parameter (the array literal quoted element by element, so commas,
 * quotes, backslashes and braces in a value stay inside it): for `unnest(...)` or `= any(...)` over many
 * values, for the reason `idArray` gives.
 */
export function textArray(values: readonly string[]): SQL {
  return sql`${`{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`}::text[]`;
}
