/**
 * What a match is worth in the catalogue search (search-index.ts; ADR 0011): by kind of match and by the place
 * of the product it was found in, and how near a typo must be to a catalogue word.
 */

/** What each kind of match is worth: none, a typo's correction, a prefix, the word itself. */
export const KIND_WORTH = [0, 0.4, 0.7, 1] as const;
export const EXACT = 3;
export const PREFIX = 2;
export const TYPO = 1;

/** Places a word is found in a product, as bits of a posting, with their worth. */
export const TITLE = 1;
export const NAME = 2;
export const DESCRIPTION = 4;
export const CATEGORY = 8;
export const TITLE_WORTH = 1;
export const NAME_WORTH = 0.5;
export const DESCRIPTION_WORTH = 0.2;
export const CATEGORY_WORTH = 1;

/**
 * The best kind of match by place, two bits a place in one byte (title, name, description, category from the
 * lowest bits): RAISE[byte << 6 | places << 2 | kind] is the byte once `kind` was found in those places.
 */
export const RAISE = Uint8Array.from({ length: 256 * 16 * 4 }, (_, key) => {
  let byte = key >> 6;
  const places = (key >> 2) & 15;
  const kind = key & 3;
  for (let place = 0; place < 4; place++) {
    const shift = place * 2;
    if (places & (1 << place) && ((byte >> shift) & 3) < kind)
      byte = (byte & ~(3 << shift)) | (kind << shift);
  }
  return byte;
});

/** What a byte of best kinds by place is worth. */
export const WORTH_OF_PLACES = Float64Array.from({ length: 256 }, (_, places) =>
  [TITLE_WORTH, NAME_WORTH, DESCRIPTION_WORTH, CATEGORY_WORTH].reduce(
    (sum, worth, place) => sum + worth * KIND_WORTH[((places >> (place * 2)) & 3) as 0],
    0,
  ),
);

/** pg_trgm's defaults: a word is a typo's correction from this similarity on, and the 6 nearest are kept. */
export const SIMILARITY_THRESHOLD = 0.3;
export const NEAREST = 6;
/** Only words nearly as close as the best correction count: an exact word doesn't drag in its neighbours. */
export const NEAR_BEST = 0.75;
