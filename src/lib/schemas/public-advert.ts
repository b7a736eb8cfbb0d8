/**
 * The shapes of public advert data as the frontend API answers them (front page, search results,
 * advert pages). Types only: shared by the server (which builds them) and the browser and site build
 * (which show them).
 */
export type AdvertKind = 'escort' | 'trans-escort' | 'thaimassage';

/** A picture with every stored variant and its public URL, for srcset. */
export type PublicPicture = {
  id: number;
  width: number;
  height: number;
  variants: { url: string; width: number; height: number; format: string }[];
};

/** What a result list shows of an advert. `url` is the Danish path; the English twin is '/en' + url. */
export type AdvertCard = {
  id: number;
  name: string;
  url: string;
  kind: AdvertKind;
  title: string;
  introduction: string;
  age: number | null;
  city: string | null;
  citySlug: string | null;
  region: string | null;
  regionSlug: string | null;
  picture: PublicPicture | null;
  validated: boolean;
  hasVideo: boolean;
  reviewCount: number;
  rating: number | null;
  frontPageBoosted: boolean;
  searchBoosted: boolean;
};

export type FrontPageAdverts = { minute: number; items: AdvertCard[] };

/** totalCapped: a search for a common word stopped counting at `total` (show "1.000+"). */
export type SearchResult = { total: number; totalCapped?: boolean; page: number; pageSize: number; items: AdvertCard[] };

/** A place a visitor's words name: a city (with its region) or a region (searchpageprofileswithfreetext's `places`). */
export type NamedPlace = { name: string; regionSlug: string; citySlug: string | null; region: string };

/**
 * searchpageprofileswithfreetext: the results, the keyword as counted, and how the search was rescued when the
 * words as typed found nothing (issue 31, item 3): `spelledAs`, the text the results are for ("København" for
 * "Kopenhagen"); `places`, when even that found nothing, the places the words name.
 */
export type FreeTextResult = SearchResult & { keyword: string; spelledAs: string | null; places: NamedPlace[] };

/** Everything an advert page shows (fullprofile; fullprofiles pages through many). */
export type FullProfile = {
  id: number;
  name: string;
  url: string;
  kind: AdvertKind;
  gender: number;
  title: string;
  introduction: string;
  description: string;
  age: number | null;
  height: number | null;
  weight: number | null;
  /** 1 Natural, 2 Silicone. */
  breastType: number | null;
  nationality: { id: number; code: string; name: string } | null;
  languages: { id: number; code: string; name: string }[];
  /** type: 1 Girlfriend experience, 2 Pornstar experience, 3 Advanced, 4 Massage. */
  services: { id: number; slug: string; name: string; type: number }[];
  incall: boolean;
  outcall: boolean;
  location: { region: string | null; regionSlug: string | null; city: string | null; citySlug: string | null };
  phone: string | null;
  hasWhatsapp: boolean;
  website: string | null;
  /** Prices in øre, VAT included. */
  priceList: { id: number; durationMinutes: number; incallPriceOre: number | null; outcallPriceOre: number | null; description: string | null }[];
  extraPrices: { id: number; description: string; priceOre: number }[];
  /** cash, creditcard, mobilepay, paypal, revolut, wise */
  paymentOptions: string[];
  /** weekday 1 Monday … 7 Sunday; times HH:mm in Copenhagen time. */
  schedule: { weekday: number; from: string; to: string }[];
  pictures: PublicPicture[];
  videos: { id: number; url: string; posterUrl: string | null; width: number | null; height: number | null; durationSeconds: number | null }[];
  reviews: { id: number; authorName: string; rating: number; text: string; reply: string | null; createdAt: string }[];
  validated: boolean;
  updatedAt: string;
};

export type FullProfilePage = { items: FullProfile[]; nextAfterId: number | null };

/** fullprofiles with `Locales`: the same adverts, in the same order, in each language asked for. */
export type FullProfileLocalesPage = { byLocale: Partial<Record<'da' | 'en', FullProfile[]>>; nextAfterId: number | null };
