import type { AppealDecision, StatementDecision, TermsRule } from '#lib/schemas/moderation.ts';

/**
 * The advertiser's words for moderation decisions, in Danish and English: a statement of reasons (what
 * was decided, why, which rule, how to appeal) and an appeal's outcome. Used for the backend's
 * notification (both languages) and the email (the account's language).
 */

export type NoticeText = { titleDa: string; titleEn: string; bodyDa: string; bodyEn: string; link: string | null };

type Words = { titleDa: string; titleEn: string; bodyDa: string; bodyEn: string };

/** What was decided. The media texts are those the advertiser got before statements of reasons existed. */
const DECISIONS: Record<StatementDecision, Words> = {
  'advert.locked': {
    titleDa: 'Din annonce er låst',
    titleEn: 'Your advert was locked',
    bodyDa: 'Support har låst din annonce, så den ikke vises på siden.',
    bodyEn: 'Support locked your advert, so it is not shown on the site.',
  },
  'picture.declined': {
    titleDa: 'Et billede blev afvist',
    titleEn: 'A picture was declined',
    bodyDa: 'Support har afvist et af dine billeder, så det ikke vises i din annonce.',
    bodyEn: 'Support declined one of your pictures, so it is not shown in your advert.',
  },
  'picture.removed': {
    titleDa: 'Et billede blev fjernet',
    titleEn: 'A picture was removed',
    bodyDa: 'Support har fjernet et af dine billeder fra din annonce.',
    bodyEn: 'Support removed one of your pictures from your advert.',
  },
  'video.declined': {
    titleDa: 'En video blev afvist',
    titleEn: 'A video was declined',
    bodyDa: 'Support har afvist en af dine videoer, så den ikke vises i din annonce.',
    bodyEn: 'Support declined one of your videos, so it is not shown in your advert.',
  },
  'video.removed': {
    titleDa: 'En video blev fjernet',
    titleEn: 'A video was removed',
    bodyDa: 'Support har fjernet en af dine videoer fra din annonce.',
    bodyEn: 'Support removed one of your videos from your advert.',
  },
  'report.content_removed': {
    titleDa: 'Indhold blev fjernet efter en anmeldelse',
    titleEn: 'Content was removed after a report',
    bodyDa: 'Support har fjernet indhold fra din annonce efter en anmeldelse.',
    bodyEn: 'Support removed content from your advert after a report.',
  },
  'verification.declined': {
    titleDa: 'Din verifikation blev afvist',
    titleEn: 'Your verification was declined',
    bodyDa: 'Support kunne ikke godkende din verifikation af alder og identitet. Du kan uploade nye billeder eller en ny video.',
    bodyEn: 'Support could not approve the verification of your age and identity. You can upload new pictures or a new video.',
  },
  'verification.rejected': {
    titleDa: 'Din verifikation blev endeligt afvist',
    titleEn: 'Your verification was rejected',
    bodyDa: 'Support har endeligt afvist din verifikation af alder og identitet, og din annonce er låst.',
    bodyEn: 'Support rejected the verification of your age and identity for good, and your advert is locked.',
  },
};

/** The terms' rules by name, for messages (the screens have their own catalogs). */
export const RULE_NAMES: Record<TermsRule, { da: string; en: string }> = {
  'terms.minors': { da: 'Forbud mod mindreårige', en: 'No minors' },
  'terms.trafficking': { da: 'Forbud mod menneskehandel og udnyttelse', en: 'No human trafficking or exploitation' },
  'terms.consent': { da: 'Samtykke fra alle, der vises', en: 'Consent of everyone shown' },
  'terms.identity': { da: 'Ægte identitet og egne billeder', en: 'Real identity and own pictures' },
  'terms.content': { da: 'Regler for indhold', en: 'Content rules' },
  'terms.spam': { da: 'Forbud mod spam og vildledning', en: 'No spam or misleading content' },
  'terms.other': { da: 'Andre brugsvilkår', en: 'Other terms of use' },
};

/** Where the notification leads: the screen of the picture or video, else the dashboard. */
function linkOf(decision: StatementDecision): string {
  if (decision.startsWith('picture.')) return '/backend/pictures/';
  if (decision.startsWith('video.')) return '/backend/videos/';
  if (decision.startsWith('verification.')) return '/backend/verification/';
  return '/backend/';
}

const ruleName = (rule: string | null): { da: string; en: string } | null =>
  rule && rule in RULE_NAMES ? RULE_NAMES[rule as TermsRule] : null;

/** A statement of reasons: what was decided, why, which rule, and that they can appeal once. */
export function statementText(input: { decision: StatementDecision; what: string; reason: string; rule: string | null }): NoticeText {
  const words = DECISIONS[input.decision];
  const rule = ruleName(input.rule);
  const what = input.what ? { da: ` (${input.what})`, en: ` (${input.what})` } : { da: '', en: '' };
  const da = [
    `${words.bodyDa.replace(/\.$/, '')}${what.da}.`,
    input.reason ? `Begrundelse: ${input.reason}` : '',
    rule ? `Regel: ${rule.da}.` : '',
    'Er du uenig, kan du klage over afgørelsen én gang fra dit kontrolpanel.',
  ];
  const en = [
    `${words.bodyEn.replace(/\.$/, '')}${what.en}.`,
    input.reason ? `Reason: ${input.reason}` : '',
    rule ? `Rule: ${rule.en}.` : '',
    'If you disagree, you can appeal against the decision once from your dashboard.',
  ];
  return {
    titleDa: words.titleDa,
    titleEn: words.titleEn,
    bodyDa: da.filter(Boolean).join(' '),
    bodyEn: en.filter(Boolean).join(' '),
    link: linkOf(input.decision),
  };
}

/**
 * Support unlocked an advert (not through an appeal): it is shown again, or, when it goes back to New,
 * support looks at it first. Support's reason for unlocking stays in the audit log.
 */
export function unlockedText(what: string, shownAgain: boolean): NoticeText {
  return {
    titleDa: 'Din annonce er låst op',
    titleEn: 'Your advert was unlocked',
    bodyDa: shownAgain
      ? `Support har låst din annonce »${what}« op igen. Den vises på siden igen.`
      : `Support har låst din annonce »${what}« op igen. Support gennemgår den, før den vises på siden igen.`,
    bodyEn: shownAgain
      ? `Support has unlocked your advert "${what}". It is shown on the site again.`
      : `Support has unlocked your advert "${what}". Support will look at it before it is shown on the site again.`,
    link: '/backend/',
  };
}

/**
 * Support's decision on a review that concerns the advertiser: a visitor's review approved onto the
 * advert, or the advertiser's own request to remove one, removed or kept (with support's reason, when
 * given). A rejected visitor's review was never shown, so the advertiser is not told of it.
 */
export function reviewDecisionText(decision: 'approve' | 'remove' | 'keep', input: { author: string; rating: number; what: string; reason: string | null }): NoticeText {
  const link = '/backend/reviews/';
  const why = input.reason ? { da: ` Begrundelse: ${input.reason}`, en: ` Reason: ${input.reason}` } : { da: '', en: '' };
  switch (decision) {
    case 'approve':
      return {
        titleDa: 'Du har fået en ny anmeldelse',
        titleEn: 'You have a new review',
        bodyDa: `En anmeldelse fra ${input.author} (${input.rating} af 5 stjerner) vises nu på din annonce »${input.what}«.`,
        bodyEn: `A review from ${input.author} (${input.rating} of 5 stars) is now shown on your advert "${input.what}".`,
        link,
      };
    case 'remove':
      return {
        titleDa: 'Anmeldelsen er fjernet',
        titleEn: 'The review was removed',
        bodyDa: `Du bad om at få anmeldelsen fra ${input.author} fjernet. Support har fjernet den fra din annonce »${input.what}«.${why.da}`,
        bodyEn: `You asked for the review from ${input.author} to be removed. Support has removed it from your advert "${input.what}".${why.en}`,
        link,
      };
    case 'keep':
      return {
        titleDa: 'Anmeldelsen bliver på annoncen',
        titleEn: 'The review stays on the advert',
        bodyDa: `Du bad om at få anmeldelsen fra ${input.author} fjernet. Support har valgt at beholde den på din annonce »${input.what}«.${why.da}`,
        bodyEn: `You asked for the review from ${input.author} to be removed. Support has decided to keep it on your advert "${input.what}".${why.en}`,
        link,
      };
  }
}

/** What a reversal brings back, by decision. */
function reversalWords(decision: StatementDecision): { da: string; en: string } {
  switch (decision) {
    case 'advert.locked':
      return { da: 'Din annonce er låst op igen.', en: 'Your advert has been unlocked.' };
    case 'picture.declined':
      return { da: 'Billedet er godkendt og kan vises i din annonce.', en: 'The picture is approved and can be shown in your advert.' };
    case 'video.declined':
      return { da: 'Videoen er godkendt og kan vises i din annonce.', en: 'The video is approved and can be shown in your advert.' };
    case 'picture.removed':
      return { da: 'Billedet kunne ikke gendannes, men du må gerne uploade det igen.', en: 'The picture could not be restored, but you may upload it again.' };
    case 'video.removed':
      return { da: 'Videoen kunne ikke gendannes, men du må gerne uploade den igen.', en: 'The video could not be restored, but you may upload it again.' };
    case 'report.content_removed':
      return { da: 'Du må gerne lægge indholdet på igen.', en: 'You may put the content back.' };
    case 'verification.declined':
    case 'verification.rejected':
      return { da: 'Din verifikation er godkendt.', en: 'Your verification is approved.' };
  }
}

/** An appeal's outcome: the decision stands (upheld) or is undone (reversed), and why. */
export function appealOutcomeText(input: { decision: StatementDecision; outcome: AppealDecision; reason: string }): NoticeText {
  const reversed = input.outcome === 'reversed';
  const back = reversalWords(input.decision);
  const da = [
    reversed ? 'Support har givet dig medhold i din klage, og afgørelsen er omgjort.' : 'Support har behandlet din klage, og afgørelsen står ved magt.',
    reversed ? back.da : '',
    `Begrundelse: ${input.reason}`,
  ];
  const en = [
    reversed ? 'Support upheld your appeal, and the decision has been reversed.' : 'Support reviewed your appeal, and the decision stands.',
    reversed ? back.en : '',
    `Reason: ${input.reason}`,
  ];
  return {
    titleDa: reversed ? 'Din klage fik medhold' : 'Din klage fik ikke medhold',
    titleEn: reversed ? 'Your appeal was successful' : 'Your appeal was not successful',
    bodyDa: da.filter(Boolean).join(' '),
    bodyEn: en.filter(Boolean).join(' '),
    link: linkOf(input.decision),
  };
}
