import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { products } from '../../db/schema.ts';

/**
 * Products named in the screen's or document's language (issue 29): an order keeps the name it was bought
 * under, in the buyer's language then; when that is still the product's name in one language, screens and
 * PDFs show the product's name in theirs. A product renamed since keeps the words of the purchase.
 */
export type ProductNames = { da: string; en: string };

/** The names of these products, by id. */
export async function namesOfProducts(db: Db, productIds: (number | null)[]): Promise<Map<number, ProductNames>> {
  const ids = [...new Set(productIds.filter((id): id is number => id !== null))];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: products.id, da: products.nameDa, en: products.nameEn })
    .from(products)
    .where(inArray(products.id, ids));
  return new Map(rows.map((row) => [row.id, { da: row.da, en: row.en }]));
}

/** The order's product names when its description is one of them; else null. */
export function namesOfOrder(order: { productId: number | null; productDescription: string }, names: Map<number, ProductNames>): ProductNames | null {
  const named = order.productId === null ? undefined : names.get(order.productId);
  return named && (order.productDescription === named.da || order.productDescription === named.en) ? named : null;
}
