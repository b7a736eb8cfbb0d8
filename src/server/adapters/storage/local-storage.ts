import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { MediaStorage, StorageArea } from '../types.ts';
import { contentTypeOfKey, assertSafeKey } from './keys.ts';

/** Media on this disk: `{root}/public/{key}` (served by @fastify/static) and `{root}/private/{key}`. */
export function createLocalStorage(root: string): MediaStorage {
  const areaRoot = (area: StorageArea) => path.join(root, area);
  const fileOf = (area: StorageArea, key: string) => path.join(areaRoot(area), assertSafeKey(key));
  const prepare = async (file: string) => mkdir(path.dirname(file), { recursive: true });

  return {
    async putFile(area, key, filePath) {
      const file = fileOf(area, key);
      await prepare(file);
      // Written beside and renamed would be atomic; a copy is enough for files named once and never rewritten.
      await copyFile(filePath, file);
    },
    async putBytes(area, key, bytes) {
      const file = fileOf(area, key);
      await prepare(file);
      await writeFile(file, bytes);
    },
    async open(area, key) {
      const file = fileOf(area, key);
      try {
        const info = await stat(file);
        if (!info.isFile()) return null;
        return { body: createReadStream(file), size: info.size, contentType: contentTypeOfKey(key) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async download(area, key, filePath) {
      await prepare(filePath);
      await pipeline(createReadStream(fileOf(area, key)), createWriteStream(filePath));
    },
    async exists(area, key) {
      try {
        return (await stat(fileOf(area, key))).isFile();
      } catch {
        return false;
      }
    },
    async copy(fromArea, fromKey, toArea, toKey) {
      const target = fileOf(toArea, toKey);
      await prepare(target);
      await copyFile(fileOf(fromArea, fromKey), target);
    },
    async delete(area, key) {
      await rm(fileOf(area, key), { force: true });
    },
    async deletePrefix(area, prefix) {
      const safe = assertSafeKey(prefix);
      const dir = path.join(areaRoot(area), path.dirname(safe));
      const start = path.basename(safe);
      let entries: string[];
      try {
        entries = await readdir(dir);
      } catch {
        return 0;
      }
      const matching = entries.filter((name) => name.startsWith(start));
      await Promise.all(matching.map((name) => rm(path.join(dir, name), { force: true, recursive: true })));
      return matching.length;
    },
    localRoot: (area) => areaRoot(area),
  };
}
