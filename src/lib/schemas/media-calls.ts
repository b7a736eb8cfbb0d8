import * as v from 'valibot';
import { IdSchema, idList } from './advert-edit.ts';
import { MEDIA_LIMITS } from './media.ts';
import { TERMS_RULES } from './moderation.ts';

/**
 * Inputs of the picture and video calls (spec §7 media calls; parameter names from docs/decisions/013),
 * shared by the backend's screens and the API. Messages are i18n keys under `validation.`.
 */

const online = v.pipe(
  v.union([v.boolean(), v.picklist(['true', 'false', '1', '0'])], 'invalid'),
  v.transform((value) => value === true || value === 'true' || value === '1'),
);

/** setprimarypicture, deleteprofilepicture, removetempimage. */
export const PictureIdSchema = v.object({ PictureId: IdSchema });

/** updateimagestatus: a picture online (shown once approved) or offline. */
export const UpdateImageStatusSchema = v.object({ PictureId: IdSchema, Online: online });

/** reorderimages: every picture id of the advert, in the new order. */
export const ReorderImagesSchema = v.object({
  Ids: v.pipe(idList(MEDIA_LIMITS.picturesPerAdvert), v.minLength(1, 'required')),
});

/** removeimage: the advertiser deletes one of their videos (the spec's name). */
export const VideoIdSchema = v.object({ VideoId: IdSchema });

/** updatevideostatus: shows (Online) or hides one of the advertiser's videos. */
export const UpdateVideoStatusSchema = v.object({ VideoId: IdSchema, Online: online });

/** reordervideos: the advertiser's videos in their new order. */
export const ReorderVideosSchema = v.object({
  Ids: v.pipe(idList(MEDIA_LIMITS.videosPerAdvert), v.minLength(1, 'required')),
});

/** Support's approveimageitem and approvevideoitem. */
export const ModerationItemSchema = v.object({ Id: IdSchema });

/**
 * Support's declineimageitem, removeimageitem, declinevideoitem and removevideoitem: the reason is
 * required (the advertiser is told why, as a statement of reasons).
 */
export const ModerationDecisionSchema = v.object({
  Id: IdSchema,
  Reason: v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.maxLength(1000, 'tooLong')),
  /** The rule of the terms the decision rests on (the statement of reasons names it); content when left out. */
  Rule: v.optional(v.picklist(TERMS_RULES, 'invalid')),
});
