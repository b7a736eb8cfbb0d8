import pino, { type Logger } from 'pino';

/** JSON logs; cookies, auth headers and passwords never reach them. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        '*.password',
        '*.newPassword',
        '*.token',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; id: string; ip?: string }) => ({
        id: req.id,
        method: req.method,
        url: req.url.replace(/([?&](token|code)=)[^&]*/gi, '$1[redacted]'),
        ip: req.ip,
      }),
    },
  });
}
