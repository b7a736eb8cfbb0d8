import * as v from 'valibot';
import { IdSchema, idList } from './advert-edit.ts';
import { MEDIA_LIMITS } from './media.ts';

/**
 * Inputs of the picture calls (spec §7 media calls; parameter names from docs/decisions/013), shared by
 * the backend's pictures screen and the API. Messages are i18n keys under `validation.`.
 */

const flag = v.pipe(
  v.union([v.boolean(), v.picklist(['true', 'false', '1', '0'])], 'invalid'),
  v.transform((value) => value === true || value === 'true' || value === '1'),
);

/** setprimarypicture, deleteprofilepicture, removetempimage. */
export const PictureIdSchema = v.object({ PictureId: IdSchema });

/** updateimagestatus: a picture online (shown once approved) or offline. */
export const UpdateImageStatusSchema = v.object({ PictureId: IdSchema, Online: flag });

/** reorderimages: every picture id of the advert, in the new order. */
export const ReorderImagesSchema = v.object({
  Ids: v.pipe(idList(MEDIA_LIMITS.picturesPerAdvert), v.minLength(1, 'required')),
});

/** Support's approveimageitem. */
export const ModerationItemSchema = v.object({ Id: IdSchema });

/** Support's declineimageitem and removeimageitem: the reason is shown to the advertiser. */
export const ModerationReasonSchema = v.object({
  Id: IdSchema,
  Reason: v.pipe(v.string('required'), v.trim(), v.minLength(1, 'required'), v.maxLength(1000, 'tooLong')),
});

/** Support's removeimageitem: the reason is optional (a removal may need no explanation). */
export const ModerationRemoveSchema = v.object({
  Id: IdSchema,
  Reason: v.optional(v.pipe(v.string('invalid'), v.trim(), v.maxLength(1000, 'tooLong')), ''),
});
