import { describe, expect, it } from 'vitest';
import { plainText, renderMarkdown } from '#lib/markdown.ts';

describe('Markdown as staff write it (renderMarkdown)', () => {
  it.each([
    ['**Nye** priser fra *mandag*', '<p><strong>Nye</strong> priser fra <em>mandag</em></p>\n'],
    ['- én\n- to', '<ul>\n<li>én</li>\n<li>to</li>\n</ul>\n'],
    ['## Overskrift', '<h2>Overskrift</h2>\n'],
    ['Linje et\nlinje to', '<p>Linje et<br>\nlinje to</p>\n'],
    ['Se [prislisten](/backend/advert-package/)', '<p>Se <a href="/backend/advert-package/">prislisten</a></p>\n'],
    ['Se [siden](https://example.test/)', '<p>Se <a href="https://example.test/" rel="nofollow noopener">siden</a></p>\n'],
    // Protocol-relative: another site as much as https:// is (issue 30).
    ['Se [siden](//example.test/side)', '<p>Se <a href="//example.test/side" rel="nofollow noopener">siden</a></p>\n'],
    ['Se [siden](HTTP://example.test/)', '<p>Se <a href="HTTP://example.test/" rel="nofollow noopener">siden</a></p>\n'],
    ['Se [afsnittet](#priser)', '<p>Se <a href="#priser">afsnittet</a></p>\n'],
    ['æ, ø og å', '<p>æ, ø og å</p>\n'],
  ])('%j', (text, html) => {
    expect(renderMarkdown(text)).toBe(html);
  });

  it.each([
    ['<script>alert(1)</script>', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n'],
    ['<img src=x onerror=alert(1)>', '<p>&lt;img src=x onerror=alert(1)&gt;</p>\n'],
    ['[klik](javascript:alert(1))', '<p>[klik](javascript:alert(1))</p>\n'],
    ['[klik](data:text/html;base64,PHNjcmlwdD4=)', '<p>[klik](data:text/html;base64,PHNjcmlwdD4=)</p>\n'],
  ])('keeps %j from becoming markup', (text, html) => {
    expect(renderMarkdown(text)).toBe(html);
  });

  it('shows an image as a link to it, never as a picture from another site', () => {
    expect(renderMarkdown('![billede](https://example.test/a.png)')).toBe('<p>!<a href="https://example.test/a.png" rel="nofollow noopener">billede</a></p>\n');
  });

  it('renders pages as CommonMark (a paragraph’s lines joined), with a # heading as an h2 under the page’s own h1', () => {
    expect(renderMarkdown('Første linje\nsamme afsnit\n\n# Titel\n\n### Under', 'page')).toBe(
      '<p>Første linje\nsamme afsnit</p>\n<h2>Titel</h2>\n<h3>Under</h3>\n',
    );
    expect(renderMarkdown('<b>fed</b> og [link](javascript:x)', 'page')).toBe('<p>&lt;b&gt;fed&lt;/b&gt; og [link](javascript:x)</p>\n');
  });

  it('counts the words of a text without its marks', () => {
    expect(plainText('## Titel\n**fed** [link](/x/)').split(/\s+/).filter(Boolean)).toEqual(['Titel', 'fed', 'link']);
  });
});
