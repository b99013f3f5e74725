package io.sluice.bench.acks;

import io.sluice.producer.ProducerSettings;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * One row of the acks table (seed 003): how many replicas must have a record before it is acknowledged, whether the
 * producer is idempotent, and whether the application waits for each send before the next (sync) or lets the
 * producer batch them (async). Everything else is the Kafka producer's default, as an application that sets only
 * these would have it.
 *
 * @param name        the row's name in the table and the JSON, e.g. {@code acks=1/async}
 * @param acks        {@code 0}, {@code 1} or {@code all}
 * @param idempotence whether {@code enable.idempotence} is on (only possible with acks=all)
 * @param sync        whether each send is waited for before the next one is made
 */
public record AcksMode(String name, String acks, boolean idempotence, boolean sync) {

    /** The table's rows; acks=0 only async, since waiting for a send that waits for nothing changes nothing. */
    public static final List<AcksMode> ROWS = List.of(
            new AcksMode("acks=0/async", "0", false, false),
            new AcksMode("acks=1/sync", "1", false, true),
            new AcksMode("acks=1/async", "1", false, false),
            new AcksMode("acks=all/sync", "all", false, true),
            new AcksMode("acks=all/async", "all", false, false),
            new AcksMode("all+idem/sync", "all", true, true),
            new AcksMode("all+idem/async", "all", true, false));

    /** The safe row: what {@link ProducerSettings} gives by default, and what every other row is compared with. */
    public static final AcksMode SAFE = named("all+idem/async");

    /**
     * Sync rows send this many times fewer records: one request at a time is two orders of magnitude slower, and the
     * kill lands a third of the way in whatever the count.
     */
    public static final int SYNC_SHARE = 20;

    public static AcksMode named(String name) {
        return ROWS.stream().filter(m -> m.name.equals(name)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("no acks row " + name + "; the rows: "
                        + ROWS.stream().map(AcksMode::name).toList()));
    }

    /** How many records this row sends in a trial of {@code records}. */
    public int records(int records) {
        return sync ? Math.max(1, records / SYNC_SHARE) : records;
    }

    /**
     * The producer's properties over {@code client} (bootstrap servers, security, and timeouts a test lowers): the
     * safe settings with this row's acks and idempotence, loss allowed, since showing it is the point.
     */
    public Map<String, Object> producerProperties(Map<String, Object> client) {
        return ProducerSettings.on(client)
                .set(ProducerConfig.ACKS_CONFIG, acks)
                .set(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, idempotence)
                .allowLoss(true)
                .build()
                .properties();
    }
}
