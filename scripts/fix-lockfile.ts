/**
 * `npm run fix-lockfile`, after any `npm install` that changes dependencies.
 *
 * The npm registry reachable from our machines serves only the platform builds that install here
 * (linux-x64), so npm leaves the other platforms' optional binaries (darwin, win32, wasm32 …) out of
 * package-lock.json, and `npm ci` then refuses the lock as "out of sync". This adds a stub entry for
 * each missing optional dependency, with the platform it is for, so `npm ci` passes and skips them.
 * See docs/decisions/005-lockfile-optional-platform-packages.md.
 */
import { readFileSync, writeFileSync } from 'node:fs';

type LockEntry = { version?: string; dev?: boolean; optional?: boolean; os?: string[]; cpu?: string[]; optionalDependencies?: Record<string, string> };

const file = process.argv[2] ?? 'package-lock.json';
const lock = JSON.parse(readFileSync(file, 'utf8')) as { packages: Record<string, LockEntry> };
const packages = lock.packages;
let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    if (packages[`node_modules/${name}`] || packages[`${path}/node_modules/${name}`]) continue;
    const os = name.match(/(android|darwin|linux|win32|freebsd|openbsd|sunos|aix|netbsd|openharmony)/)?.[1];
    const cpu = name.match(/(arm64|x64|ia32|arm|ppc64|s390x|riscv64|loong64|mips64el|wasm32)/)?.[1];
    packages[`node_modules/${name}`] = {
      version: range.replace(/^[\^~=]/, ''),
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...(os ? { os: [os] } : {}),
      ...(cpu ? { cpu: [cpu] } : {}),
    };
    added += 1;
  }
}
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} optional platform entries added`);
