/**
 * Support's preview of a landing page (the SEO editor, /support/landing-pages/{id}/): the article part of
 * the public page as LandingArticle.astro, LandingImages.astro and MarkdownBody.astro render it, or an
 * index page's SEO text as SearchLanding.astro places it, from the same description (#lib/landing-view.ts)
 * and the same Markdown and reading time (#lib/markdown.ts). The site's header, footer and adverts are
 * not part of it.
 */
import { landingText, renderMarkdown } from '#lib/markdown.ts';
import { landingClasses, landingImageSizes, landingImageViews } from '#lib/landing-view.ts';
import type { LandingPageImage } from '#lib/api/types.ts';

export type LandingPreviewProps = {
  type: 'service' | 'article' | 'free' | 'index';
  locale: 'da' | 'en';
  title: string;
  intro: string;
  body: string;
  images: LandingPageImage[];
  /** "3 min. læsning" in the page's language. */
  readingTime: (minutes: number) => string;
  /** Where an index page's adverts are (the preview shows no adverts). */
  advertsPlaceholder: string;
};

function Images({ images, fallbackAlt }: { images: LandingPageImage[]; fallbackAlt: string }) {
  const shown = landingImageViews(images, fallbackAlt);
  if (shown.length === 0) return null;
  const sizes = landingImageSizes(shown.length);
  return (
    <div className={landingClasses.grid(shown.length)}>
      {shown.map((image) => (
        <figure key={image.src} className={landingClasses.figure}>
          <picture>
            {image.avifSrcset ? <source type="image/avif" srcSet={image.avifSrcset} sizes={sizes} /> : null}
            {image.webpSrcset ? <source type="image/webp" srcSet={image.webpSrcset} sizes={sizes} /> : null}
            <img src={image.src} alt={image.alt} width={image.width} height={image.height} loading="lazy" decoding="async" className={landingClasses.img} />
          </picture>
        </figure>
      ))}
    </div>
  );
}

function Markdown({ text, className }: { text: string; className: string }) {
  return <div className={`${landingClasses.markdown} ${className}`} dangerouslySetInnerHTML={{ __html: renderMarkdown(text.trim(), 'page') }} />;
}

export function LandingPreview({ type, locale, title, intro, body, images, readingTime, advertsPlaceholder }: LandingPreviewProps) {
  const text = landingText(intro, body);
  if (type === 'index') {
    return (
      <div lang={locale} data-landing-preview={locale}>
        <header className={landingClasses.indexHeader}>
          <p className={landingClasses.title} role="heading" aria-level={2}>
            {title}
          </p>
          {intro ? <p className={landingClasses.indexIntro}>{intro}</p> : null}
        </header>
        <p className="rounded-xl border border-dashed border-slate-300 p-4 text-sm text-slate-600">{advertsPlaceholder}</p>
        {text.body || images.length > 0 ? (
          <section className={landingClasses.indexSection}>
            <Images images={images} fallbackAlt={title} />
            {text.body ? <Markdown text={text.body} className={landingClasses.indexBody} /> : null}
          </section>
        ) : null}
      </div>
    );
  }
  return (
    <article className={landingClasses.article} lang={locale} data-landing-preview={locale}>
      <p className={landingClasses.title} role="heading" aria-level={2}>
        {title}
      </p>
      <p className={landingClasses.meta}>
        <span data-reading-time>{readingTime(text.minutes)}</span>
      </p>
      {text.showIntro ? <p className={landingClasses.intro}>{intro}</p> : null}
      {images.length > 0 ? (
        <div className={landingClasses.images}>
          <Images images={images} fallbackAlt={title} />
        </div>
      ) : null}
      <Markdown text={text.body} className={landingClasses.body} />
    </article>
  );
}
