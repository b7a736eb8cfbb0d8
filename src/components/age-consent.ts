/**
 * The age-gate consent cookie: `age_consent=1`, 365 days, Path=/, SameSite=Lax.
 * The spec also says "expiring at the start of February", which contradicts one year from consent; we keep
 * the 365 days the spec's constants (section 9) give.
 */
export const AGE_CONSENT_COOKIE = 'age_consent';
export const AGE_CONSENT_MAX_AGE = 365 * 24 * 60 * 60;

export function hasAgeConsent(cookieString: string): boolean {
  return cookieString.split(';').some((part) => part.trim() === `${AGE_CONSENT_COOKIE}=1`);
}

export function ageConsentCookie(secure: boolean): string {
  return `${AGE_CONSENT_COOKIE}=1; Max-Age=${AGE_CONSENT_MAX_AGE}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
}
