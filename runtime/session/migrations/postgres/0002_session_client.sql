-- The client of each server-side session, for the list of a user's sessions
-- (docs/sessions.md "Listing a user's sessions"): its address and user agent
-- as last seen when the session was written.
ALTER TABLE bindery_sessions ADD COLUMN ip_address text, ADD COLUMN user_agent text;
