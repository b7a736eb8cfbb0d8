/**
 * Administration's products (issue 16): list them, change names, price (øre, VAT included) and days, retire
 * or offer again; each change audited with before and after. Orders copied product name, days and price
 * when they were made, so a change here never alters an order (docs/decisions/025-commerce.md).
 */
import { asc, eq } from 'drizzle-orm';
import { splitGross } from '#lib/money.ts';
import type { ProductChangeInput, ProductItem } from '#lib/schemas/orders.ts';
import { products, type Product } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { requirePermission } from '../permissions.ts';
import { writeAudit } from '../audit.ts';

function itemOf(product: Product): ProductItem {
  return {
    id: product.id,
    code: product.code,
    type: product.type,
    nameDa: product.nameDa,
    nameEn: product.nameEn,
    days: product.days,
    priceOre: product.priceOre,
    vatOre: splitGross(product.priceOre).vatOre,
    active: product.active,
    recurring: product.recurring,
    updatedAt: product.updatedAt.toISOString(),
  };
}

/** What Administration changes of a product (and the audit records). */
const changeable = (product: Pick<Product, 'nameDa' | 'nameEn' | 'priceOre' | 'days' | 'active'>) => ({
  nameDa: product.nameDa,
  nameEn: product.nameEn,
  priceOre: product.priceOre,
  days: product.days,
  active: product.active,
});

/** products: every product, offered or retired, in the shop's order. */
export async function listProducts(ctx: DomainContext): Promise<ProductItem[]> {
  requirePermission(ctx.actor, 'products:manage:any');
  const rows = await ctx.db.select().from(products).orderBy(asc(products.type), asc(products.sortOrder), asc(products.id));
  return rows.map(itemOf);
}

/** product: new names, price, days and whether it is offered; audited when anything changed. */
export async function changeProduct(ctx: DomainContext, input: ProductChangeInput): Promise<ProductItem> {
  requirePermission(ctx.actor, 'products:manage:any');
  return ctx.db.transaction(async (tx) => {
    const [before] = await tx.select().from(products).where(eq(products.id, input.Id)).limit(1).for('update');
    if (!before) throw notFound('Product');
    const wanted = changeable({ nameDa: input.NameDa, nameEn: input.NameEn, priceOre: input.PriceOre, days: input.Days, active: input.Active });
    const was = changeable(before);
    if (Object.entries(wanted).every(([key, value]) => was[key as keyof typeof was] === value)) return itemOf(before);
    const [after] = await tx.update(products).set({ ...wanted, updatedAt: ctx.now() }).where(eq(products.id, before.id)).returning();
    await writeAudit({ ...ctx, db: tx }, { action: 'product.changed', targetType: 'product', targetId: before.id, before: was, after: wanted });
    return itemOf(after!);
  });
}
