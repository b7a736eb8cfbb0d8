import type { FastifyInstance } from 'fastify';
import {
  AddReviewSchema,
  AddToBlacklistSchema,
  BasicInformationSchema,
  ChangeProfileStatusSchema,
  DeleteProfileScheduleSchema,
  DeleteReviewSchema,
  DeleteUserSchema,
  InsertPriceServiceSchema,
  ItemIdSchema,
  LocaleSchema,
  PersonalDetailsSchema,
  ReorderPriceListItemsSchema,
  RestoreProfileSchema,
  ScheduleSchema,
  SetProfileHolidaySchema,
  UpdateExtraPriceItemSchema,
  UpdateNotificationSchema,
  UpdatePaymentOptionsSchema,
  UpdateProfileScheduleSchema,
  UpdateSkipItemsSchema,
} from '#lib/schemas/advert-edit.ts';
import { getBasicInformation, updateBasicInformation } from '../domain/adverts/basic-information.ts';
import { getPersonalDetails, updatePersonalDetails } from '../domain/adverts/personal-details.ts';
import {
  deleteExtraPriceItem,
  deletePriceListItem,
  getPriceService,
  insertPriceService,
  reorderPriceListItems,
  updateExtraPriceItem,
  updatePaymentOptions,
} from '../domain/adverts/price-list.ts';
import { deleteProfileSchedule, getSchedule, saveSchedule, updateProfileSchedule } from '../domain/adverts/schedule.ts';
import { resetProfileHoliday, setProfileHoliday } from '../domain/adverts/holiday.ts';
import { listProfileReviews, replyToReview, requestReviewRemoval } from '../domain/adverts/reviews.ts';
import { addToBlacklist, listBlacklist, removeFromBlacklist } from '../domain/adverts/blacklist.ts';
import { changeProfileStatus, deleteAdvertiser, restoreProfile } from '../domain/adverts/change-status.ts';
import {
  getDashboard,
  getSkipItems,
  listLastPromotions,
  listNotifications,
  updateNotification,
  updateSkipItems,
} from '../domain/adverts/dashboard.ts';
import { exportAccountData } from '../domain/accounts/data-export.ts';
import { advertiserOf } from './backend.ts';
import { NewsIdSchema } from '#lib/schemas/news.ts';
import { isoDayOf } from '#lib/format.ts';
import { markNewsRead } from '../domain/news/news.ts';
import { clearSessionCookie, contextFor, noStore, readInput, setSessionCookie, type ApiDeps } from './http.ts';

/**
 * /api/backend/...: the calls that edit the advertiser's own advert (spec §7; issue 4 part B). Registered
 * inside `backendRoutes`, after its session hook, so every call here has a signed-in advertiser; the
 * domain finds the caller's advert itself (`getOwnAdvert`), so no call takes an advert id.
 */
export function backendAdvertRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    const ctxOf = (request: Parameters<typeof advertiserOf>[0]) => contextFor(deps, request, advertiserOf(request));

    // Dashboard ------------------------------------------------------------------------------
    app.get('/dashboard', async (request) => getDashboard(ctxOf(request)));
    app.get('/dashboardlastpromotions', async (request) => listLastPromotions(ctxOf(request)));
    app.get('/skipdashboarditems', async (request) => getSkipItems(ctxOf(request)));
    app.post('/updateskipitems', async (request) => {
      const input = readInput(request, UpdateSkipItemsSchema);
      return updateSkipItems(ctxOf(request), input.Items);
    });
    app.get('/notifications', async (request) => {
      const input = readInput(request, LocaleSchema);
      return listNotifications(ctxOf(request), input.Locale);
    });
    app.post('/updatenotification', async (request) => updateNotification(ctxOf(request), readInput(request, UpdateNotificationSchema)));
    /** A news item opened on the dashboard: read for this advertiser from now on. */
    app.post('/readnews', async (request) => markNewsRead(ctxOf(request), readInput(request, NewsIdSchema).Id));

    // Basic information and personal details -------------------------------------------------
    app.get('/basicinformation', async (request) => getBasicInformation(ctxOf(request)));
    app.post('/basicinformation', async (request) => updateBasicInformation(ctxOf(request), readInput(request, BasicInformationSchema)));
    app.get('/personaldetails', async (request) => getPersonalDetails(ctxOf(request)));
    app.post('/personaldetails', async (request) => updatePersonalDetails(ctxOf(request), readInput(request, PersonalDetailsSchema)));

    // Prices, services and payment options ---------------------------------------------------
    app.get('/priceservice', async (request) => getPriceService(ctxOf(request)));
    app.post('/insertpriceservice', async (request) => insertPriceService(ctxOf(request), readInput(request, InsertPriceServiceSchema)));
    app.post('/updateextrapriceitem', async (request) => updateExtraPriceItem(ctxOf(request), readInput(request, UpdateExtraPriceItemSchema)));
    app.post('/deleteextrapriceitem', async (request) => deleteExtraPriceItem(ctxOf(request), readInput(request, ItemIdSchema).Id));
    app.post('/deletepricelistitem', async (request) => deletePriceListItem(ctxOf(request), readInput(request, ItemIdSchema).Id));
    app.post('/reorderpricelistitems', async (request) => reorderPriceListItems(ctxOf(request), readInput(request, ReorderPriceListItemsSchema).Ids));
    app.post('/updatepaymentoptions', async (request) =>
      updatePaymentOptions(ctxOf(request), readInput(request, UpdatePaymentOptionsSchema).PaymentOptions),
    );

    // Schedule and holiday -------------------------------------------------------------------
    app.get('/schedule', async (request) => getSchedule(ctxOf(request)));
    app.post('/schedule', async (request) => saveSchedule(ctxOf(request), readInput(request, ScheduleSchema)));
    app.post('/updateprofileschedule', async (request) => updateProfileSchedule(ctxOf(request), readInput(request, UpdateProfileScheduleSchema)));
    app.post('/deleteprofileschedule', async (request) => deleteProfileSchedule(ctxOf(request), readInput(request, DeleteProfileScheduleSchema)));
    app.post('/setprofileholiday', async (request) => setProfileHoliday(ctxOf(request), readInput(request, SetProfileHolidaySchema)));
    app.post('/resetprofileholidation', async (request) => resetProfileHoliday(ctxOf(request)));

    // Reviews and blacklist ------------------------------------------------------------------
    app.get('/profilereviews', async (request) => listProfileReviews(ctxOf(request)));
    app.post('/addreview', async (request) => replyToReview(ctxOf(request), readInput(request, AddReviewSchema)));
    app.post('/deletereview', async (request) => requestReviewRemoval(ctxOf(request), readInput(request, DeleteReviewSchema)));
    app.get('/profileblacklist', async (request) => listBlacklist(ctxOf(request)));
    app.post('/addtoblacklist', async (request, reply) => {
      const entry = await addToBlacklist(ctxOf(request), readInput(request, AddToBlacklistSchema));
      return reply.code(201).send(entry);
    });
    /** Not in the spec's list: takes a number off the blacklist again (the screen's remove button). */
    app.post('/removefromblacklist', async (request, reply) => {
      await removeFromBlacklist(ctxOf(request), readInput(request, ItemIdSchema).Id);
      return reply.code(204).send();
    });

    // Status and account ---------------------------------------------------------------------
    app.post('/changeprofilestatus', async (request) => changeProfileStatus(ctxOf(request), readInput(request, ChangeProfileStatusSchema)));
    /**
     * Our call (GDPR art. 15 and 20): everything kept about the advertiser as one JSON file to download;
     * the owner only, not while support is signed in as them (docs/decisions/023-erasure-and-data-export.md).
     */
    app.get('/dataexport', { config: { rateLimit: { max: 10, timeWindow: '1 minute' } } }, async (request, reply) => {
      const document = await exportAccountData(ctxOf(request));
      const day = isoDayOf(deps.now());
      return reply
        .header('Cache-Control', 'private, no-store')
        .header('Content-Disposition', `attachment; filename="annonce-data-${day}.json"`)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(document, null, 2));
    });
    app.post('/deleteuser', { config: { rateLimit: { max: 10, timeWindow: '1 minute' } } }, async (request, reply) => {
      await deleteAdvertiser(ctxOf(request), readInput(request, DeleteUserSchema));
      clearSessionCookie(reply, deps, 'advertiser');
      return reply.code(204).send();
    });
  };
}

/** /api/frontend/restoreprofile: sign in to a deleted account within 30 days and restore it (answers as login). */
export function restoreProfileRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    app.post('/restoreprofile', { config: { rateLimit: { max: 10, timeWindow: '1 minute' } } }, async (request, reply) => {
      noStore(reply);
      const input = readInput(request, RestoreProfileSchema);
      const ctx = contextFor(deps, request, { type: 'visitor' });
      const { session, profile } = await restoreProfile(ctx, input, { sessionDays: deps.sessionDays });
      setSessionCookie(reply, deps, 'advertiser', session);
      return profile;
    });
  };
}
