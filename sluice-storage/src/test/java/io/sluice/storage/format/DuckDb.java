package io.sluice.storage.format;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * DuckDB in process, through its JDBC driver: the independent reader of the files Sluice writes. For tests.
 *
 * <p>Threading: one thread at a time (a JDBC connection).
 */
public final class DuckDb implements AutoCloseable {

    private final Connection connection;

    public DuckDb() throws SQLException {
        connection = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement s = connection.createStatement()) {
            // the readers used here are built in; a test must never reach out to the network for an extension
            s.execute("SET autoinstall_known_extensions = false");
        }
    }

    /** The rows of a query, each as a list of column values. */
    public List<List<Object>> rows(String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int c = 1; c <= columns; c++) {
                    row.add(rs.getObject(c));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** The one row of a query, its columns rendered as text and joined by '|', for compact assertions. */
    public String row(String sql) throws SQLException {
        List<List<Object>> rows = rows(sql);
        if (rows.size() != 1) {
            throw new AssertionError("expected one row from " + sql + ", got " + rows);
        }
        return rows.get(0).stream().map(String::valueOf).collect(Collectors.joining("|"));
    }

    /** Rows, first and last offset, sum of offsets, topic and partition of the rows {@code from} (a FROM clause). */
    String coordinates(String from) throws SQLException {
        return row("SELECT count(*), min(kafka_offset), max(kafka_offset), sum(kafka_offset), min(kafka_topic), "
                + "max(kafka_partition)" + from);
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
