/** Advisory lock key that elects the one indexing process (the rebuild takes it too). */
export const INDEXER_LOCK_KEY = 'platform:indexer:leader';
