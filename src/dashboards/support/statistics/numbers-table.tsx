/**
 * The cells of the statistics screen's tables (../advert/advert-sections.tsx's Table with `numbers`: the
 * headings of number columns right-aligned over their figures).
 */
import { cell } from '../advert/advert-sections.tsx';

/** A cell of a figure: right-aligned, digits of one width. */
export const numberCell = `${cell} whitespace-nowrap text-right tabular-nums`;
/** The heading cell of a row. */
export const rowHeading = 'px-3 py-2 text-left font-medium text-ink';
/** The heading cell of a total's row. */
export const totalHeading = 'px-3 py-2 text-left font-semibold text-ink';
