/**
 * `<picture>` sources for a stored picture: its variants grouped by format, best format first
 * (AVIF, then WebP), with the most widely supported format on the `<img>` itself. Shared by the site
 * build, the islands and the small vanilla scripts.
 */
import type { PublicPicture } from './schemas/public-advert.ts';

export type PictureSources = {
  /** One `<source type srcset>` per format the `<img>` does not carry, best first. */
  sources: { type: string; srcset: string }[];
  /** The `<img>`: a middle-sized `src`, the srcset of its format, and the picture's intrinsic size. */
  img: { src: string; srcset: string; width: number; height: number };
};

/** Preference for `<source>` order: the first a browser supports wins. */
const PREFERENCE = ['avif', 'webp', 'jpeg', 'png'];
/** Support by older browsers, most widely supported first: the `<img>` uses the first available. */
const COMPATIBILITY = ['jpeg', 'png', 'webp', 'avif'];

function normaliseFormat(format: string): string {
  const lower = format.toLowerCase().replace(/^image\//, '');
  return lower === 'jpg' ? 'jpeg' : lower;
}

function rank(order: string[], format: string): number {
  const index = order.indexOf(format);
  return index === -1 ? order.length : index;
}

/** 'a.webp 320w, b.webp 640w', narrowest first. */
export function srcsetOf(variants: { url: string; width: number }[]): string {
  return [...variants]
    .sort((a, b) => a.width - b.width)
    .map((variant) => `${variant.url} ${variant.width}w`)
    .join(', ');
}

/**
 * The sources of a picture, or null when it has no variant. `preferredWidth` picks the `src` of the
 * `<img>` (for browsers without srcset): the narrowest variant at least that wide, else the widest.
 */
export function pictureSources(picture: PublicPicture, preferredWidth = 640): PictureSources | null {
  const byFormat = new Map<string, PublicPicture['variants']>();
  for (const variant of picture.variants) {
    const format = normaliseFormat(variant.format);
    byFormat.set(format, [...(byFormat.get(format) ?? []), variant]);
  }
  if (byFormat.size === 0) return null;
  const formats = [...byFormat.keys()];
  const imgFormat = [...formats].sort((a, b) => rank(COMPATIBILITY, a) - rank(COMPATIBILITY, b))[0]!;
  const imgVariants = [...byFormat.get(imgFormat)!].sort((a, b) => a.width - b.width);
  const src = (imgVariants.find((variant) => variant.width >= preferredWidth) ?? imgVariants[imgVariants.length - 1])!;
  const sources = formats
    .filter((format) => format !== imgFormat)
    .sort((a, b) => rank(PREFERENCE, a) - rank(PREFERENCE, b))
    .map((format) => ({ type: `image/${format}`, srcset: srcsetOf(byFormat.get(format)!) }));
  return {
    sources,
    img: { src: src.url, srcset: srcsetOf(imgVariants), width: picture.width, height: picture.height },
  };
}

/** The widest variant of the picture's most widely supported format (a link to the picture at full size), or null. */
export function largestPictureUrl(picture: PublicPicture): string | null {
  const sources = pictureSources(picture, Number.MAX_SAFE_INTEGER);
  return sources?.img.src ?? null;
}
