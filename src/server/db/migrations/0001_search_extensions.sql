-- Trigram matching for free-text and place-name search (PGlite loads the pg_trgm contrib extension in client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
