import * as v from 'valibot';

/** Reasons a visitor can give; minors and trafficking go first in support's queue. */
export const REPORT_REASONS = ['minor', 'trafficking', 'not-consensual', 'fake', 'spam', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
/** For these reasons a reporter may stay anonymous (name and email optional). */
export const ANONYMOUS_REASONS: readonly ReportReason[] = ['minor', 'trafficking'];

const optionalText = (max: number) => v.optional(v.pipe(v.string(), v.trim(), v.maxLength(max, 'tooLong')), '');

/** reportadvert (spec §7): the report form on every advert. */
export const ReportAdvertSchema = v.pipe(
  v.object({
    AdvertId: v.pipe(v.union([v.number(), v.pipe(v.string(), v.regex(/^\d+$/, 'number'), v.transform(Number))], 'required'), v.integer('number')),
    Reason: v.picklist(REPORT_REASONS, 'required'),
    Details: optionalText(4000),
    Url: optionalText(500),
    Name: optionalText(120),
    Email: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(254, 'tooLong'), v.check((s) => s === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s), 'email')), ''),
    GoodFaith: v.pipe(
      v.union([v.boolean(), v.picklist(['true', 'false', '1', '0', 'on'])], 'goodFaith'),
      v.transform((value) => value === true || value === 'true' || value === '1' || value === 'on'),
      v.check((value) => value, 'goodFaith'),
    ),
  }),
  v.forward(
    v.check((input) => ANONYMOUS_REASONS.includes(input.Reason) || input.Name.length > 0, 'required'),
    ['Name'],
  ),
  v.forward(
    v.check((input) => ANONYMOUS_REASONS.includes(input.Reason) || input.Email.length > 0, 'required'),
    ['Email'],
  ),
);

export type ReportAdvertInput = v.InferOutput<typeof ReportAdvertSchema>;
