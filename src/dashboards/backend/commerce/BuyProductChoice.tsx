/**
 * Choosing and buying one product of a type (1 package, 2 front-page boost, 3 search boost): the offers
 * with their price incl. VAT, the payment methods the server offers, the terms before paying and the
 * express request to start at once (EU 2011/83 art. 16(a)), then buyproduct and on to the provider.
 * A refusal or failure is shown in the user's language and keeps every choice made.
 */
import { useState } from 'react';
import { useStore } from '@nanostores/react';
import { isApiError } from '#lib/api/errors.ts';
import { formatDate, formatDkk } from '#lib/format.ts';
import { rankingPageHref } from '#lib/ranking-page.ts';
import { $locale } from '#lib/stores/locale.ts';
import { FormNotice } from '../../../components/form/Field.tsx';
import { goToLogin } from '../../shared/session-ended.ts';
import { primaryButton } from '../../shared/form-text.ts';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';
import type { BackendRoute } from '../routes.ts';
import { ScreenShell, useScreenData } from '../screen-data.tsx';
import { buyFailureText } from './buy-errors.ts';
import { commerceApi, followBuyAnswer, rememberOrder, type PaymentMethodName, type PromotionsAnswer } from './api.ts';

const cardClass = 'rounded-xl border border-slate-200 bg-white p-5';

export function BuyProductChoice({ typeId, route, intro }: { typeId: 1 | 2 | 3; route: BackendRoute; intro?: string }) {
  const t = useAppT(backendI18n);
  const { state, reload } = useScreenData((signal) => commerceApi.promotions(typeId, signal));
  return (
    <div className="max-w-3xl">
      <ScreenShell id={`${route}-heading`} title={t(`screens.${route}`)} intro={intro} state={state} loadError={t('commerce.loadError')} onRetry={reload}>
        {(offer) => <BuyForm offer={offer} typeId={typeId} />}
      </ScreenShell>
    </div>
  );
}

function BuyForm({ offer, typeId }: { offer: PromotionsAnswer; typeId: 1 | 2 | 3 }) {
  const t = useAppT(backendI18n);
  const locale = useStore($locale);
  // Product names in the screen's language, whatever the account's (the name already says its days).
  const nameOf = (offered: { nameDa: string; nameEn: string }) => (locale === 'en' ? offered.nameEn : offered.nameDa);
  const [productId, setProductId] = useState<number | null>(offer.products[0]?.id ?? null);
  const [method, setMethod] = useState<PaymentMethodName | null>(offer.paymentMethods[0] ?? null);
  const [startNow, setStartNow] = useState(false);
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const product = offer.products.find((p) => p.id === productId) ?? null;

  if (offer.products.length === 0) return <p className="mt-6 text-slate-800">{t('commerce.noProducts')}</p>;

  async function pay(event: React.FormEvent) {
    event.preventDefault();
    setTried(true);
    setError(null);
    if (!product || !method) return setError(t('commerce.chooseBoth'));
    if (!startNow) return setError(t('commerce.startNowRequired'));
    setBusy(true);
    try {
      const answer = await commerceApi.buy(product.id, method);
      rememberOrder(answer.referenceId, answer.orderId);
      followBuyAnswer(answer.next);
    } catch (failure) {
      setBusy(false);
      if (isApiError(failure, 401)) return goToLogin();
      setError(buyFailureText(t, failure));
    }
  }

  const renews = product?.recurring === true && method === 'card';
  return (
    <form onSubmit={(event) => void pay(event)} noValidate className="mt-6 space-y-6" data-buy-form>
      {offer.startsWhenPublic ? (
        <p className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-ink" data-starts-when-public>
          {t('commerce.startsWhenPublic')}
        </p>
      ) : null}
      {offer.runningUntil ? (
        <p className="text-slate-800" data-running-until>
          {t(typeId === 1 ? 'commerce.packageRunsUntil' : 'commerce.boostRunsUntil', { date: formatDate(offer.runningUntil) })}
        </p>
      ) : null}
      <fieldset className={cardClass}>
        <legend className="px-1 text-lg font-semibold text-ink">{t(typeId === 1 ? 'commerce.choosePackage' : 'commerce.chooseBoost')}</legend>
        <p className="mt-1 text-sm text-slate-700">{t('commerce.vatIncluded')}</p>
        <div className="mt-3 space-y-2">
          {offer.products.map((p) => (
            <label key={p.id} className="flex min-h-11 items-center gap-3 rounded-lg border border-slate-200 px-3 py-2">
              <input type="radio" name="product" value={p.id} checked={productId === p.id} onChange={() => setProductId(p.id)} />
              <span className="flex-1 font-medium text-ink">
                {nameOf(p)}
              </span>
              <span className="font-semibold text-ink" data-price>
                {formatDkk(p.priceOre)}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className={cardClass}>
        <legend className="px-1 text-lg font-semibold text-ink">{t('commerce.paymentMethod')}</legend>
        {offer.paymentMethods.length === 0 ? <p className="mt-2 text-slate-800">{t('commerce.noMethods')}</p> : null}
        <div className="mt-3 space-y-2">
          {offer.paymentMethods.map((m) => (
            <label key={m} className="flex min-h-11 items-center gap-3 rounded-lg border border-slate-200 px-3 py-2">
              <input type="radio" name="method" value={m} checked={method === m} onChange={() => setMethod(m)} />
              <span className="font-medium text-ink">{t(`commerce.methods.${m}`)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {product ? (
        <section aria-labelledby="buy-summary-title" className={cardClass} data-buy-summary>
          <h2 id="buy-summary-title" className="text-lg font-semibold text-ink">
            {t('commerce.summaryTitle')}
          </h2>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-slate-800">
            <dt className="font-medium">{t('commerce.what')}</dt>
            <dd>{t(`commerce.typeExplain.${typeId}`, { name: nameOf(product) })}</dd>
            <dt className="font-medium">{t('commerce.length')}</dt>
            <dd>{t('commerce.days', { count: product.days })}</dd>
            <dt className="font-medium">{t('commerce.price')}</dt>
            <dd data-summary-price>{t('commerce.priceWithVat', { price: formatDkk(product.priceOre), vat: formatDkk(product.vatOre) })}</dd>
            <dt className="font-medium">{t('commerce.renewal')}</dt>
            <dd>{renews ? t('commerce.renewsYes', { days: product.days }) : t('commerce.renewsNo')}</dd>
          </dl>
          <p className="mt-3 text-sm text-slate-800">{t('commerce.withdrawalRight')}</p>
          {typeId !== 1 ? (
            <p className="mt-2 text-sm text-slate-800">
              {t('commerce.rankingNote')}{' '}
              <a href={rankingPageHref(locale)} className="font-semibold text-brand-700 underline">
                {t('commerce.rankingLink')}
              </a>
            </p>
          ) : null}
          <label className="mt-4 flex items-start gap-3">
            <input type="checkbox" className="mt-1" checked={startNow} onChange={(e) => setStartNow(e.target.checked)} required aria-invalid={tried && !startNow} />
            <span className="text-ink">{t('commerce.startNow')}</span>
          </label>
        </section>
      ) : null}
      <FormNotice message={error} />
      <button type="submit" className={primaryButton} disabled={busy || offer.paymentMethods.length === 0}>
        {busy ? t('commerce.paying') : product ? t('commerce.pay', { price: formatDkk(product.priceOre) }) : t('commerce.payPlain')}
      </button>
    </form>
  );
}
