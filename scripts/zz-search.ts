import { openDatabase, migrateDatabase } from '#server/db/client.ts';
import { searchProfiles } from '#server/domain/search/search-profiles.ts';
import { searchWithFreeText } from '#server/domain/search/free-text.ts';
import { listFrontPageAdverts } from '#server/domain/search/front-page.ts';
import { refreshDueAdvertSearch } from '#server/domain/search/refresh-advert-search.ts';
import { sql } from 'drizzle-orm';
import * as v from 'valibot';
import { SearchProfilesSchema } from '#lib/schemas/search.ts';
const h = await openDatabase({ pgliteDir: '/tmp/b50k/db' });
if (process.argv[2] === 'reset') {
  await h.db.execute(sql`drop table if exists advert_search`);
  await h.db.execute(sql`delete from drizzle.__drizzle_migrations where id > 2`);
}
await migrateDatabase(h);
let t = performance.now();
console.log('refreshed', await refreshDueAdvertSearch(h.db, new Date()), 'in ms', (performance.now() - t).toFixed(0));
const cases = {
  kind: { Escort: true },
  city: { Url: '/escort/region-hovedstaden/koebenhavn/' },
  five: { Escort: true, AgeFrom: 22, AgeTo: 40, Languages: [2], Incall: true, Validated: true },
  text: { Text: 'rolig' },
  typo: { Text: 'kobenhavn' },
};
for (const [name, input] of Object.entries(cases)) {
  const parsed = v.parse(SearchProfilesSchema, input);
  const times: number[] = [];
  let total = 0;
  for (let i = 0; i < 15; i++) {
    const t = performance.now();
    const r = name === 'text' || name === 'typo' ? await searchWithFreeText(h.db, parsed, new Date()) : await searchProfiles(h.db, parsed, new Date());
    times.push(performance.now() - t);
    total = r.total;
  }
  times.sort((a, b) => a - b);
  console.log(name, 'total', total, 'median ms', times[7]!.toFixed(1), 'max', times[14]!.toFixed(1));
}
t = performance.now();
await listFrontPageAdverts(h.db, new Date(), 'da');
console.log('front page ms', (performance.now() - t).toFixed(1));
console.log('rss end', Math.round(process.memoryUsage().rss / 1e6));
await h.close();
