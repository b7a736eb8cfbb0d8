-- Danish typing (issue 17): a search text holding æ, ø or å also holds its folded spelling (ae, oe, aa),
-- as refresh-advert-search.ts writes it from now on, so "koebenhavn" finds København.
UPDATE "advert_search_documents"
SET "search_text" = "search_text" || ' ' || replace(replace(replace("search_text", 'æ', 'ae'), 'ø', 'oe'), 'å', 'aa')
WHERE "search_text" ~ '[æøå]';
