import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '#server/logger.ts';

/** What a logger writes, line by line. */
function capture(): { stream: Writable; lines: () => string[] } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, lines: () => text.split('\n').filter(Boolean) };
}

describe('log lines', () => {
  it('are one readable line a record in a terminal: a request as method, path, status and time, its secrets redacted', () => {
    const out = capture();
    const log = createLogger('info', 'pretty', out.stream);
    log.info({ reqId: 'abc', req: { id: 'abc', method: 'GET', url: '/login/change/?token=secret-token&id=12', ip: '127.0.0.1' }, res: { statusCode: 200 }, responseTime: 3.1 }, 'request');
    log.warn({ file: '/tmp/x' }, 'SECRETS_KEY is not set');
    const [request, warning] = out.lines();
    expect(request).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: request GET \/login\/change\/\?token=\[redacted\]&id=12 200 3\.1 ms$/);
    expect(warning).toMatch(/^\[\d\d:\d\d:\d\d\] WARN: SECRETS_KEY is not set \{"file":"\/tmp\/x"\}$/);
    expect(out.lines()).toHaveLength(2);
  });

  it('are JSON, one object a line, for log collectors', () => {
    const out = capture();
    const log = createLogger('info', 'json', out.stream);
    log.info({ req: { method: 'GET', url: '/?email=a@example.test' }, res: { statusCode: 200 } }, 'request');
    const record = JSON.parse(out.lines()[0]!) as { msg: string; req: { url: string } };
    expect(record.msg).toBe('request');
    expect(record.req.url).toBe('/?email=[redacted]');
  });
});
