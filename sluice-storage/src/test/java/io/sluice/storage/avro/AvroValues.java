package io.sluice.storage.avro;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/** Values as producers write them: Avro binary, plain or in the Confluent wire format. */
public final class AvroValues {

    private AvroValues() {
    }

    /** The datum's Avro binary encoding, nothing else. */
    public static byte[] binary(GenericRecord record) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
            new GenericDatumWriter<GenericRecord>(record.getSchema()).write(record, encoder);
            encoder.flush();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The Confluent wire format: the magic byte 0, the schema id (big-endian), the datum. */
    public static byte[] confluent(int schemaId, GenericRecord record) {
        byte[] avro = binary(record);
        byte[] framed = new byte[5 + avro.length];
        framed[1] = (byte) (schemaId >>> 24);
        framed[2] = (byte) (schemaId >>> 16);
        framed[3] = (byte) (schemaId >>> 8);
        framed[4] = (byte) schemaId;
        System.arraycopy(avro, 0, framed, 5, avro.length);
        return framed;
    }
}
