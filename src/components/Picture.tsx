/** `<picture>` for a stored picture: one `<source>` per extra format, width/height always set. */
import type { PublicPicture } from '#lib/schemas/public-advert.ts';
import { pictureSources } from '#lib/pictures.ts';

type Props = { picture: PublicPicture; alt: string; sizes: string; eager?: boolean; className?: string };

export default function Picture({ picture, alt, sizes, eager = false, className }: Props) {
  const sources = pictureSources(picture);
  if (!sources) return null;
  return (
    <picture>
      {sources.sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcset} sizes={sizes} />
      ))}
      <img
        src={sources.img.src}
        srcSet={sources.img.srcset}
        sizes={sizes}
        width={sources.img.width}
        height={sources.img.height}
        alt={alt}
        loading={eager ? 'eager' : 'lazy'}
        fetchPriority={eager ? 'high' : undefined}
        decoding="async"
        className={className}
      />
    </picture>
  );
}
