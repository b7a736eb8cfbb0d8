import type { OutgoingEmail, OutgoingSms } from '../../adapters/types.ts';
import { formatDate } from '#lib/format.ts';
import type { Locale, Site } from '../accounts/account-messages.ts';

/**
 * The invitation to take over an advert from the old site (issue 18, docs/decisions/031): the one-time
 * link goes by email only (opening it proves the address); the SMS says that the email was sent, so an
 * advertiser who watches their phone more than their mailbox knows to look, and carries no link (whoever
 * holds the phone alone cannot take the advert). Plain and neutral, as every account message.
 */

/** /create/?claim=… in the advertiser's language (the /create screen asks for a password, birth date and the terms). */
export function claimLink(site: Site, locale: Locale, token: string): string {
  return `${site.siteUrl}${locale === 'en' ? '/en' : ''}/create/?claim=${token}`;
}

/**
 * The invitation in both languages, Danish first (we do not know which the advertiser reads: the old site
 * kept no language); each part links to /create in its language.
 */
export function claimInvitationEmail(site: Site, to: string, invite: { name: string; token: string; until: Date }): OutgoingEmail {
  const da = claimInvitationText(site, 'da', { ...invite, url: claimLink(site, 'da', invite.token) });
  const en = claimInvitationText(site, 'en', { ...invite, url: claimLink(site, 'en', invite.token) });
  return {
    to,
    secrets: [da.url, en.url],
    subject: `${da.subject} / ${en.subject}`,
    text: `${da.text}\n\n----- English -----\n\n${en.text}`,
  };
}

function claimInvitationText(site: Site, locale: Locale, invite: { name: string; url: string; until: Date }): { subject: string; text: string; url: string } {
  const until = formatDate(invite.until);
  if (locale === 'en') {
    return {
      url: invite.url,
      subject: `Your advert "${invite.name}" can move to the new ${site.siteName}`,
      text: [
        'Hello,',
        '',
        `${site.siteName} has a new website. Your advert "${invite.name}" from the old site is ready to be moved over, with its texts, prices and pictures.`,
        'To take it over, open this link, choose a password, give your date of birth and accept the terms:',
        invite.url,
        '',
        `The link works until ${until} and can be used once. Then you confirm your phone number with a code by SMS.`,
        'As every new advert, it becomes public once you have verified your age and identity and we have approved it.',
        '',
        `If you do not want the advert on the new site, you can ignore this email: it is deleted if it is not taken over.`,
        '',
        site.siteName,
      ].join('\n'),
    };
  }
  return {
    url: invite.url,
    subject: `Din annonce "${invite.name}" kan flytte med til det nye ${site.siteName}`,
    text: [
      'Hej,',
      '',
      `${site.siteName} har fået en ny hjemmeside. Din annonce "${invite.name}" fra den gamle side er klar til at blive flyttet, med tekster, priser og billeder.`,
      'Åbn dette link for at overtage den, vælg en adgangskode, angiv din fødselsdato og accepter betingelserne:',
      invite.url,
      '',
      `Linket virker til og med ${until} og kan bruges én gang. Derefter bekræfter du dit telefonnummer med en kode på SMS.`,
      'Som alle nye annoncer bliver den offentlig, når du har bekræftet din alder og identitet, og vi har godkendt den.',
      '',
      'Hvis du ikke ønsker annoncen på den nye side, kan du se bort fra denne e-mail: den slettes, hvis den ikke bliver overtaget.',
      '',
      site.siteName,
    ].join('\n'),
  };
}

/** The notice by SMS, in both languages (no link). */
export function claimInvitationSms(site: Site, to: string): OutgoingSms {
  const text =
    `${site.siteName} har fået en ny hjemmeside. Vi har sendt dig en e-mail om, hvordan du flytter din annonce med. / ` +
    `${site.siteName} has a new website. We have emailed you how to move your advert over.`;
  return { to, text, secrets: [] };
}
