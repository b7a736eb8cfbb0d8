/** schema.org structured data shared by several pages. */

/** A BreadcrumbList of site paths, made absolute against the site's origin. */
export function breadcrumbList(items: { name: string; href: string }[], site: URL): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: items.map((item, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: item.name,
      item: new URL(item.href, site).toString(),
    })),
  };
}
