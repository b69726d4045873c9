-- What the application's role may do on the platform database, in production (docs/operations.md,
-- "Database roles"). Run by the role that owns the tables and runs the migrations, after them:
--   psql "$OWNER_URL" -v owner=platform_owner -v app=platform_app -f deploy/postgres/app-role-grants.sql
-- test/db/db-audit-roles.test.ts runs this file on PostgreSQL.
GRANT USAGE ON SCHEMA public TO :"app";
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO :"app";
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO :"app";
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO :"app";
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA public GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO :"app";
-- The audit log: appended to and read, never changed, deleted or truncated.
REVOKE ALL ON "operator_audit" FROM :"app";
GRANT SELECT, INSERT ON "operator_audit" TO :"app";
-- Start-up reads which migrations ran; applying one needs the owner.
REVOKE ALL ON "_prisma_migrations" FROM :"app";
GRANT SELECT ON "_prisma_migrations" TO :"app";
