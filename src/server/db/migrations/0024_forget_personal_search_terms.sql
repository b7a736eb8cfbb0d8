-- Issue 30: search terms that were personal data are forgotten. Counting kept terms in which a phone
-- number's digits were split by marks the old rule let through (20/12/34/56, 20_12_34_56: stored as
-- "20 12 34 56" beside a word), and email addresses without a domain ending (sofie@hotmail: stored as
-- "sofie hotmail"). The new rule (searchTermOf) never counts them; these are the ones already kept.
DELETE FROM "search_term_days"
WHERE regexp_replace("term", '([0-9])[^[:alpha:]0-9]+(?=[0-9])', '\1', 'g') ~ '[0-9]{8,}'
   OR "term" ~ '(^|[^[:alpha:]])(hotmail|gmail|googlemail|yahoo|outlook|icloud|protonmail|gmx|msn|aol|jubii|webspeed|yandex)([^[:alpha:]]|$)';
