import { and, asc, count, eq, max } from 'drizzle-orm';
import {
  PAYMENT_OPTIONS,
  type InsertPriceServiceInput,
  type PaymentOption,
  type UpdateExtraPriceItemInput,
} from '#lib/schemas/advert-edit.ts';
import { anyOf } from '../../db/any-of.ts';
import { advertServices, extraPriceItems, priceListItems, services, type Advert } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { getOwnAdvert, publishAdvertChange, updateOwnAdvert } from './own-advert.ts';
import { saveModeratedEdit } from './moderated-edit.ts';

/** Prices in øre, VAT included (the screen shows them with formatDkk). */
export type PriceItemView = { id: number; durationMinutes: number; incallPriceOre: number | null; outcallPriceOre: number | null; description: string | null };
export type ExtraPriceItemView = { id: number; description: string; priceOre: number };

export type PriceServiceAnswer = {
  priceItems: PriceItemView[];
  extraPriceItems: ExtraPriceItemView[];
  /** Every service with its type (1 Girlfriend experience, 2 Pornstar experience, 3 Advanced, 4 Massage). */
  services: { id: number; slug: string; nameDa: string; nameEn: string; type: number; selected: boolean }[];
  /** The service ids waiting for support's approval (null: nothing pending). */
  pendingServiceIds: number[] | null;
  paymentOptions: { code: PaymentOption; selected: boolean }[];
  incall: boolean;
  outcall: boolean;
};

/** At most this many price items, and as many extra price items, per advert. */
const MAX_ITEMS = 30;
const tooMany = (field: string) => new AppError('INVALID', 'Too many items', [{ field, message: 'tooMany' }]);

async function listPriceItems(ctx: DomainContext, advertId: number) {
  return ctx.db
    .select()
    .from(priceListItems)
    .where(eq(priceListItems.advertId, advertId))
    .orderBy(asc(priceListItems.sortOrder), asc(priceListItems.id));
}

async function serviceIdsOf(ctx: DomainContext, advertId: number): Promise<number[]> {
  const rows = await ctx.db
    .select({ id: advertServices.serviceId })
    .from(advertServices)
    .where(eq(advertServices.advertId, advertId))
    .orderBy(asc(advertServices.serviceId));
  return rows.map((row) => row.id);
}

async function answerOf(ctx: DomainContext, advert: Advert): Promise<PriceServiceAnswer> {
  const [items, extras, allServices, selected] = await Promise.all([
    listPriceItems(ctx, advert.id),
    ctx.db
      .select()
      .from(extraPriceItems)
      .where(eq(extraPriceItems.advertId, advert.id))
      .orderBy(asc(extraPriceItems.sortOrder), asc(extraPriceItems.id)),
    ctx.db.select().from(services).orderBy(asc(services.type), asc(services.sortOrder), asc(services.nameDa)),
    serviceIdsOf(ctx, advert.id),
  ]);
  const pending = advert.pendingChanges?.['serviceIds'];
  return {
    priceItems: items.map(({ id, durationMinutes, incallPriceOre, outcallPriceOre, description }) => ({
      id,
      durationMinutes,
      incallPriceOre,
      outcallPriceOre,
      description,
    })),
    extraPriceItems: extras.map(({ id, description, priceOre }) => ({ id, description, priceOre })),
    services: allServices.map((s) => ({ id: s.id, slug: s.slug, nameDa: s.nameDa, nameEn: s.nameEn, type: s.type, selected: selected.includes(s.id) })),
    pendingServiceIds: Array.isArray(pending) ? (pending as number[]) : null,
    paymentOptions: PAYMENT_OPTIONS.map((code) => ({ code, selected: advert.paymentOptions.includes(code) })),
    incall: advert.incall,
    outcall: advert.outcall,
  };
}

/** priceservice (GET): price items, extra price items, services with their types, payment options. */
export async function getPriceService(ctx: DomainContext): Promise<PriceServiceAnswer> {
  return answerOf(ctx, await getOwnAdvert(ctx));
}

/**
 * Incall/outcall (search filters) follow the price list: an advert offers incall when one of its price
 * items has an incall price, and the same for outcall.
 */
async function syncIncallOutcall(ctx: DomainContext, advert: Advert): Promise<void> {
  const items = await listPriceItems(ctx, advert.id);
  const incall = items.some((item) => item.incallPriceOre !== null);
  const outcall = items.some((item) => item.outcallPriceOre !== null);
  if (incall !== advert.incall || outcall !== advert.outcall) await updateOwnAdvert(ctx, advert, { incall, outcall });
}

async function nextSortOrder(ctx: DomainContext, table: typeof priceListItems | typeof extraPriceItems, advertId: number): Promise<number> {
  const [row] = await ctx.db.select({ top: max(table.sortOrder) }).from(table).where(eq(table.advertId, advertId));
  return (row?.top ?? -1) + 1;
}

/** Every id must be one of the advert's items; any other id answers 404 (never telling whose it is). */
function requireOwnIds(ids: number[], own: Set<number>, what: string): void {
  if (ids.some((id) => !own.has(id))) throw notFound(what);
}

/**
 * insertpriceservice: price items and extra price items (with Id: changed; without: added at the end)
 * and, when given, the advert's services (the whole set; on an approved advert it waits for support's
 * approval like the other parts support reviews).
 */
export async function insertPriceService(ctx: DomainContext, input: InsertPriceServiceInput): Promise<PriceServiceAnswer> {
  const advert = await getOwnAdvert(ctx);
  const [items, extras] = await Promise.all([
    listPriceItems(ctx, advert.id),
    ctx.db.select().from(extraPriceItems).where(eq(extraPriceItems.advertId, advert.id)),
  ]);
  requireOwnIds(input.PriceItems.flatMap((item) => (item.Id ? [item.Id] : [])), new Set(items.map((i) => i.id)), 'Price item');
  requireOwnIds(input.ExtraPriceItems.flatMap((item) => (item.Id ? [item.Id] : [])), new Set(extras.map((i) => i.id)), 'Extra price item');
  const added = (list: { Id?: number | undefined }[]) => list.filter((item) => !item.Id).length;
  if (items.length + added(input.PriceItems) > MAX_ITEMS) throw tooMany('PriceItems');
  if (extras.length + added(input.ExtraPriceItems) > MAX_ITEMS) throw tooMany('ExtraPriceItems');
  const serviceIds = input.Services ? [...new Set(input.Services)].sort((a, b) => a - b) : undefined;
  if (serviceIds?.length) {
    const known = await ctx.db.select({ id: services.id }).from(services).where(anyOf(services.id, serviceIds));
    if (known.length !== serviceIds.length) throw new AppError('INVALID', 'Some required fields are missed', [{ field: 'Services', message: 'ids' }]);
  }

  const changesPrices = input.PriceItems.length > 0 || input.ExtraPriceItems.length > 0;
  if (changesPrices) {
    await ctx.db.transaction(async (tx) => {
      let order = (items.at(-1)?.sortOrder ?? -1) + 1;
      for (const item of input.PriceItems) {
        const values = {
          durationMinutes: item.DurationMinutes,
          incallPriceOre: item.IncallPrice,
          outcallPriceOre: item.OutcallPrice,
          description: item.Description || null,
        };
        if (item.Id) {
          await tx.update(priceListItems).set(values).where(and(eq(priceListItems.id, item.Id), eq(priceListItems.advertId, advert.id)));
        } else {
          await tx.insert(priceListItems).values({ ...values, advertId: advert.id, sortOrder: order++ });
        }
      }
      let extraOrder = Math.max(-1, ...extras.map((e) => e.sortOrder)) + 1;
      for (const item of input.ExtraPriceItems) {
        const values = { description: item.Description, priceOre: item.Price };
        if (item.Id) {
          await tx.update(extraPriceItems).set(values).where(and(eq(extraPriceItems.id, item.Id), eq(extraPriceItems.advertId, advert.id)));
        } else {
          await tx.insert(extraPriceItems).values({ ...values, advertId: advert.id, sortOrder: extraOrder++ });
        }
      }
    });
    await syncIncallOutcall(ctx, advert);
    await writeAudit(ctx, {
      action: 'advert.price_list.update',
      targetType: 'advert',
      targetId: advert.id,
      before: { priceItems: items, extraPriceItems: extras },
      after: { priceItems: input.PriceItems, extraPriceItems: input.ExtraPriceItems },
    });
    await publishAdvertChange(ctx, advert.id, 'advert.price_list.update');
  }
  if (serviceIds) {
    const fresh = await getOwnAdvert(ctx);
    await saveModeratedEdit(ctx, fresh, {
      action: 'advert.services.update',
      approved: { serviceIds: await serviceIdsOf(ctx, advert.id) },
      wanted: { serviceIds },
    });
  }
  return answerOf(ctx, await getOwnAdvert(ctx));
}

/** updateextrapriceitem: change one of the advert's extra price items (Id), or add one (no Id). */
export async function updateExtraPriceItem(ctx: DomainContext, input: UpdateExtraPriceItemInput): Promise<PriceServiceAnswer> {
  const advert = await getOwnAdvert(ctx);
  const values = { description: input.Description, priceOre: input.Price };
  let before: unknown = null;
  let id = input.Id;
  if (id) {
    const [existing] = await ctx.db
      .select()
      .from(extraPriceItems)
      .where(and(eq(extraPriceItems.id, id), eq(extraPriceItems.advertId, advert.id)));
    if (!existing) throw notFound('Extra price item');
    before = existing;
    await ctx.db.update(extraPriceItems).set(values).where(and(eq(extraPriceItems.id, id), eq(extraPriceItems.advertId, advert.id)));
  } else {
    const [counted] = await ctx.db.select({ n: count() }).from(extraPriceItems).where(eq(extraPriceItems.advertId, advert.id));
    if ((counted?.n ?? 0) >= MAX_ITEMS) throw tooMany('Description');
    const sortOrder = await nextSortOrder(ctx, extraPriceItems, advert.id);
    const [created] = await ctx.db.insert(extraPriceItems).values({ ...values, advertId: advert.id, sortOrder }).returning({ id: extraPriceItems.id });
    id = created!.id;
  }
  await writeAudit(ctx, { action: 'advert.extra_price_item.save', targetType: 'extra_price_item', targetId: id, before, after: values });
  await publishAdvertChange(ctx, advert.id, 'advert.extra_price_item.save');
  return answerOf(ctx, await getOwnAdvert(ctx));
}

/** deleteextrapriceitem: removes one of the advert's extra price items (404 for any other id). */
export async function deleteExtraPriceItem(ctx: DomainContext, id: number): Promise<PriceServiceAnswer> {
  const advert = await getOwnAdvert(ctx);
  const [deleted] = await ctx.db
    .delete(extraPriceItems)
    .where(and(eq(extraPriceItems.id, id), eq(extraPriceItems.advertId, advert.id)))
    .returning();
  if (!deleted) throw notFound('Extra price item');
  await writeAudit(ctx, { action: 'advert.extra_price_item.delete', targetType: 'extra_price_item', targetId: id, before: deleted });
  await publishAdvertChange(ctx, advert.id, 'advert.extra_price_item.delete');
  return answerOf(ctx, await getOwnAdvert(ctx));
}

/** deletepricelistitem: removes one of the advert's price items (404 for any other id). */
export async function deletePriceListItem(ctx: DomainContext, id: number): Promise<PriceServiceAnswer> {
  const advert = await getOwnAdvert(ctx);
  const [deleted] = await ctx.db
    .delete(priceListItems)
    .where(and(eq(priceListItems.id, id), eq(priceListItems.advertId, advert.id)))
    .returning();
  if (!deleted) throw notFound('Price item');
  await syncIncallOutcall(ctx, advert);
  await writeAudit(ctx, { action: 'advert.price_item.delete', targetType: 'price_list_item', targetId: id, before: deleted });
  await publishAdvertChange(ctx, advert.id, 'advert.price_item.delete');
  return answerOf(ctx, await getOwnAdvert(ctx));
}

/**
 * reorderpricelistitems: the advert's price item ids in their new order. The list must be exactly the
 * advert's items: an id of another advert answers 404, a missing or repeated one 400.
 */
export async function reorderPriceListItems(ctx: DomainContext, ids: number[]): Promise<PriceServiceAnswer> {
  const advert = await getOwnAdvert(ctx);
  const items = await listPriceItems(ctx, advert.id);
  const own = new Set(items.map((item) => item.id));
  requireOwnIds(ids, own, 'Price item');
  if (new Set(ids).size !== ids.length || ids.length !== own.size) {
    throw new AppError('INVALID', 'Some required fields are missed', [{ field: 'Ids', message: 'order' }]);
  }
  await ctx.db.transaction(async (tx) => {
    for (const [index, id] of ids.entries()) {
      await tx.update(priceListItems).set({ sortOrder: index }).where(and(eq(priceListItems.id, id), eq(priceListItems.advertId, advert.id)));
    }
  });
  await writeAudit(ctx, {
    action: 'advert.price_items.reorder',
    targetType: 'advert',
    targetId: advert.id,
    before: items.map((item) => item.id),
    after: ids,
  });
  await publishAdvertChange(ctx, advert.id, 'advert.price_items.reorder');
  return answerOf(ctx, await getOwnAdvert(ctx));
}

/** updatepaymentoptions: the payment options the advertiser accepts (cash, credit card, MobilePay, …). */
export async function updatePaymentOptions(ctx: DomainContext, options: PaymentOption[]): Promise<PriceServiceAnswer> {
  const advert = await getOwnAdvert(ctx);
  await updateOwnAdvert(ctx, advert, { paymentOptions: options });
  await writeAudit(ctx, {
    action: 'advert.payment_options.update',
    targetType: 'advert',
    targetId: advert.id,
    before: advert.paymentOptions,
    after: options,
  });
  await publishAdvertChange(ctx, advert.id, 'advert.payment_options.update');
  return answerOf(ctx, await getOwnAdvert(ctx));
}
