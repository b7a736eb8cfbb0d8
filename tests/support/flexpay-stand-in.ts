/**
 * Verotel FlexPay as a server of its own, for the production journey (tests/production/): the server under
 * test runs with PAYMENT_CARD=cardbilling and reaches this stand-in only through the live adapter's own
 * addresses (CARDBILLING_URL = `url`), as it would reach the provider's host. It is the built-in TEST card
 * provider's side of FlexPay (src/server/adapters/payments/test-card-provider.ts: the start URL checked as
 * FlexPay checks it, a hosted page, the signed postbacks of the vectors' shapes, the buyer sent back to the
 * success or decline URL) in a Fastify app of its own, so that nothing of it runs inside the server under
 * test: its postbacks arrive over HTTP at `postbackBase`, signed with the shop's key.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { TEST_CARD_SHOP_ID, createTestCardProvider } from '#server/adapters/payments/test-card-provider.ts';
import { testCardProviderRoutes } from '#server/api/test-card-provider.ts';

export type FlexPayStandIn = {
  /** The base the server's CARDBILLING_URL names (its `/startorder`, `/cancel-subscription`). */
  url: string;
  shopId: string;
  signatureKey: string;
  close: () => Promise<void>;
};

/** The prefix of the stand-in's FlexPay pages (the TEST pages' own links name it). */
const PREFIX = '/test-payments/card';

export async function startFlexPayStandIn(options: { postbackBase: string; backUrl: string }): Promise<FlexPayStandIn> {
  const signatureKey = randomBytes(24).toString('base64url');
  const app = Fastify({ logger: false });
  const provider = createTestCardProvider({ siteUrl: '', secret: signatureKey, postbackBase: () => options.postbackBase });
  await app.register(testCardProviderRoutes(provider, { production: false, backUrl: options.backUrl }), { prefix: PREFIX });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}${PREFIX}`;
  return { url, shopId: TEST_CARD_SHOP_ID, signatureKey, close: () => app.close() };
}
