/**
 * Reference data every installation needs: site settings, regions and cities, languages, nationalities,
 * services and products. Idempotent: rows are upserted by their natural keys, so it can run at every start.
 */
import { sql } from 'drizzle-orm';
import { slugify } from '#lib/format.ts';
import type { Db } from '../client.ts';
import { cities, languages, nationalities, pathRedirects, products, regions, services, siteSettings } from '../schema.ts';
import * as reference from './reference-data.ts';

export type SeedReferenceOptions = { siteUrl: string };

/** Products (spec: 1 Membership, 2 FrontpageBoost, 3 SearchBoost); prices in øre, 25% VAT included. */
export const referenceProducts = [
  { code: 'membership-30', type: 1, nameDa: 'Annonce i 30 dage', nameEn: 'Advert for 30 days', days: 30, priceOre: 49_900 },
  { code: 'membership-90', type: 1, nameDa: 'Annonce i 90 dage', nameEn: 'Advert for 90 days', days: 90, priceOre: 119_900 },
  {
    code: 'frontpage-boost-7',
    type: 2,
    nameDa: 'Forsidepromovering i 7 dage',
    nameEn: 'Front page promotion for 7 days',
    days: 7,
    priceOre: 19_900,
  },
  {
    code: 'search-boost-7',
    type: 3,
    nameDa: 'Søgepromovering i 7 dage',
    nameEn: 'Search promotion for 7 days',
    days: 7,
    priceOre: 14_900,
  },
  {
    // A renewing membership (card only: the card provider charges it again every 30 days until cancelled).
    code: 'membership-30-recurring',
    type: 1,
    nameDa: 'Annonce i 30 dage, fornyes automatisk',
    nameEn: 'Advert for 30 days, renews automatically',
    days: 30,
    priceOre: 49_900,
    recurring: true,
  },
] as const;

export async function seedReference(db: Db, options: SeedReferenceOptions): Promise<void> {
  await db.transaction(async (tx) => {
    // The site's own row: created once; afterwards only the site URL follows the configuration,
    // the rest is edited by support.
    await tx
      .insert(siteSettings)
      .values({
        id: 1,
        siteName: 'Annoncekatalog',
        siteUrl: options.siteUrl,
        companyName: 'Annoncekatalog ApS',
        companyAddress: 'Eksempelvej 12, 3. sal',
        companyZipCity: '1234 København K',
        companyEmail: 'kontakt@annoncekatalog.example',
        companyVat: 'DK12345678',
        supportEmail: 'support@annoncekatalog.example',
        supportPhone: '+45 12 34 56 78',
      })
      .onConflictDoUpdate({ target: siteSettings.id, set: { siteUrl: options.siteUrl } });

    const regionRows = await tx
      .insert(regions)
      .values(
        reference.regions.map((region, index) => ({
          name: region.name,
          nameEn: region.nameEn,
          slug: slugify(region.name),
          sortOrder: index,
        })),
      )
      .onConflictDoUpdate({
        target: regions.slug,
        set: { name: sql`excluded.name`, nameEn: sql`excluded.name_en`, sortOrder: sql`excluded.sort_order` },
      })
      .returning({ id: regions.id, slug: regions.slug });
    const regionIdBySlug = new Map(regionRows.map((row) => [row.slug, row.id]));

    // Cities are SEO staff's once stored (issue 17, domain/seo/places.ts): a city they renamed left a
    // redirect from its old address and is not made again under the old name, and a name they changed is
    // kept (the reference data still corrects postcodes, positions and order).
    const moved = new Set((await tx.select({ fromPath: pathRedirects.fromPath }).from(pathRedirects)).map((row) => row.fromPath));
    const cityValues = reference.regions.flatMap((region) => {
      const regionId = regionIdBySlug.get(slugify(region.name));
      if (regionId === undefined) throw new Error(`Region ${region.name} was not stored`);
      const seen = new Set<string>();
      return region.cities.flatMap((city, index) => {
        const slug = slugify(city.name);
        if (seen.has(slug) || moved.has(`/escort/${slugify(region.name)}/${slug}/`)) return [];
        seen.add(slug);
        return [{ regionId, name: city.name, slug, zip: city.zip, lat: city.lat, lng: city.lng, sortOrder: index }];
      });
    });
    await tx
      .insert(cities)
      .values(cityValues)
      .onConflictDoUpdate({
        target: [cities.regionId, cities.slug],
        set: {
          zip: sql`excluded.zip`,
          lat: sql`excluded.lat`,
          lng: sql`excluded.lng`,
          sortOrder: sql`excluded.sort_order`,
        },
      });

    await tx
      .insert(languages)
      .values(reference.languages.map((l) => ({ code: l.code, nameDa: l.nameDa, nameEn: l.nameEn })))
      .onConflictDoUpdate({
        target: languages.code,
        set: { nameDa: sql`excluded.name_da`, nameEn: sql`excluded.name_en` },
      });

    await tx
      .insert(nationalities)
      .values(reference.nationalities.map((n) => ({ code: n.code, nameDa: n.nameDa, nameEn: n.nameEn })))
      .onConflictDoUpdate({
        target: nationalities.code,
        set: { nameDa: sql`excluded.name_da`, nameEn: sql`excluded.name_en` },
      });

    await tx
      .insert(services)
      .values(
        reference.services.map((s, index) => ({
          slug: s.slug,
          nameDa: s.nameDa,
          nameEn: s.nameEn,
          type: s.type,
          descriptionDa: s.descriptionDa,
          descriptionEn: s.descriptionEn,
          sortOrder: index,
        })),
      )
      .onConflictDoUpdate({
        target: services.slug,
        set: {
          nameDa: sql`excluded.name_da`,
          nameEn: sql`excluded.name_en`,
          type: sql`excluded.type`,
          descriptionDa: sql`excluded.description_da`,
          descriptionEn: sql`excluded.description_en`,
          sortOrder: sql`excluded.sort_order`,
        },
      });

    // Prices and names are support's to change later, so existing products are left alone.
    await tx
      .insert(products)
      .values(referenceProducts.map((p, index) => ({ ...p, sortOrder: index })))
      .onConflictDoNothing({ target: products.code });
  });
}
