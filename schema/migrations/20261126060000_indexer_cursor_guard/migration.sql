-- Hand-written (Prisma does not model functions).
-- The indexer writes a batch (rows, leaderboards, cursor) as one statement outside any explicit
-- transaction; when its guarded cursor move finds another writer's cursor, it calls this to fail
-- the statement, which rolls the whole batch back. SQLSTATE IX001 is what the store maps to
-- CursorConflictError.
CREATE FUNCTION indexer_cursor_moved(kind text, read_from text) RETURNS int
  LANGUAGE plpgsql VOLATILE
  AS $$
BEGIN
  RAISE EXCEPTION 'stored cursor of % moved since %; batch rolled back', kind, coalesce(read_from, 'genesis')
    USING ERRCODE = 'IX001';
END
$$;
