/**
 * /support/products/{id}/ (Administration): one product as it is now, and the form that changes its Danish
 * and English names, days, price (typed in kroner, "499,00" or "1.199,00", read into øre exactly by the
 * schema, ProductFormSchema) and whether it is sold (POST product). Taking a product out of sale asks first
 * (inline, as support's order status change does). A refused form keeps what was typed and shows the
 * server's messages at their fields; leaving a changed form asks first. The screen says that orders keep
 * the price they were bought at.
 */
import type { ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { useStore } from '@nanostores/react';
import { supportOrdersApi } from '#lib/api/support-orders.ts';
import { formatDateTime, formatDkk, formatKroner } from '#lib/format.ts';
import { ProductFormSchema, type ProductChangeInput, type ProductItem } from '#lib/schemas/orders.ts';
import { $locale } from '#lib/stores/locale.ts';
import { toast } from '#lib/stores/toasts.ts';
import { CheckboxField, Field, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { SendConfirmation, useSendConfirmation } from '../../shared/confirm-before-sending.tsx';
import { fieldText, noticeText, primaryButton } from '../../shared/form-text.ts';
import { useScreenData } from '../../shared/screen-data.tsx';
import { goToLogin } from '../../shared/session-ended.ts';
import { useUnsavedChanges } from '../../shared/unsaved-changes.ts';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import type { SupportScreenProps } from '../screen-props.ts';
import { Facts, ItemScreen, itemLoader } from '../item-screen.tsx';
import { ProductStatus } from '../products/ProductsScreen.tsx';

export default function ProductScreen({ params }: SupportScreenProps) {
  const id = params['id'] ?? '';
  return <ProductLoader key={id} id={id} />;
}

function ProductLoader({ id }: { id: string }) {
  const t = useAppT(supportI18n);
  const locale = useStore($locale);
  // The products are few: the one of the address is found among them (the call answers all).
  const { state, setData, reload } = useScreenData<ProductItem | 'notFound'>(
    itemLoader(id, async (productId, signal) => (await supportOrdersApi.products(signal)).find((product) => product.id === productId) ?? 'notFound'),
  );
  const product = state.status === 'ready' && state.data !== 'notFound' ? state.data : null;
  return (
    <ItemScreen
      width="max-w-3xl"
      catalog="product"
      list='products'
      title={product ? nameOf(product, locale) : t('screens.product')}
      state={state}
      onRetry={reload}
    >
      {(item) => (
        <div className="mt-6 space-y-8">
          <p className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950" data-keeps-price>
            {t('product.keepsPrice')}
          </p>
          <ProductFacts t={t} product={item} />
          <ProductForm t={t} product={item} name={nameOf(item, locale)} onSaved={setData} />
        </div>
      )}
    </ItemScreen>
  );
}

const nameOf = (product: ProductItem, locale: string) => (locale === 'en' ? product.nameEn : product.nameDa);

function ProductFacts({ t, product }: { t: TFunction; product: ProductItem }) {
  const rows: [string, ReactNode][] = [
    [t('product.facts.type'), t(`products.types.${product.type}`, { defaultValue: String(product.type) })],
    [t('product.facts.code'), product.code],
    [t('product.facts.price'), t('product.facts.priceWithVat', { price: formatDkk(product.priceOre), vat: formatDkk(product.vatOre) })],
    [t('product.facts.renews'), product.recurring ? t('products.renews') : t('products.once')],
    [t('product.facts.status'), <ProductStatus key="status" t={t} product={product} />],
    [t('product.facts.updated'), formatDateTime(product.updatedAt)],
  ];
  return (
    <section aria-labelledby="product-facts" className="rounded-xl border border-slate-200 bg-white p-5" data-product-facts>
      <h2 id="product-facts" className="text-lg font-semibold text-ink">
        {t('product.facts.title')}
      </h2>
      <Facts rows={rows} />
    </section>
  );
}

/** The form's values: the product as the call takes it, the price in kroner as typed. */
const valuesOf = (product: ProductItem) => ({
  Id: product.id,
  NameDa: product.nameDa,
  NameEn: product.nameEn,
  Days: String(product.days),
  PriceOre: formatKroner(product.priceOre),
  Active: product.active,
});

function ProductForm({ t, product, name, onSaved }: { t: TFunction; product: ProductItem; name: string; onSaved: (product: ProductItem) => void }) {
  const question = useSendConfirmation<ProductChangeInput>();
  const form = useApiForm({
    schema: ProductFormSchema,
    defaultValues: valuesOf(product),
    onUnauthorized: goToLogin,
    onValid: async (values: ProductChangeInput) => {
      // Taking it out of sale asks first.
      if (product.active && !values.Active && !question.mayProceed(values)) return;
      const saved = await supportOrdersApi.changeProduct(values);
      form.reset(valuesOf(saved));
      onSaved(saved);
      toast({ title: t('product.saved'), variant: 'success' });
    },
  });
  const {
    register,
    formState: { errors, isDirty, isSubmitting },
  } = form;
  useUnsavedChanges(isDirty, t('form.unsaved'));
  const err = (field: keyof typeof errors) => fieldText(t, errors[field]?.message);
  // A change while the question is open closes it: the question is asked again about what is sent.
  const cancelConfirmation = { onChange: question.cancel };

  return (
    <section aria-labelledby="product-form-title" className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="product-form-title" className="text-lg font-semibold text-ink">
        {t('product.form.title')}
      </h2>
      <form noValidate onSubmit={form.submit} className="mt-4 space-y-5">
        <FormNotice message={noticeText(t, form.notice) ?? err('Id') ?? null} />
        <Field id="product-name-da" label={t('product.form.nameDa')} hint={t('product.form.nameHint')} required error={err('NameDa')}>
          {(c) => <input {...c} {...register('NameDa', cancelConfirmation)} autoComplete="off" maxLength={100} className={controlClass(Boolean(errors.NameDa), 'h-11')} />}
        </Field>
        <Field id="product-name-en" label={t('product.form.nameEn')} required error={err('NameEn')}>
          {(c) => <input {...c} {...register('NameEn', cancelConfirmation)} lang="en" autoComplete="off" maxLength={100} className={controlClass(Boolean(errors.NameEn), 'h-11')} />}
        </Field>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field id="product-days" label={t('product.form.days')} required error={err('Days')}>
            {(c) => <input {...c} {...register('Days', cancelConfirmation)} inputMode="numeric" autoComplete="off" maxLength={4} className={controlClass(Boolean(errors.Days), 'h-11')} />}
          </Field>
          <Field id="product-price" label={t('product.form.price')} hint={t('product.form.priceHint')} required error={err('PriceOre')}>
            {(c) => <input {...c} {...register('PriceOre', cancelConfirmation)} inputMode="decimal" autoComplete="off" maxLength={14} className={controlClass(Boolean(errors.PriceOre), 'h-11')} />}
          </Field>
        </div>
        <CheckboxField
          id="product-active"
          label={
            <>
              <span className="font-medium">{t('product.form.active')}</span>
              <span className="block text-sm text-slate-600">{t('product.form.activeHint')}</span>
            </>
          }
          error={err('Active')}
        >
          {(c) => <input {...c} {...register('Active', cancelConfirmation)} type="checkbox" className="mt-0.5 h-5 w-5 rounded border-slate-400" />}
        </CheckboxField>
        {question.asking ? (
          <SendConfirmation
            id="product-retire-confirm"
            text={t('product.confirm.text', { name })}
            confirmLabel={t('product.confirm.confirm')}
            busyLabel={t('form.saving')}
            cancelLabel={t('product.confirm.cancel')}
            busy={isSubmitting}
            onConfirm={() => question.confirm(form.submit)}
            onCancel={question.cancel}
          />
        ) : (
          <button type="submit" className={primaryButton} disabled={isSubmitting}>
            {isSubmitting ? t('form.saving') : t('form.save')}
          </button>
        )}
      </form>
    </section>
  );
}
