package io.sluice.storage.format;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.sluice.storage.codec.Codec;
import java.io.BufferedReader;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads the {@code kafka_topic}, {@code kafka_partition} and {@code kafka_offset} of each line of a JSON Lines file. */
final class JsonLinesRows implements ArchivedRows {

    private static final JsonFactory FACTORY = new JsonFactory();

    private final Codec codec;

    JsonLinesRows(Codec codec) {
        this.codec = codec;
    }

    @Override
    public void read(Path file, Visitor visitor) throws IOException {
        long lineNumber = 0;
        try (LastByte in = new LastByte(codec.decompress(Files.newInputStream(file)));
                BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16)) {
            String line;
            while ((line = lines.readLine()) != null) {
                lineNumber++;
                row(line, file, lineNumber, visitor);
            }
            // the writer ends every line: a last line without its end is a record cut short, whose coordinates may
            // still be whole (a row read only up to them passed as archived)
            if (lineNumber > 0 && in.last != '\n') {
                throw new IOException("line " + lineNumber + " has no end (a file cut short)");
            }
        } catch (IOException e) {
            throw new IOException(file + ": unreadable after line " + lineNumber + ": " + e.getMessage(), e);
        }
    }

    /** Remembers the last byte that passed, to tell whether the file ends with a line's end. */
    private static final class LastByte extends FilterInputStream {
        int last = -1;

        LastByte(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                last = b;
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = in.read(buffer, offset, length);
            if (n > 0) {
                last = buffer[offset + n - 1];
            }
            return n;
        }
    }

    private static void row(String line, Path file, long lineNumber, Visitor visitor) throws IOException {
        String topic = null;
        long partition = -1;
        long offset = -1;
        try (JsonParser p = FACTORY.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException(file + " line " + lineNumber + ": expected a JSON object");
            }
            // the writer puts the coordinates first, so stop as soon as all three are seen
            while (p.nextToken() == JsonToken.FIELD_NAME && (topic == null || partition < 0 || offset < 0)) {
                String name = p.currentName();
                p.nextToken();
                switch (name) {
                    case "kafka_topic" -> topic = p.getText();
                    case "kafka_partition" -> partition = p.getLongValue();
                    case "kafka_offset" -> offset = p.getLongValue();
                    default -> p.skipChildren();
                }
            }
        }
        if (topic == null || partition < 0 || offset < 0) {
            throw new IOException(file + " line " + lineNumber
                    + ": missing kafka_topic, kafka_partition or kafka_offset");
        }
        visitor.row(topic, (int) partition, offset);
    }
}
