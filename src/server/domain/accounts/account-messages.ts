import { sql } from 'drizzle-orm';
import { formatDateTime } from '#lib/format.ts';
import { rowsOf, type Db } from '../../db/client.ts';
import { siteSettings } from '../../db/schema.ts';
import type { OutgoingEmail, OutgoingSms } from '../../adapters/types.ts';

/**
 * The texts of the account messages (email verification, SMS code, password reset and notices), in the
 * account's language: Danish by default, English for `en`. Plain and neutral: no advert content, nothing
 * that tells an onlooker more than the name of the site.
 */

export type Locale = 'da' | 'en';
export type Site = { siteName: string; siteUrl: string; supportEmail: string };
/** Whose account a password message is about: an advertiser's, or a support user's (the support area). */
export type Audience = 'advertiser' | 'support';

/**
 * The site's name, address (for links) and support address from the website config, as a JSON value:
 * `getSite` reads it, and a statement that writes something reads it along (see `siteOf`).
 */
export const SITE_JSON = sql<Site | null>`(select jsonb_build_object('siteName', ${siteSettings.siteName}, 'siteUrl', ${siteSettings.siteUrl},
  'supportEmail', ${siteSettings.supportEmail}) from ${siteSettings} where ${siteSettings.id} = 1)`;

/** The site from the website config (one row, its `site` null before the reference seed). */
export async function getSite(db: Db): Promise<Site> {
  const [row] = rowsOf<{ site: Site | null }>(await db.execute(sql`select ${SITE_JSON} as site`));
  return siteOf(row?.site);
}

/** The site from its website config row (`getSite`, `SITE_JSON`); the defaults before the reference seed. */
export function siteOf(row: Site | null | undefined): Site {
  if (!row) return { siteName: 'Annoncekatalog', siteUrl: 'http://localhost:3000', supportEmail: '' };
  return { ...row, siteUrl: row.siteUrl.replace(/\/$/, '') };
}

export const asLocale = (value: string | null | undefined): Locale => (value === 'en' ? 'en' : 'da');

/** The backend's basic page runs email verification when opened with a `url` query (spec §4). */
export function emailVerificationLink(site: Site, token: string): string {
  return `${site.siteUrl}/backend/basic/?url=${token}`;
}

/**
 * The change-password page (spec §2: token and id required), in the account's language: /login/change/
 * for advertisers, /support/login/change/ for support users (whose area is one app for both languages).
 */
export function passwordResetLink(site: Site, locale: Locale, token: string, id: number, audience: Audience = 'advertiser'): string {
  const page = audience === 'support' ? '/support/login/change/' : `${locale === 'en' ? '/en' : ''}/login/change/`;
  return `${site.siteUrl}${page}?token=${encodeURIComponent(token)}&id=${id}`;
}

/** "your account" in a password message, for the audience. */
function accountWords(locale: Locale, audience: Audience): string {
  if (audience === 'support') return locale === 'en' ? 'your support account' : 'din supportkonto';
  return locale === 'en' ? 'your account' : 'din konto';
}

/** +45 and the 8 digits, as SMS providers want it. */
export const internationalPhone = (phone: string) => `+45${phone}`;

export function emailVerificationMessage(site: Site, locale: Locale, to: string, link: string, hours: number): OutgoingEmail {
  if (locale === 'en') {
    return {
      to,
      secrets: [link],
      subject: `Confirm your email address – ${site.siteName}`,
      text: [
        'Hello,',
        '',
        `Please confirm your email address for ${site.siteName} by opening this link:`,
        link,
        '',
        `The link works for ${hours} hours and can be used once. If you did not ask for it, you can ignore this email.`,
        '',
        site.siteName,
      ].join('\n'),
    };
  }
  return {
    to,
    secrets: [link],
    subject: `Bekræft din e-mailadresse – ${site.siteName}`,
    text: [
      'Hej,',
      '',
      `Bekræft din e-mailadresse til ${site.siteName} ved at åbne dette link:`,
      link,
      '',
      `Linket virker i ${hours} timer og kan bruges én gang. Har du ikke bedt om det, kan du se bort fra denne e-mail.`,
      '',
      site.siteName,
    ].join('\n'),
  };
}

export function smsCodeMessage(site: Site, locale: Locale, to: string, code: string, minutes: number): OutgoingSms {
  const text =
    locale === 'en'
      ? `Your code for ${site.siteName}: ${code}. It works for ${minutes} minutes. Do not share it with anyone.`
      : `Din kode til ${site.siteName}: ${code}. Den virker i ${minutes} minutter. Del den ikke med andre.`;
  return { to, text, secrets: [code] };
}

export function passwordResetMessage(
  site: Site,
  locale: Locale,
  to: string,
  link: string,
  minutes: number,
  audience: Audience = 'advertiser',
): OutgoingEmail {
  const account = accountWords(locale, audience);
  if (locale === 'en') {
    return {
      to,
      secrets: [link],
      subject: `Reset your password – ${site.siteName}`,
      text: [
        'Hello,',
        '',
        `We received a request to reset the password of ${account} at ${site.siteName}. Choose a new password here:`,
        link,
        '',
        `The link works for ${minutes} minutes and can be used once. If you did not ask for it, you can ignore this email; your password has not been changed.`,
        '',
        site.siteName,
      ].join('\n'),
    };
  }
  return {
    to,
    secrets: [link],
    subject: `Nulstil din adgangskode – ${site.siteName}`,
    text: [
      'Hej,',
      '',
      `Vi har fået en anmodning om at nulstille adgangskoden til ${account} på ${site.siteName}. Vælg en ny adgangskode her:`,
      link,
      '',
      `Linket virker i ${minutes} minutter og kan bruges én gang. Har du ikke bedt om det, kan du se bort fra denne e-mail; din adgangskode er ikke ændret.`,
      '',
      site.siteName,
    ].join('\n'),
  };
}

/**
 * After a password change: every session was ended; if it was not the owner, support can help (a support
 * user is told to ask an administrator instead).
 */
export function passwordChangedMessage(
  site: Site,
  locale: Locale,
  to: string,
  at: Date,
  audience: Audience = 'advertiser',
): OutgoingEmail {
  const when = formatDateTime(at);
  const contact = site.supportEmail ? ` (${site.supportEmail})` : '';
  const account = accountWords(locale, audience);
  // A support user asks an administrator; an advertiser asks support.
  const helper =
    audience === 'support' ? { en: 'an administrator', da: 'en administrator' } : { en: `support${contact}`, da: `support${contact}` };
  if (locale === 'en') {
    return {
      to,
      subject: `Your password was changed – ${site.siteName}`,
      text: [
        'Hello,',
        '',
        `The password of ${account} at ${site.siteName} was changed on ${when}. You have been signed out everywhere.`,
        `If this was not you, reset your password now and contact ${helper.en}.`,
        '',
        site.siteName,
      ].join('\n'),
    };
  }
  return {
    to,
    subject: `Din adgangskode er ændret – ${site.siteName}`,
    text: [
      'Hej,',
      '',
      `Adgangskoden til ${account} på ${site.siteName} blev ændret ${when}. Du er logget ud alle steder.`,
      `Var det ikke dig, så nulstil din adgangskode med det samme, og kontakt ${helper.da}.`,
      '',
      site.siteName,
    ].join('\n'),
  };
}

/**
 * To the owner of an address someone tried to sign up with (createprofile): they already have an account;
 * sign in or reset the password. The sign-up itself tells the visitor nothing more (issue 15).
 */
export function signUpAttemptMessage(site: Site, locale: Locale, to: string): OutgoingEmail {
  const prefix = locale === 'en' ? '/en' : '';
  const signIn = `${site.siteUrl}${prefix}/login/`;
  const reset = `${site.siteUrl}${prefix}/login/forgot/`;
  if (locale === 'en') {
    return {
      to,
      subject: `Someone tried to sign up with your email address – ${site.siteName}`,
      text: [
        'Hello,',
        '',
        `Someone just tried to create an account at ${site.siteName} with this email address. You already have an account here, so no new account was made.`,
        `If it was you, sign in: ${signIn}`,
        `Forgot your password? Reset it here: ${reset}`,
        '',
        'If it was not you, you can ignore this email; nothing was changed.',
        '',
        site.siteName,
      ].join('\n'),
    };
  }
  return {
    to,
    subject: `Nogen forsøgte at oprette en konto med din e-mailadresse – ${site.siteName}`,
    text: [
      'Hej,',
      '',
      `Nogen har netop forsøgt at oprette en konto på ${site.siteName} med denne e-mailadresse. Du har allerede en konto her, så der er ikke oprettet en ny.`,
      `Var det dig, så log ind her: ${signIn}`,
      `Har du glemt din adgangskode? Nulstil den her: ${reset}`,
      '',
      'Var det ikke dig, kan du se bort fra denne e-mail; intet er ændret.',
      '',
      site.siteName,
    ].join('\n'),
  };
}

/** The link that confirms a sign-up: /create/?confirm=… in the account's language (the /create screen asks for the password). */
export function signUpConfirmationLink(site: Site, locale: Locale, token: string): string {
  return `${site.siteUrl}${locale === 'en' ? '/en' : ''}/create/?confirm=${token}`;
}

/**
 * The link that finishes a sign-up (createprofile). `again`: the address signed up before without
 * confirming, and someone (perhaps the owner) signed up with it once more: nothing new was made, the first
 * sign-up and its password stand, and a reset (which confirms the sign-up too) helps a forgotten password.
 */
export function signUpConfirmationMessage(
  site: Site,
  locale: Locale,
  to: string,
  link: { url: string; hours: number; removedAfterDays: number },
  options: { again: boolean },
): OutgoingEmail {
  const reset = `${site.siteUrl}${locale === 'en' ? '/en' : ''}/login/forgot/`;
  if (locale === 'en') {
    return {
      to,
      secrets: [link.url],
      subject: `Confirm your sign-up – ${site.siteName}`,
      text: [
        'Hello,',
        '',
        ...(options.again
          ? [
              `Someone, perhaps you, just signed up at ${site.siteName} again with this email address. The first sign-up with it is not confirmed yet, so nothing new was made and what was typed this time was not saved.`,
              'To finish the first sign-up, open this link and enter the password chosen then:',
            ]
          : [`Thank you for signing up at ${site.siteName}. To finish, open this link and enter the password you chose when you signed up:`]),
        link.url,
        '',
        `The link works for ${link.hours} hours and can be used once; an earlier link no longer works. Then you confirm your phone number and go on to your dashboard.`,
        ...(options.again ? ['', `Forgot that password? Choose a new one here (that confirms the sign-up too): ${reset}`] : []),
        '',
        `If you did not sign up, you can ignore this email: the sign-up is removed after ${link.removedAfterDays} days.`,
        '',
        site.siteName,
      ].join('\n'),
    };
  }
  return {
    to,
    secrets: [link.url],
    subject: `Bekræft din tilmelding – ${site.siteName}`,
    text: [
      'Hej,',
      '',
      ...(options.again
        ? [
            `Nogen, måske dig, har netop tilmeldt sig ${site.siteName} igen med denne e-mailadresse. Den første tilmelding med den er ikke bekræftet endnu, så der er ikke oprettet noget nyt, og det, der blev skrevet denne gang, er ikke gemt.`,
            'Gør den første tilmelding færdig ved at åbne dette link og skrive den adgangskode, der blev valgt dengang:',
          ]
        : [`Tak for din tilmelding til ${site.siteName}. Gør den færdig ved at åbne dette link og skrive den adgangskode, du valgte, da du tilmeldte dig:`]),
      link.url,
      '',
      `Linket virker i ${link.hours} timer og kan bruges én gang; et tidligere link virker ikke længere. Derefter bekræfter du dit telefonnummer og går videre til dit kontrolpanel.`,
      ...(options.again ? ['', `Har du glemt adgangskoden? Vælg en ny her (det bekræfter også tilmeldingen): ${reset}`] : []),
      '',
      `Har du ikke tilmeldt dig, kan du se bort fra denne e-mail: tilmeldingen slettes efter ${link.removedAfterDays} dage.`,
      '',
      site.siteName,
    ].join('\n'),
  };
}

/**
 * To the owner of an address another signed-in account asked to move to (sendemail): nothing changed, and
 * the asker is told nothing more than for any other address (issue 15).
 */
export function emailChangeAttemptMessage(site: Site, locale: Locale, to: string): OutgoingEmail {
  const prefix = locale === 'en' ? '/en' : '';
  const signIn = `${site.siteUrl}${prefix}/login/`;
  if (locale === 'en') {
    return {
      to,
      subject: `Someone asked to use your email address – ${site.siteName}`,
      text: [
        'Hello,',
        '',
        `Another account at ${site.siteName} just asked to change its email address to this one. You already have an account with this address, so nothing was changed.`,
        `Your account: ${signIn}`,
        '',
        'You do not need to do anything.',
        '',
        site.siteName,
      ].join('\n'),
    };
  }
  return {
    to,
    subject: `Nogen bad om at bruge din e-mailadresse – ${site.siteName}`,
    text: [
      'Hej,',
      '',
      `En anden konto hos ${site.siteName} har netop bedt om at skifte sin e-mailadresse til denne. Du har allerede en konto med denne adresse, så intet er ændret.`,
      `Din konto: ${signIn}`,
      '',
      'Du behøver ikke gøre noget.',
      '',
      site.siteName,
    ].join('\n'),
  };
}

/** To the old address when the account's email changed. */
export function emailChangedMessage(site: Site, locale: Locale, to: string, newEmail: string): OutgoingEmail {
  const contact = site.supportEmail ? ` (${site.supportEmail})` : '';
  if (locale === 'en') {
    return {
      to,
      subject: `Your email address was changed – ${site.siteName}`,
      text: [
        'Hello,',
        '',
        `The email address of your account at ${site.siteName} is now ${newEmail}. Messages will go there from now on.`,
        `If this was not you, contact support${contact}.`,
        '',
        site.siteName,
      ].join('\n'),
    };
  }
  return {
    to,
    subject: `Din e-mailadresse er ændret – ${site.siteName}`,
    text: [
      'Hej,',
      '',
      `E-mailadressen på din konto hos ${site.siteName} er nu ${newEmail}. Beskeder sendes dertil fremover.`,
      `Var det ikke dig, så kontakt support${contact}.`,
      '',
      site.siteName,
    ].join('\n'),
  };
}

/**
 * A notice to an advertiser that is also in their backend's notifications (a statement of reasons, an
 * appeal's outcome): the title as subject and the body, with a link to the backend. The caller words both
 * (src/server/domain/moderation/moderation-texts.ts); no advert content beyond what support wrote as reason.
 */
export function advertiserNoticeMessage(site: Site, locale: Locale, to: string, notice: { title: string; body: string }): OutgoingEmail {
  const greeting = locale === 'en' ? 'Hello,' : 'Hej,';
  const open = locale === 'en' ? 'Sign in to your dashboard:' : 'Log ind på dit kontrolpanel:';
  return {
    to,
    subject: `${notice.title} – ${site.siteName}`,
    text: [greeting, '', notice.body, '', open, `${site.siteUrl}/backend/`, '', site.siteName].join('\n'),
  };
}

/**
 * To the person who reported an advert (when they left an address): the report was received and decided,
 * and the outcome in general words. Danish and English in one message (we do not know their language);
 * nothing about the advertiser, not even the advert's name.
 */
export function reportDecidedMessage(
  site: Site,
  to: string,
  report: { id: number; createdAt: Date; actionTaken: boolean },
): OutgoingEmail {
  const when = formatDateTime(report.createdAt);
  const outcomeDa = report.actionTaken
    ? 'Vi har grebet ind: annoncen er fjernet fra siden.'
    : 'Vi har gennemgået annoncen og fundet, at den ikke strider mod vores regler, så vi har ikke grebet ind.';
  const outcomeEn = report.actionTaken
    ? 'We have taken action: the advert has been removed from the site.'
    : 'We reviewed the advert and found that it does not break our rules, so we have not taken action.';
  return {
    to,
    subject: `Din anmeldelse er behandlet / Your report has been decided – ${site.siteName}`,
    text: [
      'Hej,',
      '',
      `Tak for din anmeldelse (nr. ${report.id}, modtaget ${when}). Vi har modtaget og behandlet den.`,
      outcomeDa,
      '',
      '---',
      '',
      'Hello,',
      '',
      `Thank you for your report (no. ${report.id}, received ${when}). We have received and decided it.`,
      outcomeEn,
      '',
      site.siteName,
    ].join('\n'),
  };
}
