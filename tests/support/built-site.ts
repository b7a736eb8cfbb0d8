import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A small built site in the layout the site build produces (`builds/<id>/` with `current` linking to it),
 * for tests of what the server answers from a build without running Astro.
 */
export async function writeSite(siteDir: string, id: string, files: Record<string, string>): Promise<void> {
  const folder = path.join(siteDir, 'builds', id);
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(folder, name)), { recursive: true });
    await writeFile(path.join(folder, name), content);
  }
  await symlink(path.join('builds', id), path.join(siteDir, 'current'));
}
