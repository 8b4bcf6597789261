package io.tickwheel.postgres;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The names of the database objects one {@link PostgresStore} uses, derived from the table name
 * given to {@link PostgresStore.Builder#table(String)}: the timeouts table itself, its
 * {@code _slices} lease table, its {@code _version} sequence and its {@code _due} index.
 *
 * <p>Only plain lower-case identifiers are accepted (optionally schema-qualified), so no name ever
 * needs quoting and SQL can be built by substitution without any risk of injection.
 *
 * <p>Threading: immutable.
 */
final class TableNames {

    /** The longest base name: PostgreSQL identifiers hold 63 bytes, and {@code _slices} is added. */
    static final int MAX_BASE_LENGTH = 56;

    private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]*");

    private final String schema;
    private final String base;

    private TableNames(final String schema, final String base) {
        this.schema = schema;
        this.base = base;
    }

    /**
     * Checks and splits a table name.
     *
     * @param table {@code name} or {@code schema.name}, lower case
     * @return the names
     * @throws IllegalArgumentException naming {@code table} if it is not such a name
     */
    static TableNames of(final String table) {
        Objects.requireNonNull(table, "table");
        int dot = table.indexOf('.');
        String schema = dot < 0 ? null : table.substring(0, dot);
        String base = dot < 0 ? table : table.substring(dot + 1);
        if ((schema != null && !valid(schema, 63)) || !valid(base, MAX_BASE_LENGTH)) {
            throw new IllegalArgumentException("table must be a lower-case identifier ([a-z_][a-z0-9_]*, at most "
                    + MAX_BASE_LENGTH + " characters), optionally qualified by a schema, was '" + table + "'");
        }
        return new TableNames(schema, base);
    }

    private static boolean valid(final String part, final int maxLength) {
        return part.length() <= maxLength && IDENTIFIER.matcher(part).matches()
                && part.equals(part.toLowerCase(Locale.ROOT));
    }

    /** The timeouts table, as given (schema-qualified if it was). */
    String timeouts() {
        return schema == null ? base : schema + '.' + base;
    }

    /** The lease table, in the same schema. */
    String slices() {
        return timeouts() + "_slices";
    }

    /** The version sequence, in the same schema. */
    String sequence() {
        return timeouts() + "_version";
    }

    /** The base name, without schema (index names take no schema). */
    String base() {
        return base;
    }

    @Override
    public String toString() {
        return timeouts();
    }
}
