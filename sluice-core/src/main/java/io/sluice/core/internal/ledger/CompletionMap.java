package io.sluice.core.internal.ledger;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Base64;

/**
 * The offsets at or after a base offset that are already complete, as committed in the offset metadata so that a
 * restart or a new owner skips them instead of processing them again.
 *
 * <p>Encoded in the smaller of two forms, each prefixed by its letter: {@code R} run lengths (alternating runs of
 * pending and complete offsets, starting with pending, as unsigned varints) for the usual few long runs, and
 * {@code B} a bitset for the worst case of interleaved offsets. Both are Base64url without padding, so the text is
 * safe in metadata. A bitset costs {@code span / 6} characters at most, which is how the engine sizes the window so
 * the map always fits the broker's {@code offset.metadata.max.bytes}.
 *
 * <p>Immutable.
 */
public final class CompletionMap {

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private final long base;
    private final int span;
    private final long[] complete;

    CompletionMap(long base, int span, long[] complete) {
        this.base = base;
        this.span = span;
        this.complete = complete;
    }

    public static CompletionMap empty(long base) {
        return new CompletionMap(base, 0, new long[0]);
    }

    /** The first offset the map speaks of: the committed offset. */
    public long base() {
        return base;
    }

    /** How many offsets from {@link #base()} the map covers; offsets at or beyond {@code base + span} are not complete. */
    public int span() {
        return span;
    }

    public boolean isEmpty() {
        return completeCount() == 0;
    }

    public boolean isComplete(long offset) {
        long i = offset - base;
        return i >= 0 && i < span && (complete[(int) (i >>> 6)] & (1L << i)) != 0;
    }

    public int completeCount() {
        int n = 0;
        for (long w : complete) {
            n += Long.bitCount(w);
        }
        return n;
    }

    /** The most characters a map of {@code span} offsets can take, whatever its content. */
    public static int maxEncodedLength(int span) {
        return 1 + (((span + 7) / 8) * 4 + 2) / 3;
    }

    /** The encoded form; the empty string when nothing beyond the base is complete. */
    public String encode() {
        if (isEmpty()) {
            return "";
        }
        int last = lastComplete();
        String runs = "R" + ENCODER.encodeToString(runLengths(last));
        byte[] bits = new byte[(last + 8) / 8];
        for (int i = 0; i <= last; i++) {
            if (isComplete(base + i)) {
                bits[i >>> 3] |= (byte) (1 << (i & 7));
            }
        }
        String bitset = "B" + ENCODER.encodeToString(bits);
        return runs.length() <= bitset.length() ? runs : bitset;
    }

    /** The map a commit's metadata holds beyond its offset; empty when the engine did not write the metadata. */
    public static CompletionMap fromCommit(long offset, String metadata) {
        return io.sluice.core.wire.CommitMetadata.completionMap(metadata).map(text -> decode(offset, text))
                .orElseGet(() -> empty(offset));
    }

    /**
     * Reads a map written by {@link #encode()} for the partition committed at {@code base}.
     *
     * @throws IllegalArgumentException with what is wrong, if the text is not a map this version wrote
     */
    public static CompletionMap decode(long base, String text) {
        if (text.isEmpty()) {
            return empty(base);
        }
        byte[] payload;
        try {
            payload = DECODER.decode(text.substring(1));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("completion map is not Base64url: " + abbreviate(text), e);
        }
        return switch (text.charAt(0)) {
            case 'B' -> fromBits(base, payload);
            case 'R' -> fromRuns(base, payload, text);
            default -> throw new IllegalArgumentException("unknown completion map kind '" + text.charAt(0) + "' in "
                    + abbreviate(text));
        };
    }

    private int lastComplete() {
        for (int w = complete.length - 1; w >= 0; w--) {
            if (complete[w] != 0) {
                return w * 64 + 63 - Long.numberOfLeadingZeros(complete[w]);
            }
        }
        return -1;
    }

    private byte[] runLengths(int last) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        boolean state = false; // runs start with pending offsets
        int run = 0;
        for (int i = 0; i <= last; i++) {
            boolean c = isComplete(base + i);
            if (c != state) {
                writeVarint(out, run);
                state = c;
                run = 0;
            }
            run++;
        }
        writeVarint(out, run);
        return out.toByteArray();
    }

    private static CompletionMap fromBits(long base, byte[] bits) {
        int span = bits.length * 8;
        long[] complete = new long[(span + 63) >>> 6];
        for (int i = 0; i < span; i++) {
            if ((bits[i >>> 3] & (1 << (i & 7))) != 0) {
                complete[i >>> 6] |= 1L << i;
            }
        }
        return new CompletionMap(base, span, complete);
    }

    private static CompletionMap fromRuns(long base, byte[] runs, String text) {
        int[] position = {0};
        long[] complete = new long[4];
        int offset = 0;
        boolean state = false;
        while (position[0] < runs.length) {
            int run = readVarint(runs, position, text);
            if (state) {
                int needed = ((offset + run) + 63) >>> 6;
                if (needed > complete.length) {
                    complete = Arrays.copyOf(complete, Math.max(needed, complete.length * 2));
                }
                for (int i = offset; i < offset + run; i++) {
                    complete[i >>> 6] |= 1L << i;
                }
            }
            offset += run;
            state = !state;
        }
        return new CompletionMap(base, offset, complete);
    }

    private static void writeVarint(ByteArrayOutputStream out, int value) {
        while ((value & ~0x7F) != 0) {
            out.write((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        out.write(value);
    }

    private static int readVarint(byte[] in, int[] position, String text) {
        int value = 0;
        for (int shift = 0; shift < 32; shift += 7) {
            if (position[0] >= in.length) {
                throw new IllegalArgumentException("truncated completion map " + abbreviate(text));
            }
            byte b = in[position[0]++];
            value |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                if (value < 0 || value > 1 << 24) {
                    throw new IllegalArgumentException("run length out of range in " + abbreviate(text));
                }
                return value;
            }
        }
        throw new IllegalArgumentException("malformed varint in completion map " + abbreviate(text));
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? "'" + text + "'" : "'" + text.substring(0, 40) + "...' (" + text.length() + " chars)";
    }

    @Override
    public String toString() {
        return "CompletionMap[base=" + base + ", span=" + span + ", complete=" + completeCount() + "]";
    }
}
