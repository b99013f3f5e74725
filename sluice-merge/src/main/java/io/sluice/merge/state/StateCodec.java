package io.sluice.merge.state;

import io.sluice.merge.order.MergeKey;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * Writes a {@link MergeState} as the metadata of the output partition's progress offset, and reads it back. The text
 * is short ({@code merge1 cfg=<hash> pos=12,40 last=1764072000000/1/39 out=<topic ID> in=<hash>}) because the broker
 * limits offset metadata to {@code offset.metadata.max.bytes} (4096 by default): about a hundred inputs fit.
 * {@code cfg} is a hash of what the positions mean (the inputs in order, and the order key); a commit made under
 * another configuration is refused with words instead of being read as positions of the wrong inputs. {@code in} is a
 * hash of the input topics' IDs: positions are offsets of those topics, and an input topic deleted and created again,
 * or an input pointed at another cluster's topic of the same name, would be read from them, skipping what lies below.
 *
 * <p>Threading: immutable, any thread.
 */
public final class StateCodec {

    /** What the broker accepts by default; a configuration whose state could be longer is refused up front. */
    public static final int METADATA_LIMIT = 4096;

    private static final String VERSION = "merge1";

    private final String fingerprint;
    private final int inputs;
    /** The output topic's ID, written with every state and checked when read; null: neither. */
    private final String outputId;
    /** A hash of the input topics' IDs in order, written and checked as {@link #outputId} is; null: neither. */
    private final String inputsId;

    /** {@code inputs}: each input's name and topic, in the configured order; {@code orderBy} as configured. */
    public StateCodec(List<String> inputs, String orderBy) {
        this(inputs.size(), hash(String.join("\n", inputs) + "\n" + orderBy), null, null);
    }

    private StateCodec(int inputs, String fingerprint, String outputId, String inputsId) {
        this.inputs = inputs;
        this.fingerprint = fingerprint;
        this.outputId = outputId;
        this.inputsId = inputsId;
    }

    /**
     * This codec, tied to the output topic with ID {@code topicId}: the progress of a deleted and recreated output
     * topic (same name, another ID) is refused instead of resumed, since the new topic holds none of what it covers.
     */
    public StateCodec forOutput(String topicId) {
        return new StateCodec(inputs, fingerprint, topicId, inputsId);
    }

    /**
     * This codec, tied to the input topics with IDs {@code topicIds} (in the inputs' order; null, or an ID unknown:
     * not tied): a state committed while reading other topics under the same names is refused, not resumed.
     */
    public StateCodec forInputs(List<String> topicIds) {
        boolean known = topicIds != null && topicIds.stream().allMatch(id -> id != null && !id.isEmpty());
        return new StateCodec(inputs, fingerprint, outputId, known ? hash(String.join(",", topicIds)) : null);
    }

    public String encode(MergeState state) {
        StringBuilder s = new StringBuilder(32 + 20 * state.inputs());
        s.append(VERSION).append(" cfg=").append(fingerprint).append(" pos=");
        for (int i = 0; i < state.inputs(); i++) {
            s.append(i == 0 ? "" : ",").append(state.position(i));
        }
        MergeKey last = state.last();
        if (!last.equals(MergeKey.NONE)) {
            s.append(" last=").append(last.time()).append('/').append(last.input()).append('/').append(last.offset());
        }
        if (outputId != null) {
            s.append(" out=").append(outputId);
        }
        if (inputsId != null) {
            s.append(" in=").append(inputsId);
        }
        return s.toString();
    }

    /** The longest state this merge can write: what the configuration check compares with the broker's limit. */
    public int longest() {
        long[] worst = new long[inputs];
        java.util.Arrays.fill(worst, Long.MAX_VALUE);
        return encode(new MergeState(worst, new MergeKey(Long.MIN_VALUE, inputs, Long.MAX_VALUE), 0)).length()
                + (outputId == null ? " out=".length() + 22 : 0) + (inputsId == null ? " in=".length() + 12 : 0);
    }

    /**
     * Reads what {@link #encode} wrote, with {@code emitted} the committed offset itself.
     *
     * @throws IllegalStateException in words, when the commit was made by another version or configuration
     */
    public MergeState decode(String metadata, long emitted, String where) {
        String[] parts = metadata == null ? new String[0] : metadata.trim().split(" ");
        if (parts.length < 3 || !parts[0].equals(VERSION) || !parts[2].startsWith("pos=")) {
            throw new IllegalStateException(where + " holds progress this merge cannot read ('" + metadata + "'): "
                    + "was it written by another tool, or by a merge of another name? Give this merge its own name.");
        }
        if (!parts[1].equals("cfg=" + fingerprint)) {
            throw new IllegalStateException(where + " was committed by this merge under other inputs or another "
                    + "order key: its positions would be read as the wrong inputs'. Restore the inputs (names, "
                    + "topics, order) and order-by it ran with, or merge into a new output under a new merge name.");
        }
        String[] positions = parts[2].substring("pos=".length()).split(",");
        if (positions.length != inputs) {
            throw new IllegalStateException(where + " holds positions of " + positions.length + " inputs, not "
                    + inputs);
        }
        long[] pos = new long[inputs];
        for (int i = 0; i < inputs; i++) {
            pos[i] = Long.parseLong(positions[i]);
        }
        MergeKey last = MergeKey.NONE;
        for (int i = 3; i < parts.length; i++) {
            if (parts[i].startsWith("last=")) {
                String[] k = parts[i].substring("last=".length()).split("/");
                last = new MergeKey(Long.parseLong(k[0]), Integer.parseInt(k[1]), Long.parseLong(k[2]));
            } else if (parts[i].startsWith("out=") && outputId != null
                    && !parts[i].substring("out=".length()).equals(outputId)) {
                throw new IllegalStateException(where + " belongs to an earlier output topic of the same name (topic "
                        + "ID " + parts[i].substring("out=".length()) + ", now " + outputId + "): the topic was deleted "
                        + "and created again, and holds none of what that progress covers. Merge under a new name to "
                        + "start from the inputs' beginning, or delete the group holding the progress.");
            } else if (parts[i].startsWith("in=") && inputsId != null
                    && !parts[i].substring("in=".length()).equals(inputsId)) {
                throw new IllegalStateException(where + " was committed while the merge read other input topics of "
                        + "the same names (an input topic was deleted and created again, or an input now points at "
                        + "another cluster): its positions are offsets of those topics, and reading the new ones from "
                        + "them would skip or repeat records. Point the inputs back, or merge into a new output topic "
                        + "under a new merge name (a new name into this output would write again what it holds).");
            }
        }
        return new MergeState(pos, last, emitted);
    }

    private static String hash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
