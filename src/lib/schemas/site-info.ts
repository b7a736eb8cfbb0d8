/** Shapes of the site-wide answers (types only), shared by the server that builds them and the site. */

export type WebsiteConfig = {
  siteName: string;
  siteUrl: string;
  /** URL-encoded by the API (spec section 3). */
  companyName: string;
  companyAddress: string;
  companyZipCity: string;
  companyEmail: string;
  companyVAT: string;
  supportEmail: string;
  supportPhone: string;
};

export type LinkItem = { url: string; title: string };

/** Footer info (spec section 3): location links per kind, services and articles (site paths). */
export type FooterInfo = {
  escortItems: LinkItem[];
  transEscortItems: LinkItem[];
  thaimassageItems: LinkItem[];
  services: LinkItem[];
  articles: LinkItem[];
};
