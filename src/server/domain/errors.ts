/** The one error type of the domain. Doors map `code` to a transport status (see `httpStatusOf`). */
export type AppErrorCode =
  | 'INVALID'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'GONE'
  | 'RATE_LIMITED'
  | 'UNAVAILABLE';

export type FieldError = { field: string; message: string };

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly fields: FieldError[];
  constructor(code: AppErrorCode, message: string, fields: FieldError[] = [], options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AppError';
    this.code = code;
    this.fields = fields;
  }
}

const statusByCode: Record<AppErrorCode, number> = {
  INVALID: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  GONE: 410,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
};

export function httpStatusOf(code: AppErrorCode): number {
  return statusByCode[code];
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} was not found`);
export const forbidden = (what = 'You may not do this') => new AppError('FORBIDDEN', what);
export const unauthenticated = () => new AppError('UNAUTHENTICATED', 'Sign in to continue');
