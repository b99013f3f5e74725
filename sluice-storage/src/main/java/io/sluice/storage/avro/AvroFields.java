package io.sluice.storage.avro;

import io.sluice.storage.value.UnreadableFieldException;
import io.sluice.storage.value.ValueFields;
import java.time.Instant;
import org.apache.avro.generic.GenericRecord;

/**
 * One decoded Avro value and the layout's paths into it.
 *
 * <p>Threading: confined to the thread that decoded it.
 */
public final class AvroFields implements ValueFields {

    private final GenericRecord record;
    private final AvroPath[] paths;

    AvroFields(GenericRecord record, AvroPath[] paths) {
        this.record = record;
        this.paths = paths;
    }

    /**
     * The decoded value: of the writer schema when the reader was asked for the whole value, otherwise of a
     * projection that holds only the layout's fields.
     */
    public GenericRecord record() {
        return record;
    }

    @Override
    public String text(int i) {
        return paths[i].text(record);
    }

    @Override
    public Instant time(int i) throws UnreadableFieldException {
        return paths[i].time(record);
    }
}
