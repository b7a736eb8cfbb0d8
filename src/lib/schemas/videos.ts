import * as v from 'valibot';
import { IdSchema } from './advert-edit.ts';

/**
 * Inputs of the video calls (spec §7 media; parameter names per docs/decisions/013), shared by the
 * backend videos screen and the API. Messages are i18n keys under `validation.`.
 */

const flag = v.pipe(
  v.union([v.boolean(), v.picklist(['true', 'false', '1', '0'])], 'required'),
  v.transform((value) => value === true || value === 'true' || value === '1'),
);

/** A list of ids as a JSON array or a comma list. */
const idList = v.pipe(
  v.union([v.string(), v.number(), v.array(v.union([v.string(), v.number()]))], 'ids'),
  v.transform((value) => (Array.isArray(value) ? value.join(',') : String(value))),
  v.transform((value) =>
    value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  ),
  v.check((parts) => parts.every((part) => /^\d{1,9}$/.test(part) && Number(part) > 0), 'ids'),
  v.transform((parts) => parts.map(Number)),
  v.minLength(1, 'required'),
  v.maxLength(50, 'tooMany'),
);

const reason = v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.maxLength(1000, 'tooLong'));

/** updatevideostatus: shows (Online) or hides one of the advertiser's videos. */
export const UpdateVideoStatusSchema = v.object({ VideoId: IdSchema, Online: flag });
/** reordervideos: the advertiser's videos in their new order. */
export const ReorderVideosSchema = v.object({ Ids: idList });
/** removeimage: the advertiser deletes one of their videos (the spec's name). */
export const RemoveVideoSchema = v.object({ VideoId: IdSchema });
/** approvevideoitem (support). */
export const ApproveVideoSchema = v.object({ Id: IdSchema });
/** declinevideoitem and removevideoitem (support): the reason is shown to the advertiser. */
export const ModerateVideoSchema = v.object({ Id: IdSchema, Reason: reason });
