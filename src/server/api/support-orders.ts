import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BookkeepingPeriodSchema, OrderStatusChangeSchema, ProductChangeSchema, SupportOrderIdSchema, SupportOrdersQuerySchema } from '#lib/schemas/orders.ts';
import { getSupportDocumentPdf, getSupportOrder, listSupportOrders } from '../domain/commerce/support-orders.ts';
import { changeOrderStatus } from '../domain/commerce/change-order-status.ts';
import { documentsCsv, salesByMonthCsv } from '../domain/commerce/bookkeeping-csv.ts';
import { changeProduct, listProducts } from '../domain/commerce/products-admin.ts';
import type { Actor } from '../domain/context.ts';
import { contextFor, readInput, type ApiDeps } from './http.ts';
import { sendCsv, sendPdf } from './order-files.ts';

/**
 * /api/support/...: orders (Support: spec §7 orders, the order with its history and documents, a document's
 * PDF, its status change, the bookkeeper's CSV files) and products (Administration). Registered by support.ts, whose hook
 * has put the signed-in support user on the request.
 */
export function supportOrderRoutes(deps: ApiDeps, supportOf: (request: FastifyRequest) => Actor) {
  return async (app: FastifyInstance): Promise<void> => {
    const ctxOf = (request: FastifyRequest) => contextFor(deps, request, supportOf(request));

    app.get('/orders', async (request) => listSupportOrders(ctxOf(request), readInput(request, SupportOrdersQuerySchema)));

    app.get('/order', async (request) => getSupportOrder(ctxOf(request), readInput(request, SupportOrderIdSchema).Id));

    /** Paid → refunded or charged back with a reason (a credit note, the advertiser told): the order as it is now. */
    app.post('/orderstatus', async (request) => changeOrderStatus(ctxOf(request), readInput(request, OrderStatusChangeSchema), { messaging: deps.messaging }));

    /** Any order's document as a PDF (`Id`: the document; `Locale` for the other language). */
    app.get('/orderdocument', async (request, reply) => {
      const input = readInput(request, SupportOrderIdSchema);
      return sendPdf(reply, await getSupportDocumentPdf(ctxOf(request), { id: input.Id, locale: input.Locale }));
    });

    /** Sales and VAT by month for the bookkeeper (CSV, From and To as yyyy-MM-dd). */
    app.get('/ordersvatcsv', async (request, reply) => sendCsv(reply, await salesByMonthCsv(ctxOf(request), readInput(request, BookkeepingPeriodSchema))));

    /** Every sales document of a period (CSV). */
    app.get('/orderdocumentscsv', async (request, reply) => sendCsv(reply, await documentsCsv(ctxOf(request), readInput(request, BookkeepingPeriodSchema))));

    // ---- Products (Administration) -------------------------------------------------------------

    app.get('/products', async (request) => listProducts(ctxOf(request)));

    app.post('/product', async (request) => changeProduct(ctxOf(request), readInput(request, ProductChangeSchema)));
  };
}
