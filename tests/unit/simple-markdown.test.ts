import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown, plainText } from '../../src/components/simple-markdown.ts';

describe('landing page Markdown subset', () => {
  it('parses headings, paragraphs and lists', () => {
    expect(parseMarkdown('Intro line\nsame paragraph\n\n## Heading\n\n- one\n- two\n\n1. first\n2. second\n\n### Sub')).toEqual([
      { type: 'p', content: [{ type: 'text', text: 'Intro line same paragraph' }] },
      { type: 'h2', content: [{ type: 'text', text: 'Heading' }] },
      { type: 'ul', items: [[{ type: 'text', text: 'one' }], [{ type: 'text', text: 'two' }]] },
      { type: 'ol', items: [[{ type: 'text', text: 'first' }], [{ type: 'text', text: 'second' }]] },
      { type: 'h3', content: [{ type: 'text', text: 'Sub' }] },
    ]);
  });

  it('parses bold, italic and safe links; unsafe links stay text', () => {
    expect(parseInline('a **b** *c* [d](/escort/) [e](javascript:alert(1))')).toEqual([
      { type: 'text', text: 'a ' },
      { type: 'strong', text: 'b' },
      { type: 'text', text: ' ' },
      { type: 'em', text: 'c' },
      { type: 'text', text: ' ' },
      { type: 'link', text: 'd', href: '/escort/' },
      { type: 'text', text: ' ' },
      { type: 'text', text: '[e](javascript:alert(1)' },
      { type: 'text', text: ')' },
    ]);
  });

  it('keeps raw HTML as text (escaped on output)', () => {
    expect(parseMarkdown('<script>x</script>')).toEqual([{ type: 'p', content: [{ type: 'text', text: '<script>x</script>' }] }]);
  });

  it('counts words without the marks', () => {
    expect(plainText('## Title\n**bold** [link](/x/)').split(/\s+/).filter(Boolean)).toEqual(['Title', 'bold', 'link']);
  });
});
