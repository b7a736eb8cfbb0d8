/** Where support's review of a picture or video stands: pending, approved, or declined with support's reason. */
import type { ModerationWord } from '#lib/schemas/media.ts';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';

const tone: Record<ModerationWord, string> = {
  pending: 'border-amber-300 bg-amber-50 text-amber-950',
  approved: 'border-green-300 bg-green-50 text-green-900',
  declined: 'border-red-300 bg-red-50 text-red-900',
};

export function ModerationBadge({ moderation, reason }: { moderation: ModerationWord; reason: string | null }) {
  const t = useAppT(backendI18n);
  return (
    <p className="text-sm">
      <span data-testid="moderation" data-moderation={moderation} className={`inline-block rounded-full border px-2 py-0.5 font-medium ${tone[moderation]}`}>
        {t(`pictures.moderation.${moderation}`)}
      </span>
      {moderation === 'declined' && reason ? <span className="ml-2 text-red-900">{t('pictures.declineReason', { reason })}</span> : null}
    </p>
  );
}
