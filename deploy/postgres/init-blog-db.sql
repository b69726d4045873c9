-- The blog (Payload) has its own database next to the platform one (BLOG_DATABASE_URL in compose.yaml).
CREATE DATABASE blog OWNER platform;
