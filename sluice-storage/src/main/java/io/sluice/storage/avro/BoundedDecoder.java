package io.sluice.storage.avro;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.Decoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.util.Utf8;

/**
 * Avro's binary decoder over one value's bytes, with the lengths of strings and bytes checked against the bytes that
 * are left before anything is allocated: Avro's own decoder allocates a length first and reads after, so one garbled
 * length in a malformed value would ask for up to 2 GiB of heap. It also tells the position, for error messages.
 *
 * <p>Threading: one thread at a time; {@link #reset} points it at the next value and reuses the buffers.
 */
final class BoundedDecoder extends Decoder {

    private BinaryDecoder in;
    private int end;

    /** Decodes {@code value[from..]} next. */
    BoundedDecoder reset(byte[] value, int from) {
        in = DecoderFactory.get().binaryDecoder(value, from, value.length - from, in);
        end = value.length;
        return this;
    }

    /** The position in the value of the next byte to decode. */
    int position() throws IOException {
        return end - remaining();
    }

    /** The bytes not decoded yet. */
    int remaining() throws IOException {
        return in.inputStream().available();
    }

    private int length(String what) throws IOException {
        long n = in.readLong();
        if (n < 0) {
            throw new IOException("a negative length " + n + " for " + what);
        }
        if (n > remaining()) {
            throw new IOException("a length of " + n + " bytes for " + what + ", but only " + remaining()
                    + " bytes are left");
        }
        return (int) n;
    }

    @Override
    public Utf8 readString(Utf8 old) throws IOException {
        int n = length("a string");
        Utf8 s = old != null ? old : new Utf8();
        s.setByteLength(n);
        in.readFixed(s.getBytes(), 0, n);
        return s;
    }

    @Override
    public String readString() throws IOException {
        return readString(null).toString();
    }

    @Override
    public ByteBuffer readBytes(ByteBuffer old) throws IOException {
        int n = length("bytes");
        ByteBuffer b = old != null && old.capacity() >= n ? old.clear() : ByteBuffer.allocate(n);
        in.readFixed(b.array(), b.position(), n);
        b.limit(n);
        return b;
    }

    @Override
    public void readNull() throws IOException {
        in.readNull();
    }

    @Override
    public boolean readBoolean() throws IOException {
        return in.readBoolean();
    }

    @Override
    public int readInt() throws IOException {
        return in.readInt();
    }

    @Override
    public long readLong() throws IOException {
        return in.readLong();
    }

    @Override
    public float readFloat() throws IOException {
        return in.readFloat();
    }

    @Override
    public double readDouble() throws IOException {
        return in.readDouble();
    }

    @Override
    public void skipString() throws IOException {
        in.skipString();
    }

    @Override
    public void skipBytes() throws IOException {
        in.skipBytes();
    }

    @Override
    public void readFixed(byte[] bytes, int start, int length) throws IOException {
        in.readFixed(bytes, start, length);
    }

    @Override
    public void skipFixed(int length) throws IOException {
        in.skipFixed(length);
    }

    @Override
    public int readEnum() throws IOException {
        return in.readEnum();
    }

    @Override
    public long readArrayStart() throws IOException {
        return in.readArrayStart();
    }

    @Override
    public long arrayNext() throws IOException {
        return in.arrayNext();
    }

    @Override
    public long skipArray() throws IOException {
        return in.skipArray();
    }

    @Override
    public long readMapStart() throws IOException {
        return in.readMapStart();
    }

    @Override
    public long mapNext() throws IOException {
        return in.mapNext();
    }

    @Override
    public long skipMap() throws IOException {
        return in.skipMap();
    }

    @Override
    public int readIndex() throws IOException {
        return in.readIndex();
    }
}
