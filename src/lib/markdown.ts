/**
 * Markdown as staff write it: news for advertisers, and the public pages' texts (landing pages, SEO texts,
 * legal pages). markdown-it, a well-kept CommonMark parser, with raw HTML off (typed tags are shown as
 * text), no images (the texts carry none, and the site's security policy would refuse other hosts'
 * pictures), and links only where markdown-it allows them (http, https, mailto and the site's own paths;
 * never javascript: or data:). Links to other sites (http, https and protocol-relative `//host`) get
 * `rel="nofollow noopener"`. A `#` heading becomes an h2: the page's own title is its only h1.
 * docs/decisions/028.
 */
import MarkdownIt from 'markdown-it';

/** A link to another site: http(s), or protocol-relative (`//host/…`, which the browser sends to that host). */
const OTHER_SITE = /^(?:https?:)?\/\//i;

function renderer(breaks: boolean): ReturnType<typeof MarkdownIt> {
  const markdown = new MarkdownIt('default', { html: false, linkify: false, typographer: false, breaks }).disable(['image']);
  const render = (name: string) =>
    markdown.renderer.rules[name] ?? ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
  const linkOpen = render('link_open');
  markdown.renderer.rules['link_open'] = (tokens, index, options, env, self) => {
    const href = String(tokens[index]!.attrGet('href') ?? '');
    if (OTHER_SITE.test(href)) tokens[index]!.attrSet('rel', 'nofollow noopener');
    return linkOpen(tokens, index, options, env, self);
  };
  for (const name of ['heading_open', 'heading_close']) {
    const heading = render(name);
    markdown.renderer.rules[name] = (tokens, index, options, env, self) => {
      if (tokens[index]!.tag === 'h1') tokens[index]!.tag = 'h2';
      return heading(tokens, index, options, env, self);
    };
  }
  return markdown;
}

/** Notes (news): a line break is a line break, as people expect in a message. */
const notes = renderer(true);
/** Pages: CommonMark's paragraphs (lines of one paragraph are joined). */
const pages = renderer(false);

/**
 * The HTML of a Markdown text: safe to put in a page as it is (nothing typed becomes markup but Markdown's
 * own). `kind` 'page' joins the lines of a paragraph (CommonMark); 'note' keeps each line break.
 */
export function renderMarkdown(text: string, kind: 'note' | 'page' = 'note'): string {
  return (kind === 'page' ? pages : notes).render(text);
}

/** The words of a Markdown text without its marks (the reading time, a page's word count). */
export function plainText(source: string): string {
  return source.replace(/[#*_>`]/g, ' ').replace(/\[([^\]]+)\]\([^)]*\)/g, '$1');
}

/**
 * What a landing page shows of its intro and body, one rule for the public page (LandingArticle.astro) and
 * support's editor and preview: the intro is the lead paragraph unless the body already starts with it, and
 * the reading time counts what is shown at 200 words a minute (spec §9).
 */
export function landingText(intro: string, body: string): { showIntro: boolean; body: string; minutes: number; words: number } {
  const trimmed = body.trim();
  const showIntro = Boolean(intro.trim()) && !trimmed.startsWith(intro.trim());
  const words = plainText(`${showIntro ? intro : ''} ${trimmed}`).split(/\s+/).filter(Boolean).length;
  return { showIntro, body: trimmed, minutes: Math.max(1, Math.ceil(words / 200)), words };
}
