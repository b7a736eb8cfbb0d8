import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { MIGRATION_ADVERTS_FILE, MIGRATION_LIMITS, type MigrationImportError } from '#lib/schemas/migration.ts';

/**
 * The old site's export archive (docs/migration-format.md): a ZIP file read with yauzl from a file on
 * disk, by random access to its central directory (docs/decisions/031-old-site-import.md). Nothing is
 * ever written under an entry's name: a picture is copied to a path the caller chose, and every entry's
 * size is checked against its declared size while it is read (yauzl's `validateEntrySizes`), so a small
 * archive cannot unpack into more than it says.
 */

export type ExportArchive = {
  /** The entry of adverts.jsonl. */
  advertsFile: Entry;
  /** An entry by its name inside the archive (a file, not a folder), or undefined. */
  entry: (name: string) => Entry | undefined;
  /** The lines of adverts.jsonl (without their line ends), streamed; `tooLong` for a line over the limit. */
  lines: () => AsyncGenerator<{ text: string; tooLong: boolean }>;
  /** Copies one entry to `toPath`, at most `maxBytes`; answers its size and SHA-256, or null when larger. */
  extract: (entry: Entry, toPath: string, maxBytes: number) => Promise<{ bytes: number; sha256: string } | null>;
  close: () => void;
};

export type ArchiveOutcome = { ok: true; archive: ExportArchive } | { ok: false; reason: MigrationImportError };

/** Opens an export archive and checks what can be checked without reading it: a ZIP, with adverts.jsonl within limits. */
export async function openExportArchive(filePath: string): Promise<ArchiveOutcome> {
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(filePath, { lazyEntries: true, autoClose: false, validateEntrySizes: true });
  } catch {
    return { ok: false, reason: 'notAnArchive' };
  }
  const entries = new Map<string, Entry>();
  try {
    for await (const entry of zip.eachEntry()) {
      if (!entry.fileName.endsWith('/')) entries.set(entry.fileName, entry);
    }
  } catch {
    zip.close();
    return { ok: false, reason: 'notAnArchive' };
  }
  const advertsFile = entries.get(MIGRATION_ADVERTS_FILE);
  if (!advertsFile) {
    zip.close();
    return { ok: false, reason: 'noAdvertsFile' };
  }
  if (advertsFile.uncompressedSize > MIGRATION_LIMITS.advertsFileBytes) {
    zip.close();
    return { ok: false, reason: 'advertsFileTooLarge' };
  }

  const open = (entry: Entry): Promise<Readable> => zip.openReadStreamPromise(entry);

  return {
    ok: true,
    archive: {
      advertsFile,
      entry: (name) => entries.get(name),
      lines: () => splitLines(open(advertsFile), MIGRATION_LIMITS.lineBytes),
      extract: async (entry, toPath, maxBytes) => {
        if (entry.uncompressedSize > maxBytes) return null;
        const hash = createHash('sha256');
        let bytes = 0;
        const count = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            bytes += chunk.length;
            if (bytes > maxBytes) return done(new Error('the entry is larger than it says'));
            hash.update(chunk);
            done(null, chunk);
          },
        });
        await pipeline(await open(entry), count, createWriteStream(toPath));
        return { bytes, sha256: hash.digest('hex') };
      },
      close: () => zip.close(),
    },
  };
}

/**
 * The lines of a stream of UTF-8 text (LF or CRLF; a BOM at the start dropped), without holding more
 * than one line in memory: a line longer than `maxBytes` is answered empty with `tooLong`.
 */
async function* splitLines(source: Promise<Readable>, maxBytes: number): AsyncGenerator<{ text: string; tooLong: boolean }> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let tooLong = false;
  let first = true;
  const finish = (line: string) => {
    const text = (first ? line.replace(/^\uFEFF/, '') : line).replace(/\r$/, '');
    first = false;
    return tooLong || Buffer.byteLength(text) > maxBytes ? { text: '', tooLong: true } : { text, tooLong: false };
  };
  for await (const chunk of await source) {
    const parts = decoder.write(chunk as Buffer).split('\n');
    for (let index = 0; index < parts.length - 1; index += 1) {
      yield finish(pending + parts[index]!);
      pending = '';
      tooLong = false;
    }
    const rest = parts[parts.length - 1]!;
    if (tooLong) continue;
    pending += rest;
    if (Buffer.byteLength(pending) > maxBytes) {
      tooLong = true;
      pending = '';
    }
  }
  pending += decoder.end();
  if (pending !== '' || tooLong) yield finish(pending);
}
