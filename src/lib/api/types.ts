/** Shapes of the API answers the site and the dashboards use (JSON, camelCase). */

export type WebsiteConfig = {
  siteName: string;
  siteUrl: string;
  /** URL-encoded by the API (spec section 3); decoded by getWebsiteConfig in ./build-data.ts. */
  companyName: string;
  companyAddress: string;
  companyZipCity: string;
  companyEmail: string;
  companyVAT: string;
  supportEmail: string;
  supportPhone: string;
};

/** e: escorts, t: Thai massage, te: trans escorts. */
export type AvailableCounts = { e: number; t: number; te: number };

export type LinkItem = { url: string; title: string };

export type FooterInfo = {
  escortItems: LinkItem[];
  transEscortItems: LinkItem[];
  thaimassageItems: LinkItem[];
  services: LinkItem[];
  articles: LinkItem[];
};

export type City = { id: number; city: string; slug: string };
export type Region = { id: number; name: string; nameEn: string; slug: string; cities: City[] };

export type Language = { name: string; title: string; icon: string };

export type LandingKind = 'artikler' | 'service';
export type LandingPageSummary = { url: string; title: string };
export type LandingPage = {
  url: string;
  title: string;
  metaDescription: string;
  intro: string;
  body: string;
  publishedAt: string;
};

export type UserProfile = {
  id: number;
  profileStatus: number;
  expirationDate: string | null;
  permissions: string[];
  escort: boolean;
  transEscort: boolean;
  thaimassage: boolean;
};

export type SupportPermission = 'Support' | 'SEO' | 'Administration';

export type SupportProfile = {
  id: number;
  email: string;
  name: string;
  permissions: SupportPermission[];
};

export type Credentials = { email: string; password: string };
