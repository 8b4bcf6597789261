-- tickwheel-postgres: the tables PostgresStore uses (PostgreSQL 12 or later).
--
-- PostgresStore.Builder.createSchema(true), the default, runs this file on first use (under an
-- advisory lock, so processes starting together do not race). Teams whose DBAs apply DDL run it
-- themselves and build the store with createSchema(false). For another table name, replace every
-- "tickwheel_timeouts" below (the store does the same with Builder.table).
--
-- One row per pending or failed timeout. A timeout belongs to the slice of time its deadline falls
-- in (slice = deadline_us / 1,000,000: one-second slices); processes lease slices, not rows.
CREATE TABLE IF NOT EXISTS tickwheel_timeouts (
    type        text     NOT NULL,            -- the handler's name
    key         text     NOT NULL,            -- unique within the type
    payload     bytea    NOT NULL,
    deadline_us bigint   NOT NULL,            -- microseconds since 1970-01-01T00:00Z
    slice       bigint   NOT NULL,            -- floor(deadline_us / 1000000)
    attempt     integer  NOT NULL,            -- 1 on the first run
    version     bigint   NOT NULL,            -- one per incarnation, from the sequence below
    state       smallint NOT NULL,            -- 0 pending, 2 failed
    reason      text,                         -- why the last attempt failed (state 2)
    PRIMARY KEY (type, key)
);

-- What a process loads when it leases a slice, in deadline order; fired rows are deleted.
CREATE INDEX IF NOT EXISTS tickwheel_timeouts_due ON tickwheel_timeouts (slice, deadline_us) WHERE state = 0;

CREATE SEQUENCE IF NOT EXISTS tickwheel_timeouts_version;

-- One row per slice that has (or recently had) pending timeouts. The owner holds the lease until
-- lease_until (the database's clock); epoch grows on every acquisition and fences every write the
-- owner makes, so a process that lost a slice can never change what the next owner does.
CREATE TABLE IF NOT EXISTS tickwheel_timeouts_slices (
    slice       bigint      PRIMARY KEY,
    owner       text,
    epoch       bigint      NOT NULL DEFAULT 0,
    lease_until timestamptz NOT NULL DEFAULT '-infinity'
);
