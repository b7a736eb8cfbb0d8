/** A picture's place in the gallery as its labels say it ("{number} / {count}", from data-viewer-position). */
export const positionText = (format: string, number: number, count: number): string =>
  format.replace('{number}', String(number)).replace('{count}', String(count));
