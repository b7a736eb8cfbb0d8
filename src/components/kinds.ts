/** The three advert kinds as they appear in URLs (spec section 2) and their catalog keys. */
export const kinds = ['escort', 'trans-escort', 'thaimassage'] as const;
export type Kind = (typeof kinds)[number];

export const kindKey: Record<Kind, string> = {
  escort: 'kinds.escort',
  'trans-escort': 'kinds.transEscort',
  thaimassage: 'kinds.thaimassage',
};
