/**
 * The text of a PDF made by pdfkit with its standard fonts (src/server/domain/commerce/receipt-pdf.ts):
 * each content stream is inflated (node:zlib) and the strings of its text operators (Tj, TJ) are decoded
 * from WinAnsi (Windows-1252), the encoding pdfkit writes the standard fonts in. One line of text per text
 * operator; kerning numbers inside a TJ array are dropped. Enough to read back what our own PDFs say; not
 * a general PDF reader.
 */
import { inflateSync } from 'node:zlib';

const winAnsi = new TextDecoder('windows-1252');

function streamsOf(pdf: Buffer): Buffer[] {
  const streams: Buffer[] = [];
  const source = pdf.toString('latin1');
  const pattern = /<<([^]*?)>>\s*stream\r?\n/g;
  for (let match = pattern.exec(source); match; match = pattern.exec(source)) {
    const start = match.index + match[0].length;
    const end = source.indexOf('endstream', start);
    if (end < 0) break;
    const raw = pdf.subarray(start, end);
    if (/\/FlateDecode/.test(match[1]!)) {
      try {
        streams.push(inflateSync(raw));
      } catch {
        // Not a stream we can read (fonts or images made otherwise): it holds no text of ours.
      }
    } else {
      streams.push(raw);
    }
    pattern.lastIndex = end;
  }
  return streams;
}

/** Bytes of a PDF string: <hex> or (literal with escapes). */
function bytesOf(token: string): Buffer {
  if (token.startsWith('<')) return Buffer.from(token.slice(1, -1).replace(/\s/g, ''), 'hex');
  const body = token.slice(1, -1).replace(/\\([nrtbf()\\]|[0-7]{1,3})/g, (_, escape: string) => {
    const named: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '(': '(', ')': ')', '\\': '\\' };
    return named[escape] ?? String.fromCharCode(Number.parseInt(escape, 8));
  });
  return Buffer.from(body, 'latin1');
}

/** The lines of text of the PDF, in the order they are drawn. */
export function pdfTextLines(pdf: Buffer): string[] {
  const lines: string[] = [];
  for (const stream of streamsOf(pdf)) {
    const content = stream.toString('latin1');
    const operators = /\[((?:[^\]\\]|\\.)*)\]\s*TJ|(<[0-9a-fA-F\s]*>|\((?:[^()\\]|\\.)*\))\s*Tj/g;
    for (let match = operators.exec(content); match; match = operators.exec(content)) {
      const strings = match[1] !== undefined ? (match[1].match(/<[0-9a-fA-F\s]*>|\((?:[^()\\]|\\.)*\)/g) ?? []) : [match[2]!];
      lines.push(strings.map((s) => winAnsi.decode(bytesOf(s))).join(''));
    }
  }
  return lines;
}

/** The PDF's text as one string (lines joined with newlines). */
export function pdfText(pdf: Buffer): string {
  return pdfTextLines(pdf).join('\n');
}
