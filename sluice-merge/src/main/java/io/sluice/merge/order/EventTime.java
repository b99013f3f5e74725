package io.sluice.merge.order;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Reads a record's event time, the merge's first sort key. Threading: stateless, any thread. */
public interface EventTime {

    /** Milliseconds since the epoch; an {@link EventTimeException} says in words why there is none. */
    long of(ConsumerRecord<byte[], byte[]> record) throws EventTimeException;

    /** How the configuration names it: {@code timestamp} or {@code value.<field path>}. */
    String describe();

    /** The record's own timestamp (CreateTime as the producer set it, or the broker's LogAppendTime). */
    static EventTime timestamp() {
        return new EventTime() {
            @Override
            public long of(ConsumerRecord<byte[], byte[]> record) throws EventTimeException {
                // -1: its producer set none (clients other than Java's may); ordered as -1 it was late for every merge
                if (record.timestamp() < 0) {
                    throw new EventTimeException("it has no timestamp (" + record.timestamp() + ": its producer set "
                            + "none); to merge such records, order by a field of their values (order-by: value.<field>)");
                }
                return record.timestamp();
            }

            @Override
            public String describe() {
                return "timestamp";
            }
        };
    }

    /**
     * {@code value.<a.b.c>} of Avro values written with {@code schema}: plain Avro binary, or with {@code framed} in
     * the Confluent framing. The field path is checked against the schema at once (a misspelt or non-time field is
     * refused in words); {@code timestamp} needs no schema and is returned as such.
     */
    static EventTime avro(String spec, org.apache.avro.Schema schema, boolean framed) {
        if (spec == null || spec.isBlank() || spec.equals("timestamp")) {
            return timestamp();
        }
        if (spec.startsWith("value.") && spec.length() > "value.".length()) {
            return new AvroTimeField(schema, spec.substring("value.".length()), framed);
        }
        return parse(spec); // refused with the accepted forms
    }

    /**
     * Parses {@code timestamp} or {@code value.<a.b.c>} (a field of a JSON value: epoch milliseconds, or ISO-8601
     * text); anything else is refused with the accepted forms.
     */
    static EventTime parse(String spec) {
        if (spec == null || spec.isBlank() || spec.equals("timestamp")) {
            return timestamp();
        }
        if (spec.startsWith("value.") && spec.length() > "value.".length()) {
            return new JsonTimeField(spec.substring("value.".length()));
        }
        throw new IllegalArgumentException("order-by '" + spec + "' is not understood: use 'timestamp' (the records' "
                + "timestamps) or 'value.<field>' (a field of JSON values, e.g. value.event.time, holding epoch "
                + "milliseconds or ISO-8601 text)");
    }
}
