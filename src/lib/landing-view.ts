/**
 * How a landing page's article part looks, one description for the public page (LandingArticle.astro,
 * LandingImages.astro, MarkdownBody.astro) and support's preview (src/components/LandingPreview.tsx), so
 * the preview is the page: the same classes, the same image files and sizes, the same Markdown HTML
 * (#lib/markdown.ts) and the same reading time (`landingText`).
 */
import type { LandingPageImage } from './api/types.ts';
import { srcsetOf } from './pictures.ts';

export const landingClasses = {
  article: 'mx-auto max-w-2xl',
  title: 'text-3xl font-bold tracking-tight text-ink md:text-4xl',
  meta: 'mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted',
  intro: 'mt-6 text-lg font-medium text-slate-800',
  images: 'mt-6',
  body: 'mt-6 space-y-4 text-base leading-relaxed text-slate-800',
  /** The Markdown wrapper's own classes (src/styles/global.css). */
  markdown: 'markdown-text markdown-page',
  grid: (count: number) => `grid gap-4${count > 1 ? ' sm:grid-cols-2' : ''}`,
  figure: 'overflow-hidden rounded-2xl bg-slate-100',
  img: 'h-auto w-full object-cover',
  /** A search landing page's SEO text (SearchLanding.astro): heading and intro above the adverts, pictures and body below. */
  indexHeader: 'mb-6',
  indexIntro: 'mt-3 max-w-3xl text-lg text-slate-700',
  indexSection: 'mt-12 max-w-3xl',
  indexBody: 'mt-4 space-y-4 text-base leading-relaxed text-slate-800',
} as const;

/** A picture's files under /media/: the fallback, and AVIF and WebP at every width when known. */
export type LandingImageView = {
  src: string;
  alt: string;
  width: number;
  height: number;
  avifSrcset: string | null;
  webpSrcset: string | null;
};

const mediaUrl = (key: string) => `/media/${key.replace(/^\/+/, '').replace(/^media\//, '')}`;

/** The images a page shows (keys that stay inside /media/), as <picture> elements take them. */
export function landingImageViews(images: LandingPageImage[] | undefined, fallbackAlt: string): LandingImageView[] {
  return (images ?? [])
    .filter((image) => image.key && !image.key.includes('..'))
    .map((image) => {
      const widths = image.base && !image.base.includes('..') ? (image.widths ?? []) : [];
      const srcset = (format: 'avif' | 'webp') =>
        widths.length > 0 ? srcsetOf(widths.map((width) => ({ url: mediaUrl(`${image.base}-${width}.${format}`), width }))) : null;
      return {
        src: mediaUrl(image.key),
        alt: image.alt || fallbackAlt,
        width: image.width ?? 1200,
        height: image.height ?? 800,
        avifSrcset: srcset('avif'),
        webpSrcset: srcset('webp'),
      };
    });
}

/** The sizes of a page's pictures: full width on phones, two columns of the article's 42rem from small screens up. */
export const landingImageSizes = (count: number) => (count > 1 ? '(min-width: 640px) 21rem, 100vw' : '(min-width: 672px) 42rem, 100vw');
