/** Storage keys: generated relative paths, checked before they touch a disk or a bucket. */

const SAFE_KEY = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i;

/** The key itself, or an error when it could leave its area (`..`, absolute, odd characters). */
export function assertSafeKey(key: string): string {
  if (!SAFE_KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`unsafe storage key: ${JSON.stringify(key)}`);
  }
  return key;
}

const TYPES: Record<string, string> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  mp4: 'video/mp4',
  orig: 'application/octet-stream',
};

/** The Content-Type a stored file is served with, from its generated extension. */
export function contentTypeOfKey(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return TYPES[extension] ?? 'application/octet-stream';
}
