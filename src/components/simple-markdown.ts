/**
 * A small, safe Markdown subset for landing-page bodies written by SEO staff: headings (## and ###),
 * paragraphs, bullet and numbered lists, **bold**, *italic* and [links](/path/ or https://...).
 * It returns a structure that the Astro component renders with escaping: raw HTML is shown as text.
 */

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'strong'; text: string }
  | { type: 'em'; text: string }
  | { type: 'link'; text: string; href: string };

export type Block =
  | { type: 'h2' | 'h3' | 'p'; content: Inline[] }
  | { type: 'ul' | 'ol'; items: Inline[][] };

const inlinePattern = /\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|_([^_\s][^_]*)_|\[([^\]]+)\]\(([^)\s]+)\)/g;

function safeHref(href: string): string | null {
  if (/^https?:\/\//i.test(href) || (href.startsWith('/') && !href.startsWith('//')) || href.startsWith('#')) return href;
  return null;
}

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const match of text.matchAll(inlinePattern)) {
    const index = match.index ?? 0;
    if (index > last) out.push({ type: 'text', text: text.slice(last, index) });
    const [whole, bold, em1, em2, linkText, href] = match;
    if (bold !== undefined) out.push({ type: 'strong', text: bold });
    else if (em1 !== undefined || em2 !== undefined) out.push({ type: 'em', text: (em1 ?? em2) as string });
    else if (linkText !== undefined && href !== undefined) {
      const safe = safeHref(href);
      out.push(safe ? { type: 'link', text: linkText, href: safe } : { type: 'text', text: whole });
    }
    last = index + whole.length;
  }
  if (last < text.length) out.push({ type: 'text', text: text.slice(last) });
  return out;
}

export function parseMarkdown(source: string): Block[] {
  const blocks: Block[] = [];
  const chunks = source.replace(/\r\n?/g, '\n').split(/\n\s*\n/);
  for (const chunk of chunks) {
    const lines = chunk
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    if (lines.length === 0) continue;
    const first = lines[0]!;
    const heading = /^(#{1,6})\s+(.*)$/.exec(first);
    if (heading && lines.length === 1) {
      blocks.push({ type: heading[1]!.length <= 2 ? 'h2' : 'h3', content: parseInline(heading[2]!) });
      continue;
    }
    if (lines.every((line) => /^[-*•]\s+/.test(line))) {
      blocks.push({ type: 'ul', items: lines.map((line) => parseInline(line.replace(/^[-*•]\s+/, ''))) });
      continue;
    }
    if (lines.every((line) => /^\d+[.)]\s+/.test(line))) {
      blocks.push({ type: 'ol', items: lines.map((line) => parseInline(line.replace(/^\d+[.)]\s+/, ''))) });
      continue;
    }
    if (heading) {
      blocks.push({ type: heading[1]!.length <= 2 ? 'h2' : 'h3', content: parseInline(heading[2]!) });
      blocks.push({ type: 'p', content: parseInline(lines.slice(1).join(' ')) });
      continue;
    }
    blocks.push({ type: 'p', content: parseInline(lines.join(' ')) });
  }
  return blocks;
}

/** The words of the text, for the reading time (Markdown marks removed). */
export function plainText(source: string): string {
  return source.replace(/[#*_>`]/g, ' ').replace(/\[([^\]]+)\]\([^)]*\)/g, '$1');
}
