import { formatDate as date, formatDkk as dkk } from '#lib/format.ts';
import type { NoticeText } from '../moderation/moderation-texts.ts';

/** The advertiser's notices about orders (backend notification in Danish and English, and the email). */


type OrderFacts = { id: number; description: string; totalOre: number; periodEnd?: Date | null };

const receiptLink = (orderId: number) => `/backend/purchase-history/${orderId}/`;

export function paidText(order: OrderFacts): NoticeText {
  const until = order.periodEnd ? date(order.periodEnd) : '';
  return {
    titleDa: 'Tak for dit køb',
    titleEn: 'Thank you for your purchase',
    bodyDa: `Vi har modtaget ${dkk(order.totalOre)} for ${order.description}${until ? `, som gælder til ${until}` : ''}. Kvitteringen ligger i din købshistorik.`,
    bodyEn: `We received ${dkk(order.totalOre)} for ${order.description}${until ? `, valid until ${until}` : ''}. The receipt is in your purchase history.`,
    link: receiptLink(order.id),
  };
}

export function reversedText(order: OrderFacts, kind: 'refund' | 'chargeback'): NoticeText {
  return kind === 'refund'
    ? {
        titleDa: 'Dit køb er refunderet',
        titleEn: 'Your purchase was refunded',
        bodyDa: `${dkk(order.totalOre)} for ${order.description} er refunderet, og den resterende tid er taget tilbage. Kreditnotaen ligger i din købshistorik.`,
        bodyEn: `${dkk(order.totalOre)} for ${order.description} was refunded, and the time left was taken back. The credit note is in your purchase history.`,
        link: receiptLink(order.id),
      }
    : {
        titleDa: 'Betalingen er trukket tilbage',
        titleEn: 'The payment was charged back',
        bodyDa: `Din bank har trukket betalingen på ${dkk(order.totalOre)} for ${order.description} tilbage, og den resterende tid er taget tilbage. Kontakt support, hvis det er en fejl.`,
        bodyEn: `Your bank charged back the payment of ${dkk(order.totalOre)} for ${order.description}, and the time left was taken back. Contact support if this is a mistake.`,
        link: receiptLink(order.id),
      };
}

export function latePaymentText(order: OrderFacts): NoticeText {
  return {
    titleDa: 'Vi har modtaget en betaling, vi ikke kan bruge',
    titleEn: 'We received a payment we cannot use',
    bodyDa: `En betaling på ${dkk(order.totalOre)} for ${order.description} kom, efter at ordren var afsluttet eller allerede betalt. Den giver ingen tid; support refunderer den.`,
    bodyEn: `A payment of ${dkk(order.totalOre)} for ${order.description} arrived after the order had ended or was already paid. It gives no time; support will refund it.`,
    link: receiptLink(order.id),
  };
}

export function subscriptionCancelledText(until: Date | null): NoticeText {
  const end = until ? date(until) : '';
  return {
    titleDa: 'Din fornyelse er stoppet',
    titleEn: 'Your renewal was stopped',
    bodyDa: `Din annoncepakke fornyes ikke længere, og der trækkes ikke flere penge.${end ? ` Det betalte gælder til ${end}.` : ''}`,
    bodyEn: `Your advert package no longer renews, and nothing more will be charged.${end ? ` What is paid runs until ${end}.` : ''}`,
    link: '/backend/advert-package/',
  };
}

export function renewalReminderText(input: { description: string; totalOre: number; chargeOn: Date; subscriptionId: number; siteUrl: string }): NoticeText {
  const link = `/backend/advert-package/?cancelSubscription=${input.subscriptionId}`;
  const url = `${input.siteUrl.replace(/\/$/, '')}${link}`;
  return {
    titleDa: 'Din annoncepakke fornyes snart',
    titleEn: 'Your advert package renews soon',
    bodyDa: `${input.description} fornyes ${date(input.chargeOn)}, og der trækkes ${dkk(input.totalOre)} på dit kort. Vil du ikke forny, kan du stoppe det med ét klik: ${url}`,
    bodyEn: `${input.description} renews on ${date(input.chargeOn)}, and ${dkk(input.totalOre)} will be charged to your card. To stop it, one click is enough: ${url}`,
    link,
  };
}
